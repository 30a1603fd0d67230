/* hooks.c — the benchmark conventions, found by symbol (hooks.h). */
#include "dpor/hooks.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpor/lang.h"

static const struct {
	const char *name;
	enum tr_hook hook;
} conventions[] = {
	{ "__VERIFIER_assume", HOOK_ASSUME },
	{ "__VERIFIER_error", HOOK_ERROR },
	{ "reach_error", HOOK_ERROR },
	{ "__VERIFIER_atomic_begin", HOOK_ATOMIC_BEGIN },
	{ "__VERIFIER_atomic_end", HOOK_ATOMIC_END },
	{ "__VERIFIER_nondet_bool", HOOK_NONDET + ND_BOOL },
	{ "__VERIFIER_nondet_char", HOOK_NONDET + ND_CHAR },
	{ "__VERIFIER_nondet_uchar", HOOK_NONDET + ND_UCHAR },
	{ "__VERIFIER_nondet_u8", HOOK_NONDET + ND_UCHAR },
	{ "__VERIFIER_nondet_short", HOOK_NONDET + ND_SHORT },
	{ "__VERIFIER_nondet_ushort", HOOK_NONDET + ND_USHORT },
	{ "__VERIFIER_nondet_u16", HOOK_NONDET + ND_USHORT },
	{ "__VERIFIER_nondet_int", HOOK_NONDET + ND_INT },
	{ "__VERIFIER_nondet_uint", HOOK_NONDET + ND_UINT },
	{ "__VERIFIER_nondet_unsigned", HOOK_NONDET + ND_UINT },
	{ "__VERIFIER_nondet_u32", HOOK_NONDET + ND_UINT },
	{ "__VERIFIER_nondet_long", HOOK_NONDET + ND_LONG },
	{ "__VERIFIER_nondet_longlong", HOOK_NONDET + ND_LONG },
	{ "__VERIFIER_nondet_ulong", HOOK_NONDET + ND_ULONG },
	{ "__VERIFIER_nondet_ulonglong", HOOK_NONDET + ND_ULONG },
	{ "__VERIFIER_nondet_size_t", HOOK_NONDET + ND_ULONG },
	{ "__VERIFIER_nondet_pointer", HOOK_NONDET + ND_POINTER },
	/* the kernel-style names some tasks use */
	{ "__VERIFIER_nondet_s8", HOOK_NONDET + ND_CHAR },
	{ "__VERIFIER_nondet_s16", HOOK_NONDET + ND_SHORT },
	{ "__VERIFIER_nondet_s32", HOOK_NONDET + ND_INT },
	{ "__VERIFIER_nondet_s64", HOOK_NONDET + ND_LONG },
	{ "__VERIFIER_nondet_u64", HOOK_NONDET + ND_ULONG },
	{ "__VERIFIER_nondet_loff_t", HOOK_NONDET + ND_LONG },
	{ "__VERIFIER_nondet_sector_t", HOOK_NONDET + ND_ULONG },
	{ "__VERIFIER_nondet_charp", HOOK_NONDET + ND_POINTER },
};

#define NONDET_PREFIX "__VERIFIER_nondet_"

#define ATOMIC_PREFIX "__VERIFIER_atomic_"
#define MAX_ATOMIC_FUNCS 256

int hooks_conventions(struct tracer *t, struct symtab *sym)
{
	uint64_t a[MAX_ATOMIC_FUNCS];
	size_t n;

	/* any other __VERIFIER_atomic_* function runs as one step; begin
	 * and end get their own hooks below (bp_insert keeps the last) */
	n = sym_exe_prefix(sym, ATOMIC_PREFIX, a, MAX_ATOMIC_FUNCS);
	for (size_t i = 0; i < n; i++)
		if (tracer_add_hook(t, a[i], HOOK_ATOMIC_CALL) < 0)
			return -1;
	for (size_t i = 0; i < sizeof conventions / sizeof conventions[0];
	     i++) {
		/* in the executable only: a library's reach_error is not the
		 * program's */
		uint64_t f = sym_addr(sym, conventions[i].name);
		if (f && sym_in_exe(sym, f) &&
		    tracer_add_hook(t, f, conventions[i].hook) < 0)
			return -1;
	}
	return 0;
}

