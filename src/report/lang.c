/* lang.c — the messages of Rust's panic hook and libstdc++'s terminate
 * handler, parsed (lang.h). */
#include "report/lang.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The last occurrence of needle in [s, s + len), or NULL. */
static const char *last(const char *s, size_t len, const char *needle)
{
	size_t m = strlen(needle);
	const char *found = NULL;

	for (const char *p = s; m <= len && p + m <= s + len; p++) {
		p = memchr(p, needle[0], (size_t)(s + len - p));
		if (!p || p + m > s + len)
			break;
		if (memcmp(p, needle, m) == 0)
			found = p;
	}
	return found;
}

/* Copy [p, end) to out[*k..], newlines (and the indentation after them)
 * as one space, control bytes as '?'. */
static void put(char *out, size_t n, size_t *k, const char *p,
		const char *end)
{
	bool space = false;

	for (; p < end && *k + 1 < n; p++) {
		if (*p == '\n' || *p == '\r') {
			space = true;
			continue;
		}
		if (space && *p == ' ')
			continue;
		if (space && *k + 2 < n)
			out[(*k)++] = ' ';
		space = false;
		out[(*k)++] = (unsigned char)*p < 0x20 ? '?' : *p;
	}
	out[*k] = '\0';
}

static void put_str(char *out, size_t n, size_t *k, const char *s)
{
	put(out, n, k, s, s + strlen(s));
}

static const char *line_end(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? nl : end;
}

int lang_panic_message(const char *err, size_t len, char *out, size_t n)
{
	const char *end = err + len, *p, *at, *stop, *msg, *loc;
	size_t k = 0;

	if (!n || !(p = last(err, len, "thread '")) ||
	    !(at = last(p, (size_t)(end - p), " panicked at ")))
		return -1;
	at += strlen(" panicked at ");
	put(out, n, &k, p, at);
	stop = last(at, (size_t)(end - at), "\nnote: ");
	if (!stop)
		stop = end;
	while (stop > at && stop[-1] == '\n')
		stop--;
	if (at < stop && *at == '\'') { /* 'MSG', FILE:L:C */
		msg = at + 1;
		loc = last(msg, (size_t)(stop - msg), "', ");
		if (!loc)
			return -1;
		put(out, n, &k, loc + 3, line_end(loc + 3, stop));
		put_str(out, n, &k, ": ");
		put(out, n, &k, msg, loc);
		return 0;
	}
	/* FILE:L:C:\nMSG */
	loc = line_end(at, stop);
	put(out, n, &k, at, loc > at && loc[-1] == ':' ? loc - 1 : loc);
	if (loc + 1 < stop) {
		put_str(out, n, &k, ": ");
		put(out, n, &k, loc + 1, stop);
	}
	return 0;
}

int lang_terminate_message(const char *err, size_t len, char *out,
			   size_t n)
{
	const char *end = err + len, *p = last(err, len, "terminate called ");
	const char *w, *tail;
	size_t k = 0;

	if (!n || !p)
		return -1;
	tail = line_end(p, end);
	put(out, n, &k, p, tail);
	w = tail < end ? tail + 1 : end;
	if (end - w > 10 && memcmp(w, "  what():  ", 11) == 0) {
		w += 11;
		put_str(out, n, &k, ": what(): ");
		tail = end;
		while (tail > w && tail[-1] == '\n')
			tail--;
		put(out, n, &k, w, tail);
	}
	return 0;
}
