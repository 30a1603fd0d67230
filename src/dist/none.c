/* none.c — dist.h without MPI (plain x86smc): one rank.  Under mpirun
 * it says which binary to run instead of running N separate searches. */
#include "dist/dist.h"

#include <stdio.h>
#include <stdlib.h>

int dist_init(int *argc, char ***argv, bool force)
{
	(void)argc;
	(void)argv;
	const char *a = getenv("OMPI_COMM_WORLD_SIZE");
	const char *b = getenv("PMI_SIZE");

	if (force || (a && atoi(a) > 1) || (b && atoi(b) > 1)) {
		fprintf(stderr, "x86smc: this build has no MPI: run "
				"x86smc-mpi under mpirun (make mpi)\n");
		exit(2);
	}
	return -1;
}

int dist_size(void) { return 1; }
int dist_rank(void) { return 0; }
int dist_local_rank(void) { return 0; }

int dist_send(int rank, const void *p, size_t n)
{
	(void)rank;
	(void)p;
	(void)n;
	return -1;
}

int dist_recv(int ms, int *rank, void **p, size_t *n)
{
	(void)ms;
	(void)rank;
	(void)p;
	(void)n;
	return 0;
}

void dist_end(int status, bool lost)
{
	(void)status;
	(void)lost;
}
