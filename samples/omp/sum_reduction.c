/* sum_reduction.c — sum_racy with reduction(+:sum): every execution
 * prints 3 (issue 17: the OpenMP runtime explored, no error; 240
 * executions, about 5 s per model, so no outcome case in make check).
 */
// expect sc: ok
// expect tso: ok
#include <stdio.h>

int main(void)
{
	int sum = 0;

#pragma omp parallel for num_threads(2) reduction(+:sum)
	for (int i = 1; i <= 2; i++)
		sum += i;
	printf("%d\n", sum);
	return sum == 3 ? 0 : 1;
}
