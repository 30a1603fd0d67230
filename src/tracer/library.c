/* library.c — library calls run as one step (RG_LIB) with abstract
 * accesses: the policy is in docs/LIBRARY.md, the table of functions in
 * src/dpor/hooks.c.  The call runs natively (region_run) from the hook on
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
 *     EV_ADDR_FD + fd that the write syscall's event writes too, and
 *     reads (or, for %n, writes) the program memory its arguments point
 *     to: the format, its strings, fwrite's buffer (issue 15, hole 7). */
#include <printf.h>
#include <string.h>

#include "tracer/tracer_priv.h"

#define FILE_FILENO 112 /* offsetof(FILE, _fileno), glibc x86-64 */
#define FILE_SIZE 216   /* sizeof(FILE) */
#define ALL_FDS EV_NFDS /* fflush(NULL), or a stream we cannot read */
#define MAX_STR (64u << 10) /* a string argument is read up to this */
#define MAX_ARGS 64     /* printf arguments whose types are looked at */

bool lib_hook(uint8_t hook)
{
	return hook >= HOOK_LIB_ALLOC && hook <= HOOK_LIB_LAST;
}

/* What a stdio output call touches, by its arguments (registers rdi,
 * rsi, rdx, rcx, r8, r9 = 0..5): the stream (fd 1, fd 2, or the FILE *
 * in argument file), the format (argument fmt, its variable arguments
 * from argument va on, or a va_list there), a string (argument str), a
 * buffer of a[size] * a[nmemb] bytes (argument buf). -1: none. */
enum { S_NONE, S_STDOUT, S_STDERR, S_ARG };
static const struct shape {
	uint8_t stream;
	int8_t file, fmt, va, str, buf, size, nmemb;
	bool va_list;
} shapes[] = {
	[HOOK_LIB_PUTCHAR - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, -1, -1, -1, -1, -1, -1, false },
	[HOOK_LIB_PUTS - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, -1, -1, 0, -1, -1, -1, false },
	[HOOK_LIB_PERROR - HOOK_LIB_PUTCHAR] = { S_STDERR, -1, -1, -1, 0, -1, -1, -1, false },
	[HOOK_LIB_PRINTF - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, 0, 1, -1, -1, -1, -1, false },
	[HOOK_LIB_VPRINTF - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, 0, 1, -1, -1, -1, -1, true },
	[HOOK_LIB_PRINTF_CHK - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, 1, 2, -1, -1, -1, -1, false },
	[HOOK_LIB_VPRINTF_CHK - HOOK_LIB_PUTCHAR] = { S_STDOUT, -1, 1, 2, -1, -1, -1, -1, true },
	[HOOK_LIB_FPRINTF - HOOK_LIB_PUTCHAR] = { S_ARG, 0, 1, 2, -1, -1, -1, -1, false },
	[HOOK_LIB_VFPRINTF - HOOK_LIB_PUTCHAR] = { S_ARG, 0, 1, 2, -1, -1, -1, -1, true },
	[HOOK_LIB_FPRINTF_CHK - HOOK_LIB_PUTCHAR] = { S_ARG, 0, 2, 3, -1, -1, -1, -1, false },
	[HOOK_LIB_VFPRINTF_CHK - HOOK_LIB_PUTCHAR] = { S_ARG, 0, 2, 3, -1, -1, -1, -1, true },
	[HOOK_LIB_FFLUSH - HOOK_LIB_PUTCHAR] = { S_ARG, 0, -1, -1, -1, -1, -1, -1, false },
	[HOOK_LIB_FPUTS - HOOK_LIB_PUTCHAR] = { S_ARG, 1, -1, -1, 0, -1, -1, -1, false },
	[HOOK_LIB_FPUTC - HOOK_LIB_PUTCHAR] = { S_ARG, 1, -1, -1, -1, -1, -1, -1, false },
	[HOOK_LIB_FWRITE - HOOK_LIB_PUTCHAR] = { S_ARG, 3, -1, -1, -1, 0, 1, 2, false },
};

