/* recycle.h — continue from a checkpoint in the same process (recycle.c) */
#ifndef X86SMC_TRACER_RECYCLE_H
#define X86SMC_TRACER_RECYCLE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "tracer/proc.h"

/* /proc/PID/maps, its lines kept as text (compared whole) */
struct rc_line {
	uint64_t lo, hi;
	size_t off, len;   /* the line in text */
	bool wpriv;        /* private and writable */
	bool priv, readable;
	bool anon;         /* no file, no name */
	int prot;          /* PROT_* */
	bool special;      /* [stack], [heap], [vdso], [vvar], ... */
	int first, count;  /* its present pages: rc_maps.present */
};

struct rc_range {
	uint64_t lo, hi;
};

struct rc_ranges {
	struct rc_range *r;
	int n, cap;
};

struct rc_maps {
	char *text;
	size_t len, cap;
	struct rc_line *l;
	int n, capl;
	/* a checkpoint's: the present pages of its private writable
	 * mappings, found once */
	struct rc_ranges present;
	bool have_present;
};

/* An X86SMC_* switch: set, not empty, not "0". */
bool rc_env(const char *name);

int rc_maps_read(struct rc_maps *m, pid_t pid);
void rc_maps_free(struct rc_maps *m);

/* Making process p's memory that of the stopped copy c. */
struct rc_ctx {
	struct proc *p, *c;
	struct rc_maps *cmaps;       /* c's */
	struct rc_maps pmaps;        /* p's, read by rc_restore_memory */
	uint64_t syscall_pc;         /* where munmap is injected in p */
	uint64_t pages;              /* copied */
	/* signal dispositions to set in p (rt_sigaction, injected with the
	 * struct in a page the copy then restores) */
	int nsig;
	int sig[64];
	uint64_t act[64][4];
	bool set_altstack;           /* and the alternate signal stack */
	uint64_t altstack[3];
};

/* p's map made c's (mappings made since unmapped), then every page of
 * c's private writable mappings present in either copied from c.
 * Returns 0, or -1 with *why (the caller forks from c instead; p may
 * have lost mappings by then: it is to be killed). */
int rc_restore_memory(struct rc_ctx *x, const char **why);
/* Every readable private mapping compared (X86SMC_RECYCLE_CHECK): 0 if
 * equal, else -1 (logged). */
int rc_check(struct rc_ctx *x);

#endif
