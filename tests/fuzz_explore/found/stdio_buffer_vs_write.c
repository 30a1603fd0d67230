/* found/stdio_buffer_vs_write.c -- printf into the shared stdout buffer,
 * a direct write(1) and main's exit-time flush: complete dpor misses
 * outcomes that random (and native runs) reach, and sc and tso disagree.
 *
 * From fuzz_explore seed 3005 (run.py --minimize 3005 --kind dpor-missing
 * --model sc, then by hand; the program had the printf_s corner but no
 * store to the printed buffer was needed).  stdout is not a terminal, so
 * both printf's go to the stdio buffer, which main's exit() flushes.
 *
 *   "t2\nm\nb\n" / exit 0 (main buffers "m", t2 buffers "b" after it and
 *       writes "t2", exit flushes "m\nb\n"): reached by --strategy random
 *       (sc and tso, every seed tried) and natively; NOT in complete
 *       sc dpor (11 executions).
 *   "t2\nm\n" / exit 0 (b appended while main's unlocked exit flush is
 *       under way, then lost): in complete sc dpor, NOT in complete tso
 *       dpor (10 executions): a model-inclusion finding.
 *   sc dpor: {b\nm, b\nm\nt2, m, m\nb, m\nb\nt2, m\nt2, t2\nb\nm, t2\nm}
 *   tso dpor: the same without t2\nm, with t2\nm\nb.
 *   native, 300 runs: m 121, t2\nb\nm 171, m\nt2 6, t2\nm\nb 1 (and one
 *       torn "m\nb" without its newline: printf interrupted by the flush,
 *       which x86smc's one-step printf cannot show).
 *
 * Likely cause: printf is one step whose abstract access is "writes fd 1",
 * while exit()'s flush (_IO_flush_all_lockp(0), no lock) runs instruction
 * by instruction on stdout's FILE fields and buffer; the step does not
 * carry the FILE memory it changes, so its race with the flush is not
 * seen.  Seed 3027 (-O2) gives the same sc/tso disagreement.
 * 857a208.  62c5f49 was worse: sc dpor 1 execution ("m\n" only), tso
 * dpor 3.  Exhaustive does not finish (main's exit path is long).
 */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *t2(void *a)
{
	(void)a;
	printf("b\n");
	if (write(1, "t2\n", 3) < 0)
		_exit(9);
	return NULL;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, NULL, t2, NULL);
	printf("m\n");
	return 0;
}