unsigned hooks_domain(const struct options *o, const struct tr_event *ev,
		      const int64_t **vals)
{
	static const int64_t bools[2] = { 0, 1 };

	if (ev->nondet == ND_BOOL) {
		*vals = bools;
		return 2;
	}
	*vals = o->nondet_val;
	return (unsigned)o->nnondet;
}

bool hooks_domain_complete(const struct options *o,
			   const struct tr_event *ev)
{
	int64_t lo, hi;

	switch (ev->nondet) {
	case ND_BOOL:
		return true;
	case ND_CHAR:
		lo = -128, hi = 127;
		break;
	case ND_UCHAR:
		lo = 0, hi = 255;
		break;
	default: /* more values than a domain holds */
		return false;
	}
	for (int64_t v = lo; v <= hi; v++) {
		int i = 0;
		while (i < o->nnondet && o->nondet_val[i] != v)
			i++;
		if (i == o->nnondet)
			return false;
	}
	return true;
}

static bool modelled(const char *name)
{
	for (size_t i = 0; i < sizeof conventions / sizeof conventions[0];
	     i++)
		if (strcmp(conventions[i].name, name) == 0)
			return true;
	return false;
}

size_t hooks_unmodelled(struct symtab *sym, char *buf, size_t n)
{
	uint64_t a[64];
	size_t na = sym_exe_prefix(sym, NONDET_PREFIX, a, 64), k = 0, len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < na; i++) {
		struct sym_info si = { 0 };
		if (sym_lookup(sym, a[i], &si) < 0 || !si.func ||
		    si.func_off || modelled(si.func))
			continue;
		if (len < n)
			len += (size_t)snprintf(buf + len, n - len, "%s%s",
						k ? ", " : "", si.func);
		k++;
	}
	return k;
}

/* The library policy (docs/LIBRARY.md): functions run as one step with
 * abstract accesses (RG_LIB).  Everything else of the libraries (pthread,
 * atomics, string functions, ...) is explored instruction by instruction. */
static const struct {
	const char *name;
	enum tr_hook hook;
} library[] = {
	/* the malloc family */
	{ "malloc", HOOK_LIB_ALLOC },
	{ "calloc", HOOK_LIB_ALLOC },
	{ "aligned_alloc", HOOK_LIB_ALLOC },
	{ "memalign", HOOK_LIB_ALLOC },
	{ "valloc", HOOK_LIB_ALLOC },
	{ "pvalloc", HOOK_LIB_ALLOC },
	{ "free", HOOK_LIB_FREE },
	{ "realloc", HOOK_LIB_REALLOC },
	{ "reallocarray", HOOK_LIB_REALLOC },
	{ "posix_memalign", HOOK_LIB_MEMALIGN },
	/* thread-local destructors (C++, Rust's std) and data */
	{ "__cxa_thread_atexit_impl", HOOK_LIB_OWN },
	{ "pthread_setspecific", HOOK_LIB_OWN },
	{ "pthread_key_create", HOOK_LIB_KEY },
	{ "pthread_key_delete", HOOK_LIB_KEY },
	/* stdio output */
	{ "printf", HOOK_LIB_PRINTF },
	{ "vprintf", HOOK_LIB_VPRINTF },
	{ "puts", HOOK_LIB_PUTS },
	{ "putchar", HOOK_LIB_PUTCHAR },
	{ "__printf_chk", HOOK_LIB_PRINTF_CHK },
	{ "__vprintf_chk", HOOK_LIB_VPRINTF_CHK },
	{ "perror", HOOK_LIB_PERROR },
	{ "fprintf", HOOK_LIB_FPRINTF },
	{ "vfprintf", HOOK_LIB_VFPRINTF },
	{ "__fprintf_chk", HOOK_LIB_FPRINTF_CHK },
	{ "__vfprintf_chk", HOOK_LIB_VFPRINTF_CHK },
	{ "fflush", HOOK_LIB_FFLUSH },
	{ "fputs", HOOK_LIB_FPUTS },
	{ "fputc", HOOK_LIB_FPUTC },
	{ "putc", HOOK_LIB_FPUTC },
	{ "fwrite", HOOK_LIB_FWRITE },
};

