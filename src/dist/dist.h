/* dist.h — the ranks of an MPI job (docs/DISTRIBUTED.md).
 *
 * One search over the workers of every rank: rank 0 runs the --jobs
 * coordinator (dpor/parallel.c) and its own workers; every other rank
 * runs a relay that forks its workers and carries their socket bytes
 * to rank 0 and back.  This module is only the transport: numbered
 * ranks and whole messages between them, in order per pair of ranks.
 *
 * dist/mpi.c implements it over MPI and is linked into x86smc-mpi (built
 * with mpicc, `make mpi`); dist/none.c, linked into plain x86smc, knows
 * one rank and no MPI library. */
#ifndef X86SMC_DIST_H
#define X86SMC_DIST_H
#include <stdbool.h>
#include <stddef.h>

/* Before option parsing: under mpirun/srun (its environment says so),
 * or when forced (--mpi), join the job.  Returns this rank, or -1 when
 * not in a job (no MPI: everything runs as before).  A job that cannot
 * be joined is a one-line message and exit status 2. */
int dist_init(int *argc, char ***argv, bool force);

int dist_size(void);       /* ranks in the job; 1 outside one */
int dist_rank(void);       /* 0 outside a job */
int dist_local_rank(void); /* among the ranks on this machine */

/* Send n bytes to rank (copied; never blocks on the receiver). */
int dist_send(int rank, const void *p, size_t n)
	__attribute__((warn_unused_result));

/* The next message that has arrived within ms milliseconds (0: only one
 * already there): 1 with *rank and *p (malloc'd, *n bytes); 0 none. */
int dist_recv(int ms, int *rank, void **p, size_t *n);

/* Leave the job with this exit status.  lost: a rank died; the job is
 * aborted with the status (a normal finalize would wait for it). */
void dist_end(int status, bool lost);
#endif
