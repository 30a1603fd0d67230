/* srcpath.h — is a source file the program's own, or a library's?
 * Private to src/report/ (symline.c, syminl.c).
 *
 * A file is library code when its DWARF path (directory included) is a
 * system header or source tree: /usr/include, /usr/lib (GCC's own
 * headers), /usr/src (Debian's rustc-1.63.0/library/...), /rustc/<hash>/
 * (upstream Rust's std, core, alloc), a Cargo registry or a rustup
 * toolchain.  Everything else is the user's (relative paths included:
 * they are relative to the compilation directory). */
#ifndef X86SMC_SRCPATH_H
#define X86SMC_SRCPATH_H

#include <stdbool.h>
#include <string.h>

static inline bool srcpath_lib(const char *path)
{
	static const char *const prefix[] = {
		"/usr/include/", "/usr/lib/", "/usr/local/include/",
		"/usr/src/", "/rustc/",
	};
	static const char *const inside[] = {
		"/.cargo/registry/", "/.rustup/toolchains/",
		"/library/std/src/", "/library/core/src/", "/library/alloc/src/",
	};

	for (size_t i = 0; i < sizeof prefix / sizeof prefix[0]; i++)
		if (strncmp(path, prefix[i], strlen(prefix[i])) == 0)
			return true;
	for (size_t i = 0; i < sizeof inside / sizeof inside[0]; i++)
		if (strstr(path, inside[i]))
			return true;
	return false;
}

#endif
