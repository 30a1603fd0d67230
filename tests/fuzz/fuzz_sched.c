/* fuzz_sched.c — libFuzzer harness for schedule (replay) files
 * (src/dpor/schedule.c).  Any text either parses or is refused with a
 * message; what parses must survive sched_write and parse again to the
 * same runs and escapes (the round trip --trace-out / --replay relies
 * on), and a cursor must walk it to its end. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpor/schedule.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void same(const struct schedule *a, const struct schedule *b)
{
	if (a->n != b->n || a->nescapes != b->nescapes ||
	    strcmp(a->model, b->model) != 0)
		abort();
	for (size_t i = 0; i < a->n; i++)
		if (a->runs[i].tid != b->runs[i].tid ||
		    a->runs[i].count != b->runs[i].count)
			abort();
	for (size_t i = 0; i < a->nescapes; i++)
		if (a->escapes[i] != b->escapes[i])
			abort();
}

static void walk(const struct schedule *s)
{
	struct sched_cursor c = { .s = s };
	bool until;
	size_t guard = 0;

	while (sched_next(&c, &until) >= 0 && guard++ < 100000) {
		if (until)
			sched_until_done(&c);
		else
			sched_advance(&c);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], *out = NULL;
	struct schedule s, again;
	size_t len = 0;
	FILE *f;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	err[0] = 0;
	if (sched_parse(&s, text, err, sizeof err) < 0) {
		if (!err[0])
			abort();
		sched_free(&s);
		free(text);
		return 0;
	}
	walk(&s);
	f = open_memstream(&out, &len);
	if (!f || sched_write(&s, f) < 0)
		abort();
	fclose(f);
	if (sched_parse(&again, out, err, sizeof err) < 0)
		abort(); /* what we write, we must read */
	same(&s, &again);
	sched_free(&again);
	sched_free(&s);
	free(out);
	free(text);
	return 0;
}
