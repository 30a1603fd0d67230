/* atomicity.c — an atomicity violation (check-then-act split across two
 * critical sections).  The user thread checks `p != NULL` under the lock,
 * releases it, and later takes the lock again to read *p.  The clearer
 * thread sets p = NULL under the same lock.  Every access is locked, so
 * there is no data race, yet if the clearer runs between the user's check
 * and its use, the user dereferences NULL: SIGSEGV (verdict crash).  In
 * either sequential order it is correct: main prints "used 42" or "p was
 * already NULL".  Natively the window is small: it rarely crashes.
 */
// expect sc: crash
// expect tso: crash
// expect pso: crash
#include "common.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int value = 42;
static int *volatile p = &value;
static int used = -1; /* -1: did not use p */

static void *user(void *arg)
{
	(void)arg;
	int ok;

	pthread_mutex_lock(&lock);
	ok = (p != NULL); /* check ... */
	pthread_mutex_unlock(&lock);
	if (ok) {
		pthread_mutex_lock(&lock);
		used = *p; /* ... then act: p may be NULL by now */
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *clearer(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	p = NULL;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(void)
{
	pthread_t t1, t2;

	xcreate(&t1, user, NULL);
	xcreate(&t2, clearer, NULL);
	xjoin(t1);
	xjoin(t2);
	if (used >= 0)
		printf("used %d\n", used);
	else
		printf("p was already NULL\n");
	return 0;
}