static void acc(struct tr_event *ev, uint64_t addr, uint64_t size,
		uint8_t rw)
{
	struct dec_access a = { addr, size, rw, DEC_MEM_EXPLICIT };

	if (addr && size)
		acc_merge(ev->acc, &ev->nacc, EV_MAX_ACC, &a);
}

static uint64_t reg_arg(const struct user_regs_struct *r, int i)
{
	const uint64_t v[6] = { r->rdi, r->rsi, r->rdx, r->rcx, r->r8, r->r9 };

	return i >= 0 && i < 6 ? v[i] : 0;
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

/* The length of the string at p in units of `unit` bytes, its
 * terminator included (at most MAX_STR bytes: a longer one, or one
 * running into unmapped memory, counts as what could be read). */
static uint64_t str_bytes(struct tracer *t, uint64_t p, unsigned unit)
{
	uint8_t buf[512];
	uint64_t n = 0;

	while (n < MAX_STR) {
		size_t got = proc_read(&t->proc, p + n, buf, sizeof buf);
		for (size_t i = 0; i + unit <= got; i += unit) {
			uint32_t c = 0;
			memcpy(&c, buf + i, unit);
			if (!c)
				return n + i + unit;
		}
		if (got < sizeof buf)
			return n + got;
		n += sizeof buf;
	}
	return n;
}

/* Where the variable arguments of a call are, at its entry: the
 * registers after the fixed ones and the stack above the return
 * address, or a va_list (SysV x86-64 ABI, 3.5.7). */
struct va {
	struct tracer *t;
	const struct user_regs_struct *r;
	bool list;
	unsigned gp, fp;   /* direct: registers used; va_list: offsets */
	uint64_t overflow; /* the next argument in memory */
	uint64_t save;     /* va_list: the register save area */
};

static bool va_open(struct va *v, struct tracer *t,
		    const struct user_regs_struct *r, int first, bool list)
{
	struct {
		uint32_t gp, fp;
		uint64_t overflow, save;
	} tag;

	*v = (struct va){ .t = t, .r = r, .list = list };
	if (!list) {
		v->gp = (unsigned)first;
		v->overflow = r->rsp + 8;
		return true;
	}
	if (proc_read(&t->proc, reg_arg(r, first), &tag, sizeof tag) !=
	    sizeof tag)
		return false;
	v->gp = tag.gp;
	v->fp = tag.fp;
	v->overflow = tag.overflow;
	v->save = tag.save;
	return true;
}

static uint64_t va_int(struct va *v)
{
	uint64_t x = 0, at;

	if (!v->list && v->gp < 6)
		return reg_arg(v->r, (int)v->gp++);
	if (v->list && v->gp < 48) {
		at = v->save + v->gp;
		v->gp += 8;
	} else {
		at = v->overflow;
		v->overflow += 8;
	}
	proc_read(&v->t->proc, at, &x, 8);
	return x;
}

static void va_double(struct va *v, bool long_double)
{
	if (long_double) { /* always in memory, 16-aligned */
		v->overflow = (v->overflow + 15) & ~15ull;
		v->overflow += 16;
	} else if (!v->list && v->fp < 8) {
		v->fp++;
	} else if (v->list && v->fp < 176) {
		v->fp += 16;
	} else {
		v->overflow += 8;
	}
}

/* The program memory a printf-family call reads (the format, its %s
 * strings) and writes (%n), from the types glibc's own parser gives
 * (parse_printf_format): positional arguments and '*' included. */
static void format_accesses(struct tracer *t, const struct user_regs_struct *r,
			    const struct shape *sh, struct tr_event *ev)
{
	static char fmt[MAX_STR + 1];
	int types[MAX_ARGS];
	uint64_t f = reg_arg(r, sh->fmt), len = f ? str_bytes(t, f, 1) : 0;
	struct va v;

	acc(ev, f, len, DEC_READ);
	if (!len || proc_read(&t->proc, f, fmt, len) != len ||
	    fmt[len - 1] != 0 || !va_open(&v, t, r, sh->va, sh->va_list))
		return;
	size_t n = parse_printf_format(fmt, MAX_ARGS, types);
	for (size_t i = 0; i < n && i < MAX_ARGS; i++) {
		int ty = types[i];
		if (ty & PA_FLAG_PTR) { /* %n: writes an int of its size */
			uint64_t p = va_int(&v);
			unsigned sz = (ty & (PA_FLAG_LONG | PA_FLAG_LONG_LONG))
					      ? 8
				      : (ty & ~PA_FLAG_MASK) == PA_CHAR ? 1
				      : (ty & PA_FLAG_SHORT)		 ? 2
									 : 4;
			acc(ev, p, sz, DEC_WRITE);
			continue;
		}
		switch (ty & ~PA_FLAG_MASK) {
		case PA_DOUBLE:
		case PA_FLOAT:
			va_double(&v, ty & PA_FLAG_LONG_DOUBLE);
			break;
		case PA_STRING: {
			uint64_t p = va_int(&v);
			acc(ev, p, p ? str_bytes(t, p, 1) : 0, DEC_READ);
			break;
		}
		case PA_WSTRING: {
			uint64_t p = va_int(&v);
			acc(ev, p, p ? str_bytes(t, p, 4) : 0, DEC_READ);
			break;
		}
		default: /* integers, chars, %p: no memory */
			va_int(&v);
			break;
		}
	}
	if (n > MAX_ARGS) /* more than we looked at: all memory, read */
		acc(ev, 1, UINT64_MAX / 2, DEC_READ);
}

/* A stdio call's accesses: its stream's fd, written, and the program
 * memory it reads or writes, those another thread can see.  Computed when
 * its event is found and again when it is performed (lib_begin): the
 * strings are read as they are then. */
static void stdio_event(struct tracer *t, const struct lthread *th,
			uint8_t hook, struct tr_event *ev)
{
	const struct shape *sh = &shapes[hook - HOOK_LIB_PUTCHAR];
	const struct user_regs_struct *r = &th->regs;
	struct tr_event mem;

	uint64_t file = sh->stream == S_STDOUT   ? t->stdio_file[1]
			: sh->stream == S_STDERR ? t->stdio_file[2]
						 : reg_arg(r, sh->file);

	ev->nacc = 0;
	if (sh->stream == S_STDOUT)
		acc(ev, EV_ADDR_FD + 1, 1, DEC_WRITE);
	else if (sh->stream == S_STDERR)
		acc(ev, EV_ADDR_FD + 2, 1, DEC_WRITE);
	else
		stream(t, ev, file);
	memset(&mem, 0, sizeof mem);
	/* the FILE itself (its buffer pointers, its lock): what exit's
	 * flush and stdio code run instruction by instruction touch */
	acc(&mem, file, FILE_SIZE, DEC_READ | DEC_WRITE);
	if (sh->str >= 0 && reg_arg(r, sh->str))
		acc(&mem, reg_arg(r, sh->str),
		    str_bytes(t, reg_arg(r, sh->str), 1), DEC_READ);
	if (sh->buf >= 0)
		acc(&mem, reg_arg(r, sh->buf),
		    reg_arg(r, sh->size) * reg_arg(r, sh->nmemb), DEC_READ);
	if (sh->fmt >= 0)
		format_accesses(t, r, sh, &mem);
	tr_add_shared(t, th, ev, mem.acc, mem.nacc);
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
	case HOOK_LIB_ALLOC: /* known at the return */
		break;
	case HOOK_LIB_OWN: /* the caller's own list or slot */
		break;
	case HOOK_LIB_KEY:
		acc(ev, EV_ADDR_KEYS, 1, DEC_READ | DEC_WRITE);
		break;
	default:
		stdio_event(t, th, hook, ev);
		break;
	}
}

void lib_begin(struct tracer *t, struct lthread *th, struct tr_event *ev)
{
	if (th->lib_hook >= HOOK_LIB_PUTCHAR && th->lib_hook <= HOOK_LIB_LAST)
		stdio_event(t, th, th->lib_hook, ev);
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
