/* lang.c — the runtime hooks and the unwinder installed, and the errors
 * they end in judged (lang.h). */
#include "dpor/lang.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/lang.h"

static const struct {
	const char *name;
	enum tr_hook hook;
} runtime[] = {
	/* Rust std: after the panic hook printed, before unwind/abort
	 * (a plain symbol before Rust 1.71, then mangled in crate
	 * __rustc: found by its demangled name) */
	{ "__rust_start_panic", HOOK_LANG_PANIC },
	{ "__rustc::__rust_start_panic", HOOK_LANG_PANIC },
	/* libstdc++: std::terminate(), and its default handler, which the
	 * noexcept path (__cxa_call_terminate) calls without it */
	{ "_ZSt9terminatev", HOOK_LANG_TERMINATE },
	{ "_ZN9__gnu_cxx27__verbose_terminate_handlerEv", HOOK_LANG_TERMINATE },
};

static int cfa(void *ctx, uint64_t pc, struct tr_cfa *out)
{
	struct sym_cfa r;

	if (sym_cfa(ctx, pc, &r) < 0)
		return -1;
	*out = (struct tr_cfa){ r.reg, r.off, r.rbp_saved, r.rbp_off, r.user };
	return 0;
}

bool lang_rust_std(const char *name, const char *part)
{
	return (strncmp(name, "_ZN3std", 7) == 0 ||
		(strncmp(name, "_R", 2) == 0 && strstr(name, "3std"))) &&
	       strstr(name, part);
}

/* Rust std's thread start routine, Thread::new's thread_start (rustc
 * 1.63 to 1.95). */
static bool rust_thread_start(const char *name)
{
	return lang_rust_std(name, "6Thread3new12thread_start");
}

/* ... and the call its closure runs the program's code in (also main's,
 * from lang_start), one instance per closure type (mangled in the
 * program's crate). */
static bool rust_user_start(const char *name)
{
	return strstr(name, "28__rust_begin_short_backtrace") != NULL;
}

/* ... and what it does as the thread ends: drop_handler (since 1.64)
 * takes std's own lock to remove the thread from its map of stack guards
 * and frees the thread's signal stack: a step with nothing the program
 * shares (docs/LANGUAGES.md). */
static bool rust_thread_end(const char *name)
{
	return lang_rust_std(name, "14stack_overflow3imp12drop_handler");
}

#define MAX_RUNTIME 64

int lang_install(struct tracer *t, struct symtab *sym)
{
	bool cxx = false;
	uint64_t a, start[MAX_RUNTIME], user[MAX_RUNTIME], end[MAX_RUNTIME];
	size_t ns, nu, ne;

	if (!getenv("X86SMC_NO_UNWIND")) /* for timings: no frames */
		tracer_set_unwind(t, cfa, sym);
	for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++) {
		a = sym_addr(sym, runtime[i].name);
		if (a && tracer_add_hook(t, a, runtime[i].hook) < 0)
			return -1;
		cxx |= a && runtime[i].hook == HOOK_LANG_TERMINATE;
	}
	/* a Rust thread's start and end in std are part of its lifecycle */
	ns = sym_exe_match(sym, rust_thread_start, start, MAX_RUNTIME);
	nu = ns ? sym_exe_match(sym, rust_user_start, user, MAX_RUNTIME) : 0;
	if (!getenv("X86SMC_RUNTIME_EVENTS")) {
		if (tracer_set_runtime(t, start, ns, user, nu) < 0)
			return -1;
		ne = sym_exe_match(sym, rust_thread_end, end, MAX_RUNTIME);
		for (size_t i = 0; i < ne; i++)
			if (tracer_add_hook(t, end[i], HOOK_LIB_OWN) < 0)
				return -1;
	}
	/* where terminate's handler ends: only for libstdc++'s programs */
	a = cxx ? sym_addr(sym, "abort") : 0;
	return a && tracer_add_hook(t, a, HOOK_LANG_ABORT) < 0 ? -1 : 0;
}

/* The call in the program's own code the runtime was entered from: the
 * first return address whose code is the program's, as the call
 * instruction (a direct call: 5 bytes back, as for __assert_fail). */
static uint64_t user_call(struct symtab *sym, const struct tr_end *end)
{
	for (int i = 0; i < TR_LANG_RETS && end->lang_ret[i]; i++) {
		struct sym_frame f[SYM_MAX_FRAMES];
		uint64_t ret = end->lang_ret[i];
		int n = sym_frames(sym, ret - 1, f, SYM_MAX_FRAMES);
		for (int k = 0; k < n; k++)
			if (f[k].user)
				return ret - 5;
	}
	return end->pc;
}

int lang_judge(struct tracer *t, struct symtab *sym, struct error_rec *e,
	       char *status, size_t n)
{
	const struct tr_end *end = tracer_end(t);
	size_t len;
	const char *err = tracer_output(t, 2, &len);
	bool panic = end->lang == LANG_RUST_PANIC;

	if (end->lang == LANG_NONE)
		return 0;
	memset(e, 0, sizeof *e);
	strcpy(e->kind, panic ? "panic" : "uncaught-exception");
	e->thread = end->tid;
	e->pc = sym ? user_call(sym, end) : end->pc;
	if (!err || (panic ? lang_panic_message(err, len, e->message,
						 sizeof e->message)
			   : lang_terminate_message(err, len, e->message,
						    sizeof e->message)) < 0)
		snprintf(e->message, sizeof e->message, "%s",
			 panic ? "a Rust panic (the panic hook printed "
				 "no message)"
			       : "std::terminate() was called");
	if (end->kind == END_SIGNAL)
		snprintf(status, n, "signal SIG%s", sigabbrev_np(end->sig)
						       ? sigabbrev_np(end->sig)
						       : "?");
	else if (end->kind == END_EXIT)
		snprintf(status, n, "exit %d", end->status);
	else
		snprintf(status, n, "%s", e->kind);
	return 1;
}
