/* library.c — library calls run as one step (RG_LIB) with abstract
 * accesses: the policy is in docs/LIBRARY.md, the table of functions in
 * src/dpor/hooks.c.  The call runs natively (run_region) from the hook on
 * its entry to its return; what it really touches inside (malloc's arena,
 * stdio's FILE and buffer) is the library's business.  Its event says what
 * the program can observe of it:
 *   - the malloc family writes the first EV_BLOCK_HEAD bytes of the block
 *     it frees (free, realloc) and of the block it returns (known at the
 *     return): a free conflicts with the accesses to the block's start, a
 *     block returned again after a free is ordered after that free, and
 *     two calls on different blocks commute (the allocator's state is
 *     abstracted away, as in other stateless model checkers: a program
 *     whose behaviour depends on which address malloc returns is not
 *     explored for every address order);
 *   - stdio output writes its stream's descriptor, the pseudo-location
 *     EV_ADDR_FD + fd that the write syscall's event writes too. */
#include "tracer/tracer_priv.h"

#define FILE_FILENO 112 /* offsetof(FILE, _fileno), glibc x86-64 */
#define ALL_FDS 1024    /* fflush(NULL), or a stream we cannot read */

bool lib_hook(uint8_t hook)
{
	return hook >= HOOK_LIB_ALLOC && hook <= HOOK_LIB_FILE_RCX;
}

static void acc(struct tr_event *ev, uint64_t addr, uint64_t size,
		uint8_t rw)
{
	if (addr && ev->nacc < DEC_MAX_MEM)
		ev->acc[ev->nacc++] = (struct dec_access){ addr, size, rw, 0 };
}

static void stream(struct tracer *t, struct tr_event *ev, uint64_t file)
{
	int32_t fd = -1;

	if (file && proc_read(&t->proc, file + FILE_FILENO, &fd, 4) == 4 &&
	    fd >= 0 && fd < ALL_FDS)
		acc(ev, EV_ADDR_FD + (uint64_t)fd, 1, DEC_WRITE);
	else
		acc(ev, EV_ADDR_FD, ALL_FDS, DEC_WRITE);
}

void lib_event(struct tracer *t, struct lthread *th, uint8_t hook,
	       struct tr_event *ev)
{
	const struct user_regs_struct *r = &th->regs;

	ev->kind = EV_CALL;
	ev->region = RG_LIB;
	th->lib_hook = hook;
	th->lib_arg = r->rdi;
	th->lib_done = false;
	switch (hook) {
	case HOOK_LIB_FREE:
	case HOOK_LIB_REALLOC:
		acc(ev, r->rdi, EV_BLOCK_HEAD, DEC_WRITE);
		break;
	case HOOK_LIB_MEMALIGN:
		acc(ev, r->rdi, 8, DEC_WRITE); /* the program's pointer */
		break;
	case HOOK_LIB_STDOUT:
		acc(ev, EV_ADDR_FD + 1, 1, DEC_WRITE);
		break;
	case HOOK_LIB_STDERR:
		acc(ev, EV_ADDR_FD + 2, 1, DEC_WRITE);
		break;
	case HOOK_LIB_FILE_RDI:
		stream(t, ev, r->rdi);
		break;
	case HOOK_LIB_FILE_RSI:
		stream(t, ev, r->rsi);
		break;
	case HOOK_LIB_FILE_RCX:
		stream(t, ev, r->rcx);
		break;
	default: /* HOOK_LIB_ALLOC: known at the return */
		break;
	}
}

void lib_returned(struct lthread *th)
{
	th->lib_ret = th->regs.rax;
	th->lib_done = true;
}

void lib_after(struct tracer *t, struct lthread *th, struct tr_event *done)
{
	uint64_t p = 0;

	if (!th->lib_done) /* it blocked inside: what it returns is unknown */
		return;
	th->lib_done = false;
	switch (th->lib_hook) {
	case HOOK_LIB_ALLOC:
	case HOOK_LIB_REALLOC:
		p = th->lib_ret;
		break;
	case HOOK_LIB_MEMALIGN:
		if (th->lib_ret == 0 &&
		    proc_read(&t->proc, th->lib_arg, &p, 8) != 8)
			p = 0;
		break;
	default:
		return;
	}
	acc(done, p, EV_BLOCK_HEAD, DEC_WRITE);
}
