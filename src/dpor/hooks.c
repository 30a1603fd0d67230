/* hooks.c — the benchmark conventions, found by symbol (hooks.h). */
#include "dpor/hooks.h"

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
};

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
