/* sum_racy.c — an OpenMP parallel for that adds to a shared sum without
 * a reduction: a lost update makes it exit 1 (issue 17).  libgomp's spin
 * waits are turned off (GOMP_SPINCOUNT=0, docs/LIBRARY.md), so the
 * search reaches the lost update at once; sum_reduction is the fix.
 */
// expect sc: exit-code
// expect tso: exit-code
// expect pso: exit-code
#include <stdio.h>

int main(void)
{
	int sum = 0;

#pragma omp parallel for num_threads(2)
	for (int i = 1; i <= 2; i++)
		sum += i;
	printf("%d\n", sum);
	return sum == 3 ? 0 : 1;
}
