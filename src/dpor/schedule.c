/* schedule.c — schedule files (format in schedule.h). */
#include "dpor/schedule.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int push_run(struct schedule *s, int tid, uint32_t count)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		void *p = realloc(s->runs, cap * sizeof *s->runs);
		if (!p)
			return -1;
		s->runs = p;
		s->cap = cap;
	}
	s->runs[s->n++] = (struct sched_run){ tid, count, false, 0 };
	return 0;
}

int sched_push_value(struct schedule *s, int tid, int64_t v)
{
	if (push_run(s, tid, 1) < 0)
		return -1;
	s->runs[s->n - 1].has_value = true;
	s->runs[s->n - 1].value = v;
	return 0;
}

int sched_push(struct schedule *s, int tid)
{
	struct sched_run *last = s->n ? &s->runs[s->n - 1] : NULL;

	if (last && last->tid == tid && last->count != SCHED_UNTIL_BLOCKED &&
	    !last->has_value) {
		last->count++;
		return 0;
	}
	return push_run(s, tid, 1);
}

int sched_add_escape(struct schedule *s, uint64_t addr)
{
	if (s->nescapes == s->capescapes) {
		size_t cap = s->capescapes ? 2 * s->capescapes : 16;
		uint64_t *e = realloc(s->escapes, cap * sizeof *e);
		if (!e)
			return -1;
		s->escapes = e;
		s->capescapes = cap;
	}
	s->escapes[s->nescapes++] = addr;
	return 0;
}

static int parse_escapes(struct schedule *s, char *list)
{
	char *tok, *save, *end;

	for (tok = strtok_r(list, " \t\r\n", &save); tok;
	     tok = strtok_r(NULL, " \t\r\n", &save)) {
		errno = 0;
		uint64_t a = strtoull(tok, &end, 16);
		if (*end || errno || sched_add_escape(s, a) < 0)
			return -1;
	}
	return 0;
}

static int parse_token(struct schedule *s, const char *tok)
{
	char *end;
	long tid = strtol(tok, &end, 10);
	unsigned long n = 1;

	if (end == tok || tid < 0 || tid > 4096)
		return -1;
	if (*end == '*' && end[1] == 0)
		return push_run(s, (int)tid, SCHED_UNTIL_BLOCKED);
	if (*end == '=') { /* T=V: a value choice */
		const char *p = end + 1;
		errno = 0;
		long long v = strtoll(p, &end, 10);
		if (end == p || *end || errno)
			return -1;
		return sched_push_value(s, (int)tid, v);
	}
	if (*end == 'x') {
		const char *p = end + 1;
		errno = 0;
		n = strtoul(p, &end, 10);
		if (end == p || errno || n == 0 || n >= SCHED_UNTIL_BLOCKED)
			return -1;
	}
	if (*end)
		return -1;
	return push_run(s, (int)tid, (uint32_t)n);
}

static void copy_value(char *dst, size_t size, const char *v)
{
	while (isspace((unsigned char)*v))
		v++;
	snprintf(dst, size, "%s", v);
	size_t n = strlen(dst);
	while (n && isspace((unsigned char)dst[n - 1]))
		dst[--n] = 0;
}

static int parse_line(struct schedule *s, char *line)
{
	char *hash = strchr(line, '#'), *colon, *tok, *save;

	if (hash)
		*hash = 0;
	colon = strchr(line, ':');
	if (!colon) {
		for (char *p = line; *p; p++)
			if (!isspace((unsigned char)*p))
				return -1;
		return 0;
	}
	*colon = 0;
	if (strcmp(line, "program") == 0)
		copy_value(s->program, sizeof s->program, colon + 1);
	else if (strcmp(line, "model") == 0)
		copy_value(s->model, sizeof s->model, colon + 1);
	else if (strcmp(line, "escapes") == 0)
		return parse_escapes(s, colon + 1);
	else if (strcmp(line, "steps") == 0) {
		for (tok = strtok_r(colon + 1, " \t\r\n", &save); tok;
		     tok = strtok_r(NULL, " \t\r\n", &save))
			if (parse_token(s, tok) < 0)
				return -1;
	} /* other keys: informational, ignored */
	return 0;
}