/* pthread synchronisation as one event per call (--sync calls, the
 * default; src/tracer/sync.c).  Every name glibc 2.36 exports for the
 * same function is hooked: the program may call either. */
static const struct {
	const char *name;
	enum tr_hook hook;
} sync_calls[] = {
	{ "pthread_mutex_lock", HOOK_SYNC_MUTEX_LOCK },
	{ "pthread_mutex_trylock", HOOK_SYNC_MUTEX_TRYLOCK },
	{ "pthread_mutex_timedlock", HOOK_SYNC_MUTEX_TIMEDLOCK },
	{ "pthread_mutex_unlock", HOOK_SYNC_MUTEX_UNLOCK },
	{ "pthread_mutex_destroy", HOOK_SYNC_MUTEX_DESTROY },
	{ "pthread_cond_wait", HOOK_SYNC_COND_WAIT },
	{ "pthread_cond_timedwait", HOOK_SYNC_COND_TIMEDWAIT },
	{ "pthread_cond_clockwait", HOOK_SYNC_COND_CLOCKWAIT },
	{ "pthread_cond_signal", HOOK_SYNC_COND_SIGNAL },
	{ "pthread_cond_broadcast", HOOK_SYNC_COND_BROADCAST },
	{ "pthread_cond_destroy", HOOK_SYNC_COND_DESTROY },
	{ "sem_wait", HOOK_SYNC_SEM_WAIT },
	{ "sem_post", HOOK_SYNC_SEM_POST },
	{ "pthread_barrier_wait", HOOK_SYNC_BARRIER_WAIT },
	{ "pthread_rwlock_rdlock", HOOK_SYNC_RW_RDLOCK },
	{ "pthread_rwlock_wrlock", HOOK_SYNC_RW_WRLOCK },
	{ "pthread_rwlock_tryrdlock", HOOK_SYNC_RW_TRYRDLOCK },
	{ "pthread_rwlock_trywrlock", HOOK_SYNC_RW_TRYWRLOCK },
	{ "pthread_rwlock_unlock", HOOK_SYNC_RW_UNLOCK },
	{ "pthread_once", HOOK_SYNC_ONCE },
	/* libstdc++ (its futex build): function-local statics */
	{ "__cxa_guard_acquire", HOOK_SYNC_GUARD_ACQUIRE },
	{ "__cxa_guard_release", HOOK_SYNC_GUARD_RELEASE },
	{ "__cxa_guard_abort", HOOK_SYNC_GUARD_ABORT },
};

/* The contended path of Rust std's futex mutex, by its mangled name in
 * every std since 1.62: legacy `std::sys::unix::locks::futex::Mutex::
 * lock_contended::h<hash>`, v0 `<std[..]::sys::sync::mutex::futex::Mutex>
 * ::lock_contended` (rustc 1.63 to 1.95 checked). */
static bool rust_word_lock(const char *name)
{
	return lang_rust_std(name, "5Mutex14lock_contended") &&
	       strstr(name, "5futex");
}

/* Rust std's channels (std::sync::mpsc; since 1.67 built on
 * std::sync::mpmc): every function of theirs, and the trait impls on their
 * types (Drop, Clone), runs as one atomic section (HOOK_ATOMIC_CALL:
 * docs/LIBRARY.md, "Rust's std as sections").  Legacy names
 * `std::sync::mpsc::...` and `<std::sync::mpmc::Sender<T> as ...>::...`,
 * v0 names with the path std::sync::mpmc; not drop_in_place (it drops the
 * program's values too) nor the Debug impls. */
