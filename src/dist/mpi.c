/* mpi.c — dist.h over MPI (x86smc-mpi, built with mpicc).
 *
 * Messages are MPI_BYTE messages with tag 0 on MPI_COMM_WORLD; sends are
 * MPI_Isend of a private copy, completed later (a blocking send to a
 * rank that is itself sending could deadlock at the rendezvous of large
 * messages).  Receiving polls with MPI_Iprobe and sleeps 100 us between
 * probes: the ranks share their machines with the tracers, and a busy
 * wait would take a worker's CPU (Open MPI's blocking calls spin).
 * Errors return instead of aborting (MPI_ERRORS_RETURN): a lost rank is
 * the coordinator's to handle. */
#include "dist/dist.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

struct pending {
	MPI_Request req;
	void *p;
};

static int size = 1, rank, local_rank;
static bool joined;
static struct pending *pend;
static size_t npend, cappend;

static bool in_job(bool force)
{
	const char *v[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK",
			    "SLURM_STEP_ID" };

	if (force)
		return true;
	for (size_t i = 0; i < sizeof v / sizeof *v; i++)
		if (getenv(v[i]))
			return true;
	return false;
}

int dist_init(int *argc, char ***argv, bool force)
{
	MPI_Comm local;

	if (!in_job(force))
		return -1;
	if (MPI_Init(argc, argv) != MPI_SUCCESS) {
		fprintf(stderr, "x86smc: MPI_Init failed\n");
		exit(2);
	}
	joined = true;
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	/* ranks on this machine: each pins its workers to other CPUs */
	if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank,
				MPI_INFO_NULL, &local) == MPI_SUCCESS) {
		MPI_Comm_rank(local, &local_rank);
		MPI_Comm_free(&local);
	}
	return rank;
}

int dist_size(void) { return size; }
int dist_rank(void) { return rank; }
int dist_local_rank(void) { return local_rank; }

/* Forget the sends that have completed. */
static void reap(void)
{
	for (size_t i = 0; i < npend;) {
		int done = 0;
		if (MPI_Test(&pend[i].req, &done, MPI_STATUS_IGNORE) !=
			    MPI_SUCCESS ||
		    done) {
			free(pend[i].p);
			pend[i] = pend[--npend];
			continue;
		}
		i++;
	}
}

int dist_send(int to, const void *p, size_t n)
{
	void *c = malloc(n ? n : 1);

	reap();
	if (!c || n > (size_t)0x7fffffff)
		goto err;
	if (npend == cappend) {
		size_t cap = cappend ? 2 * cappend : 16;
		struct pending *q = realloc(pend, cap * sizeof *q);
		if (!q)
			goto err;
		pend = q;
		cappend = cap;
	}
	memcpy(c, p, n);
	if (MPI_Isend(c, (int)n, MPI_BYTE, to, 0, MPI_COMM_WORLD,
		      &pend[npend].req) != MPI_SUCCESS)
		goto err;
	pend[npend++].p = c;
	return 0;
err:
	free(c);
	return -1;
}

int dist_recv(int ms, int *from, void **p, size_t *n)
{
	double end = clock_s() + ms / 1e3;
	MPI_Status st;
	int flag = 0, count;

	reap();
	for (;;) {
		if (MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag,
			       &st) != MPI_SUCCESS)
			return 0;
		if (flag || clock_s() >= end)
			break;
		nanosleep(&(struct timespec){ 0, 100000 }, NULL);
	}
	if (!flag)
		return 0;
	MPI_Get_count(&st, MPI_BYTE, &count);
	*p = malloc(count ? (size_t)count : 1);
	if (!*p)
		return 0;
	if (MPI_Recv(*p, count, MPI_BYTE, st.MPI_SOURCE, 0, MPI_COMM_WORLD,
		     MPI_STATUS_IGNORE) != MPI_SUCCESS) {
		free(*p);
		return 0;
	}
	*from = st.MPI_SOURCE;
	*n = (size_t)count;
	return 1;
}

void dist_end(int status, bool lost)
{
	double end = clock_s() + 5;

	if (!joined)
		return;
	if (lost) { /* MPI_Finalize would wait for the dead rank */
		fflush(stdout);
		fflush(stderr);
		MPI_Abort(MPI_COMM_WORLD, status);
	}
	while (npend && clock_s() < end) {
		reap();
		nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
	}
	MPI_Finalize();
}