int sched_parse(struct schedule *s, const char *text, char *err,
		size_t errsize)
{
	char *copy = strdup(text), *line, *save;
	int lineno = 0, r = 0;

	memset(s, 0, sizeof *s);
	if (!copy)
		return -1;
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		lineno++;
		if (parse_line(s, line) < 0) {
			snprintf(err, errsize, "schedule line %d is not "
					       "valid", lineno);
			r = -1;
			break;
		}
	}
	free(copy);
	if (r == 0 && s->n == 0) {
		snprintf(err, errsize, "the schedule has no steps");
		r = -1;
	}
	if (r < 0)
		sched_free(s); /* nothing to free for the caller */
	return r;
}

int sched_load(struct schedule *s, const char *path, char *err,
	       size_t errsize)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;
	int r;

	if (!f) {
		snprintf(err, errsize, "cannot open %s: %s", path,
			 strerror(errno));
		return -1;
	}
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	if (n < 0 || n > (64 << 20) || !(buf = malloc((size_t)n + 1))) {
		fclose(f);
		snprintf(err, errsize, "%s: unreadable or too large", path);
		return -1;
	}
	buf[fread(buf, 1, (size_t)n, f)] = 0;
	fclose(f);
	if (memchr(buf, 0, (size_t)n)) {
		free(buf);
		snprintf(err, errsize, "%s: not a schedule (binary data)",
			 path);
		return -1;
	}
	r = sched_parse(s, buf, err, errsize);
	free(buf);
	return r;
}

static bool has_values(const struct schedule *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->runs[i].has_value)
			return true;
	return false;
}

int sched_write(const struct schedule *s, FILE *f)
{
	int col = 0;

	fprintf(f, "# x86smc schedule v1: one token per run of events, "
		   "T = one event of thread T, TxN = N events, T* = until "
		   "it blocks%s\n", has_values(s) ? ", T=V = a __VERIFIER_"
						"nondet_* call of T returning V"
						" or a pthread_cond_signal of"
						" T waking waiter V"
					      : "");
	if (s->program[0])
		fprintf(f, "program: %s\n", s->program);
	if (s->model[0])
		fprintf(f, "model: %s\n", s->model);
	for (size_t i = 0; i < s->nescapes; i++)
		fprintf(f, "%s%#lx%s", i % 8 ? " " : "escapes: ",
			(unsigned long)s->escapes[i],
			i % 8 == 7 || i + 1 == s->nescapes ? "\n" : "");
	for (size_t i = 0; i < s->n; i++) {
		const struct sched_run *r = &s->runs[i];
		if (col == 0)
			fputs("steps:", f);
		if (r->has_value)
			fprintf(f, " %d=%lld", r->tid, (long long)r->value);
		else if (r->count == SCHED_UNTIL_BLOCKED)
			fprintf(f, " %d*", r->tid);
		else if (r->count == 1)
			fprintf(f, " %d", r->tid);
		else
			fprintf(f, " %dx%u", r->tid, r->count);
		if (++col == 16 || i + 1 == s->n) {
			fputc('\n', f);
			col = 0;
		}
	}
	return ferror(f) ? -1 : 0;
}

void sched_free(struct schedule *s)
{
	free(s->runs);
	free(s->escapes);
	memset(s, 0, sizeof *s);
}

int sched_next(struct sched_cursor *c, bool *until)
{
	if (!c->s || c->run >= c->s->n)
		return -1;
	*until = c->s->runs[c->run].count == SCHED_UNTIL_BLOCKED;
	return c->s->runs[c->run].tid;
}

void sched_advance(struct sched_cursor *c)
{
	const struct sched_run *r = &c->s->runs[c->run];

	c->value_set = r->has_value;
	c->value = r->value;
	if (r->count == SCHED_UNTIL_BLOCKED)
		return;
	if (++c->used >= r->count) {
		c->run++;
		c->used = 0;
	}
}

void sched_until_done(struct sched_cursor *c)
{
	c->run++;
	c->used = 0;
}