static bool rust_channel(const char *name)
{
	static const char *const path[] = { "3std4sync4mpsc",
					    "3std4sync4mpmc" };
	static const char *const self[] = { "_$LT$std..sync..mpsc..",
					     "_$LT$std..sync..mpmc.." };
	bool legacy = strncmp(name, "_ZN", 3) == 0;
	const char *p = name + 3; /* legacy: after the first length */

	if (strstr(name, "drop_in_place") || strstr(name, "fmt") ||
	    (!legacy && strncmp(name, "_R", 2) != 0))
		return false;
	while (legacy && *p >= '0' && *p <= '9')
		p++;
	for (int i = 0; i < 2; i++)
		if (legacy ? strncmp(name + 3, path[i], strlen(path[i])) == 0 ||
				     strncmp(p, self[i], strlen(self[i])) == 0
			   : strstr(name, path[i]) != NULL)
			return true;
	return false;
}

/* ... and std's other blocking calls that run none of the program's code
 * (rustc 1.63 to 1.95 names): Barrier::wait, the contended paths of the
 * futex RwLock, thread::park, the count of a scope's running threads.
 * Not Once::call (it runs the program's closure). */
static bool rust_std_section(const char *name)
{
	static const struct {
		const char *part, *also; /* also: NULL or another part */
	} fn[] = {
		{ "7Barrier4wait", NULL },
		{ "14read_contended", "rwlock" },
		{ "15write_contended", "rwlock" },
		{ "22wake_writer_or_readers", "rwlock" },
		{ "6thread4park17h", NULL },
		{ "9functions4park", NULL },
		{ "29decrement_num_running_threads", NULL },
		{ "29increment_num_running_threads", NULL },
	};

	if (rust_channel(name))
		return true;
	for (size_t i = 0; i < sizeof fn / sizeof fn[0]; i++)
		if (lang_rust_std(name, fn[i].part) &&
		    (!fn[i].also || strstr(name, fn[i].also)))
			return true;
	return false;
}

/* Rust std's Once::call, which call_once, OnceLock and LazyLock call
 * when the Once is not complete: the futex Once's (since 1.64; legacy
 * `std::sys_common::once::futex::Once::call::h<hash>`, v0 `<std[..]::sys
 * ::sync::once::futex::Once>::call`) and the queue Once's call_inner
 * (1.63: `std::sync::once::Once::call_inner::h<hash>`). */
static bool rust_once(const char *name)
{
	size_t n = strlen(name);

	return lang_rust_std(name, "4once5futex") &&
	       (strstr(name, "4Once4call17h") ||
		(n > 10 && strcmp(name + n - 10, "4Once4call") == 0));
}

static bool rust_once_queue(const char *name)
{
	return lang_rust_std(name, "4sync4once4Once10call_inner17h");
}

/* Rust std's futex RwLock: the contended path of a reader's lock, and
 * the wake-up a reader's unlock calls when it was the last one out and
 * a writer waits (rustc 1.63 to 1.95 names). */
static bool rust_read_contended(const char *name)
{
	return lang_rust_std(name, "14read_contended") &&
	       strstr(name, "rwlock");
}

static bool rust_rw_wake(const char *name)
{
	return lang_rust_std(name, "22wake_writer_or_readers") &&
	       strstr(name, "rwlock");
}

#define MAX_CHANNEL_FUNCS 512
#define MAX_WORD_LOCKS 8
#define SCAN_CHUNK (1u << 20)
#define EXE_RANGES 16

/* The instruction at pc, as the program has it (tracer_insn: the bytes
 * under breakpoints too). */
static int decode_at(struct tracer *t, uint64_t pc, struct dec_insn *in)
{
	uint8_t b[16];
	size_t n = tracer_insn(t, pc, b, sizeof b);

	return n ? dec_decode(b, n, pc, in) : -1;
}

