/* log.h — internal-failure logging (second error tier, STYLE.md 4): a
 * message with file:line on stderr; callers then return -1 through their
 * cleanup label.  User-caused errors are printed as one plain line by the
 * code that detects them, not with this. */
#ifndef X86SMC_LOG_H
#define X86SMC_LOG_H
#include <stdio.h>

extern int log_verbose;

#define pr_err(fmt, ...)                                                     \
	fprintf(stderr, "x86smc: internal error at %s:%d: " fmt "\n",        \
		__FILE__, __LINE__, ##__VA_ARGS__)
#define pr_debug(fmt, ...)                                                   \
	do {                                                                 \
		if (log_verbose)                                             \
			fprintf(stderr, "x86smc: " fmt "\n", ##__VA_ARGS__); \
	} while (0)
#endif
