/* fuzz_opts.c — libFuzzer harness for the option parser (src/opts.c).
 * The input is split at NUL bytes into argv[1..]; opts_parse must return
 * 0, 1 or -1 with a message, never crash, and on success leave argv
 * pointing into the vector it was given. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

#define MAXARGS 64

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* --help and --version print to stdout */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAXARGS + 2], err[256];
	struct options o;
	int argc = 1, r;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	argv[0] = "x86smc";
	for (size_t i = 0; i <= size && argc <= MAXARGS;) {
		argv[argc++] = buf + i;
		i += strlen(buf + i) + 1;
	}
	argv[argc] = NULL;
	err[0] = 0;
	r = opts_parse(argc, argv, &o, err, sizeof err);
	if (r < -1 || r > 1 || (r < 0 && !err[0]))
		abort();
	if (r == 0 && (o.argv < argv + 1 || o.argv >= argv + argc ||
		       !o.argv[0]))
		abort();
	/* no state survives a call (getopt's included: the input is still
	 * allocated, so a stale pointer into it would be followed) */
	char *fixed[] = { "x86smc", "--model", "sc", "./p", NULL };
	if (opts_parse(4, fixed, &o, err, sizeof err) != 0 ||
	    o.model != MODEL_SC || o.verbose || o.argv != &fixed[3])
		abort();
	free(buf);
	return 0;
}