/* Does the call in reach one of the word lock functions f[0..nf)? */
static bool calls_word_lock(struct tracer *t, const struct dec_insn *in,
			    const uint64_t *f, size_t nf)
{
	uint64_t to = tracer_callee(t, in);

	for (size_t i = 0; to && i < nf; i++)
		if (to == f[i])
			return true;
	return false;
}

/* The code after a locked instruction, followed over register-only
 * code with what is known of ZF (0 once a fast path's cmpxchg failed)
 * and of the byte registers a setcc copied it to, to a call of one of
 * f[]: on every way (a fast path's failing side: a branch on an unknown
 * condition, both ways) or on some way (any: an unlock that may wake). */
struct fp_walk {
	uint64_t pc;
	int8_t zf;        /* 0, 1, -1 unknown */
	int8_t reg, val;  /* a low byte register holding a known 0/1 */
	int steps;
	bool any;
};

#define FP_STEPS 16
#define FP_WAYS 8

/* Does the instruction leave ZF alone? */
static bool keeps_flags(const struct dec_insn *in)
{
	switch (in->loc.op) {
	case DEC_LOC_NOP: case DEC_LOC_MOV: case DEC_LOC_MOVX:
	case DEC_LOC_LEA: case DEC_LOC_CMOV: case DEC_LOC_SETCC:
	case DEC_LOC_CEXT: case DEC_LOC_CDQ:
		return true;
	default:
		return false;
	}
}

static bool reaches_calls(struct tracer *t, struct fp_walk w,
			    const uint64_t *f, size_t nf, int *ways)
{
	struct dec_insn in;

	if (++*ways > FP_WAYS)
		return false;
	for (; w.steps < FP_STEPS; w.steps++) {
		if (decode_at(t, w.pc, &in))
			return false;
		if (in.flow == DEC_FLOW_CALL || in.flow == DEC_FLOW_IND_CALL)
			return calls_word_lock(t, &in, f, nf);
		if (in.flow == DEC_FLOW_JMP) {
			w.pc = in.target;
			continue;
		}
		if (in.flow == DEC_FLOW_JCC) {
			int c = in.loc.op == DEC_LOC_JCC ? in.loc.cond : -1;
			uint64_t next = in.pc + in.len;
			if ((c == 4 || c == 5) && w.zf >= 0) {
				bool taken = (c == 4) == (w.zf == 1);
				w.pc = taken ? in.target : next;
				continue;
			}
			struct fp_walk o = w;
			o.pc = in.target;
			o.steps++;
			if (reaches_calls(t, o, f, nf, ways) == w.any)
				return w.any;
			w.pc = next;
			continue;
		}
		bool reg_only = in.cls == DEC_PLAIN ? in.nmem == 0
						    : in.cls == DEC_NO_DATA;
		if (in.flow != DEC_FLOW_NEXT || !reg_only)
			return false; /* register-only code (and lea) */
		const struct dec_local *l = &in.loc;
		if (l->op == DEC_LOC_ALU && l->alu == DEC_ALU_TEST &&
		    !l->imm_src && l->dst == l->src && l->dst == w.reg &&
		    !l->dst_hi8 && w.reg >= 0) {
			w.zf = w.val == 0;
			w.pc = in.pc + in.len;
			continue;
		}
		if (w.reg >= 0 && (in.regs_written >> w.reg & 1))
			w.reg = -1;
		if (l->op == DEC_LOC_SETCC && (l->cond == 4 || l->cond == 5) &&
		    !l->dst_hi8 && l->dst >= 0 && w.zf >= 0) {
			w.reg = l->dst;
			w.val = l->cond == 4 ? w.zf : !w.zf;
		}
		if (!keeps_flags(&in))
			w.zf = -1;
		w.pc = in.pc + in.len;
	}
	return false;
}

