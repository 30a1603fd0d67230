/* lang.h — what the C++ and Rust runtimes say when a program fails in
 * their way, read back from the stderr bytes the execution wrote
 * (docs/LANGUAGES.md).  x86smc lets the runtime's own reporter run (Rust's
 * panic hook, libstdc++'s verbose terminate handler): only it can format
 * a panic message's arguments or call an exception's what(). */
#ifndef X86SMC_LANG_H
#define X86SMC_LANG_H

#include <stddef.h>

/* The last report of Rust's default panic hook in err[0, len):
 *   thread 'T' panicked at 'MSG', FILE:L:C        (Rust before 1.73)
 *   thread 'T' panicked at FILE:L:C:\nMSG         (Rust 1.73 and later)
 *   thread 'T' (ID) panicked at FILE:L:C:\nMSG    (Rust 1.88 and later)
 * as "thread 'T' panicked at FILE:L:C: MSG" (MSG's lines joined by
 * spaces) into out.  Returns 0, or -1 if err holds no such report. */
int lang_panic_message(const char *err, size_t len, char *out, size_t n);

/* The last report of libstdc++'s verbose terminate handler:
 *   terminate called after throwing an instance of 'T'\n  what():  MSG
 *   terminate called without an active exception
 *   terminate called recursively
 * into out, one line ("... 'T': what(): MSG").  Returns 0, or -1. */
int lang_terminate_message(const char *err, size_t len, char *out,
			   size_t n);

#endif
