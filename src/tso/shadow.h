/* shadow.h — executing one instruction of a thread under x86-TSO by
 * shadow writes (DESIGN.md, "Events and the memory model"):
 *
 *   1. save the memory bytes of every shared access of the instruction;
 *   2. put the thread's own buffered bytes in place for the bytes it reads
 *      (store forwarding, newest entry first);
 *   3. execute it (the tracer single-steps it);
 *   4. read back the bytes it wrote and push them into its store buffer;
 *   5. put the saved memory bytes back.
 * Other threads never see the store until its update event writes it.
 *
 * The tracer provides memory access and execution through struct
 * tso_mem, so that this module knows nothing of ptrace. */
#ifndef X86SMC_SHADOW_H
#define X86SMC_SHADOW_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "decode/decode.h"
#include "tso/sb.h"

struct tso_mem {
	void *ctx;
	size_t (*read)(void *ctx, uint64_t addr, void *buf, size_t n);
	size_t (*write)(void *ctx, uint64_t addr, const void *buf, size_t n);
	int (*exec)(void *ctx); /* 0, or non-zero: the execution ended */
	/* The buffer (tag) a store to [addr, addr+size) goes to; < 0: the
	 * store cannot be buffered (the caller has ended the execution). */
	int (*tag)(void *ctx, uint64_t addr, uint64_t size);
};

/* A read the buffer served entirely: until the update of the entry with
 * this tag and sequence number (sb_entry) it does not depend on other
 * threads' writes.  seq 0: not (entirely) served by the buffer. */
struct tso_fwd {
	int tag;
	uint32_t seq;
};

/* A store pushed into the buffer: val holds its first 8 bytes. */
struct tso_store {
	uint64_t addr, size, val;
	int tag;
};

/* Execute the instruction whose shared accesses are acc[0..*nacc) with
 * buffer b.  On return acc[] holds the event's accesses: its reads (also
 * those the buffer served: see shadow.c), with rval[i] the first 8 bytes
 * acc[i] read and fwd[i] whether the buffer served it; its writes went to
 * the buffer and are dropped (their update events write memory): they are
 * st[0..*nst), st having DEC_MAX_MEM room.
 * Returns exec's result, or -1 on failure. */
int tso_exec(struct sb *b, struct dec_access *acc, int *nacc, uint64_t *rval,
	     struct tso_fwd *fwd, const struct tso_mem *m,
	     struct tso_store *st, int *nst);
#endif