/* Is the instruction at pc a locked read-modify-write of 32 bits whose
 * code after it reaches a call of f[0..nf) (struct fp_walk)?  A word
 * lock's fast path: a cmpxchg whose failing side calls its contended
 * function on every way (running the succeeding side instead is what
 * the failing side amounts to once the call has taken the lock); a
 * RwLock reader's unlock (any): an xadd after which some way calls std's
 * wake-up (read_unlock's fetch_sub of 1, write_unlock's of more: sync.c
 * tells them apart by the value). */
static bool locked32_reaches(struct tracer *t, uint64_t pc, const uint64_t *f,
			     size_t nf, bool any)
{
	struct dec_insn in;
	int ways = 0;

	if (decode_at(t, pc, &in) || in.cls != DEC_LOCKED_RMW ||
	    in.nmem != 1 || in.mem[0].size != 4)
		return false;
	return reaches_calls(t,
			       (struct fp_walk){ pc + in.len, any ? -1 : 0,
						 -1, 0, 0, any },
			       f, nf, &ways);
}

/* Do the bytes at b[0..] (at least 4) start a lock cmpxchg r32, m32
 * (op 0xb1) or a lock xadd r32, m32 (0xc1): F0 [REX without W] 0F op? */
static bool lock_op32(const uint8_t *b, uint8_t op)
{
	int k = (b[1] & 0xf8) == 0x40 ? 2 : 1;

	return b[0] == 0xf0 && b[k] == 0x0f && b[k + 1] == op;
}

/* What the scan of the executable hooks: word locks' fast paths (f:
 * their contended functions), RwLock readers' locks (f: read_contended)
 * and unlocks (f: the wake-up). */
struct scan {
	const uint64_t *f[3];
	size_t nf[3];
};

/* The fast paths in [lo, hi) of the executable's memory, hooked. */
static int scan_range(struct tracer *t, uint64_t lo, uint64_t hi,
		      uint8_t *buf, const struct scan *s)
{
	static const uint8_t hook[3] = { HOOK_SYNC_WORD_FAST,
					 HOOK_SYNC_RW_RFAST,
					 HOOK_SYNC_RW_RUNLOCK };

	for (uint64_t a = lo; a < hi; a += SCAN_CHUNK) {
		size_t want = hi - a < SCAN_CHUNK + 4 ? hi - a : SCAN_CHUNK + 4;
		size_t n = tracer_read(t, a, buf, want);
		for (size_t i = 0; i + 3 < n && i < SCAN_CHUNK; i++) {
			int h = -1;
			if (lock_op32(buf + i, 0xb1)) {
				for (int k = 0; k < 2 && h < 0; k++)
					if (s->nf[k] &&
					    locked32_reaches(t, a + i, s->f[k],
							     s->nf[k], false))
						h = k;
			} else if (lock_op32(buf + i, 0xc1) && s->nf[2] &&
				   locked32_reaches(t, a + i, s->f[2],
						    s->nf[2], true)) {
				h = 2;
			}
			if (h >= 0 && tracer_add_hook(t, a + i, hook[h]) < 0)
				return -1;
		}
	}
	return 0;
}

/* The inlined fast paths in the executable: each lock cmpxchg r32, m32
 * whose failure calls a word lock (HOOK_SYNC_WORD_FAST) or an RwLock's
 * read_contended (HOOK_SYNC_RW_RFAST), each lock xadd r32, m32 that can
 * go on to call the RwLock's wake-up (HOOK_SYNC_RW_RUNLOCK). */
static int fast_paths(struct tracer *t, struct symtab *sym,
		      const struct scan *s)
{
	uint64_t r[EXE_RANGES][2];
	bool any = s->nf[0] || s->nf[1] || s->nf[2];
	size_t nr = any ? sym_exe_ranges(sym, r, EXE_RANGES) : 0;
	uint8_t *buf = nr ? malloc(SCAN_CHUNK + 4) : NULL;
	int rc = 0;

	if (nr && !buf)
		return -1;
	for (size_t k = 0; k < nr && rc == 0; k++)
		rc = scan_range(t, r[k][0], r[k][1], buf, s);
	free(buf);
	return rc;
}

int hooks_sync(struct tracer *t, struct symtab *sym, const struct options *o)
{
	uint64_t a[MAX_WORD_LOCKS], c[MAX_CHANNEL_FUNCS];
	uint64_t rc[MAX_WORD_LOCKS], rw[MAX_WORD_LOCKS];
	size_t n;

	if (o->sync_instructions)
		return 0;
	for (size_t i = 0; i < sizeof sync_calls / sizeof sync_calls[0]; i++) {
		uint64_t f = sym_addr(sym, sync_calls[i].name);
		if (f && tracer_add_hook(t, f, sync_calls[i].hook) < 0)
			return -1;
	}
	n = sym_exe_match(sym, rust_std_section, c, MAX_CHANNEL_FUNCS);
	for (size_t i = 0; i < n; i++)
		if (tracer_add_hook(t, c[i], HOOK_ATOMIC_CALL) < 0)
			return -1;
	n = sym_exe_match(sym, rust_once, a, MAX_WORD_LOCKS);
	for (size_t i = 0; i < n; i++)
		if (tracer_add_hook(t, a[i], HOOK_SYNC_RUST_ONCE) < 0)
			return -1;
	n = sym_exe_match(sym, rust_once_queue, a, MAX_WORD_LOCKS);
	for (size_t i = 0; i < n; i++)
		if (tracer_add_hook(t, a[i], HOOK_SYNC_RUST_ONCE_Q) < 0)
			return -1;
	n = sym_exe_match(sym, rust_word_lock, a, MAX_WORD_LOCKS);
	for (size_t i = 0; i < n; i++)
		if (tracer_add_hook(t, a[i], HOOK_SYNC_WORD_LOCK) < 0)
			return -1;
	struct scan s = { { a, rc, rw }, { n, 0, 0 } };
	s.nf[1] = sym_exe_match(sym, rust_read_contended, rc, MAX_WORD_LOCKS);
	s.nf[2] = s.nf[1] ? sym_exe_match(sym, rust_rw_wake, rw,
					  MAX_WORD_LOCKS)
			  : 0;
	return fast_paths(t, sym, &s);
}

static bool listed(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0 || strcmp(names[i], "all") == 0)
			return true;
	return false;
}

static bool in_policy(const char *name)
{
	for (size_t i = 0; i < sizeof library / sizeof library[0]; i++)
		if (strcmp(library[i].name, name) == 0)
			return true;
	return strcmp(name, "all") == 0;
}

int hooks_library(struct tracer *t, struct symtab *sym,
		  const struct options *o, char *why, size_t n)
{
	const uint64_t files[3] = { sym_addr(sym, "_IO_2_1_stdin_"),
				    sym_addr(sym, "_IO_2_1_stdout_"),
				    sym_addr(sym, "_IO_2_1_stderr_") };

	tracer_set_stdio(t, files);
	for (int i = 0; i < o->nno_atomic_call; i++)
		if (!in_policy(o->no_atomic_call[i])) {
			snprintf(why, n, "--no-atomic-call %s: not a function "
				 "of the library policy (docs/LIBRARY.md)",
				 o->no_atomic_call[i]);
			return -1;
		}
	for (size_t i = 0; i < sizeof library / sizeof library[0]; i++) {
		if (listed(o->no_atomic_call, o->nno_atomic_call,
			   library[i].name))
			continue;
		uint64_t f = sym_addr(sym, library[i].name);
		if (f && tracer_add_hook(t, f, library[i].hook) < 0)
			return -1;
	}
	for (int i = 0; i < o->natomic_call; i++) {
		uint64_t f = sym_addr(sym, o->atomic_call[i]);
		if (!f) {
			snprintf(why, n, "--atomic-call %s: no such function "
				 "in the program or its libraries",
				 o->atomic_call[i]);
			return -1;
		}
		if (tracer_add_hook(t, f, HOOK_ATOMIC_CALL) < 0)
			return -1;
	}
	return 0;
}
