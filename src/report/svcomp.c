/* svcomp.c — SV-COMP property files and answers (svcomp.h). */
#include "report/svcomp.h"

#include <ctype.h>
#include <string.h>

#include "tracer/tracer.h"

static const struct {
	const char *ltl; /* the formula, blanks removed */
	enum property p;
} formulas[] = {
	{ "G!call(reach_error())", PROP_UNREACH_CALL },
	{ "G!call(__VERIFIER_error())", PROP_UNREACH_CALL },
	{ "G!data-race", PROP_NO_DATA_RACE },
};

/* The file's text with every blank removed (at most n - 1 bytes). */
static int read_squeezed(const char *path, char *buf, size_t n)
{
	FILE *f = fopen(path, "r");
	size_t k = 0;
	int c;

	if (!f)
		return -1;
	while ((c = fgetc(f)) != EOF && k + 1 < n)
		if (!isspace(c))
			buf[k++] = (char)c;
	buf[k] = 0;
	fclose(f);
	return c == EOF ? 0 : -1;
}

int svcomp_read_property(const char *path, enum property *p, char *err,
			 size_t n)
{
	char text[512], want[600];

	if (read_squeezed(path, text, sizeof text) < 0) {
		snprintf(err, n, "--property %s: cannot read it (or longer "
			 "than one property)", path);
		return -1;
	}
	for (size_t i = 0; i < sizeof formulas / sizeof formulas[0]; i++) {
		snprintf(want, sizeof want, "CHECK(init(main()),LTL(%s))",
			 formulas[i].ltl);
		if (strcmp(text, want) == 0) {
			*p = formulas[i].p;
			return 0;
		}
	}
	snprintf(err, n, "--property %s: not a property x86smc checks "
		 "(unreach-call: G ! call(reach_error()), no-data-race: "
		 "G ! data-race)", path);
	return -1;
}

const char *svcomp_property_name(enum property p)
{
	return p == PROP_UNREACH_CALL   ? "unreach-call"
	       : p == PROP_NO_DATA_RACE ? "no-data-race"
					: "";
}

bool svcomp_violation(enum property p, const char *kind)
{
	switch (p) {
	case PROP_UNREACH_CALL:
		return strcmp(kind, "verifier-error") == 0;
	case PROP_NO_DATA_RACE:
		return strcmp(kind, "data-race") == 0;
	default:
		return true;
	}
}

/* An execution that ended this way ended a path the property accounts
 * for: the program's own exit, abort() (an assumption in SV-COMP's
 * tasks), blocked or spinning forever. */
static bool path_end(enum property p, const char *status)
{
	return strncmp(status, "exit ", 5) == 0 ||
	       strcmp(status, "signal SIGABRT") == 0 ||
	       strcmp(status, "deadlock") == 0 ||
	       strcmp(status, "livelock") == 0 ||
	       (p != PROP_UNREACH_CALL && strcmp(status, "verifier-error") == 0);
}

/* The names of enum tr_nondet, in its order. */
static const char *const nondet_names[ND_NTYPES] = {
	"bool", "char", "uchar", "short", "ushort", "int", "uint", "long",
	"ulong", "pointer",
};

static void bounded_reason(const struct options *o, struct results *r)
{
	size_t k = 0;
	char *s = r->answer_reason;
	size_t n = sizeof r->answer_reason;

	k += (size_t)snprintf(s, n, "values of __VERIFIER_nondet_");
	for (int i = 0, first = 1; i < ND_NTYPES && k < n; i++)
		if (r->nondet_bounded & (1u << i)) {
			k += (size_t)snprintf(s + k, n - k, "%s%s",
					      first ? "" : "/", nondet_names[i]);
			first = 0;
		}
	if (k < n)
		snprintf(s + k, n - k, " were drawn from --nondet-domain %s "
			 "(%d values), not from the whole type: a violation "
			 "may need another value",
			 o->nondet_domain ? o->nondet_domain : "0..1",
			 o->nnondet);
}

/* Why the search does not prove the property ("" if it does). */
static void unknown_reason(const struct options *o, struct results *r)
{
	char *s = r->answer_reason;
	size_t n = sizeof r->answer_reason;

	s[0] = 0;
	if (!r->complete) {
		snprintf(s, n, "the search is not complete: %s", r->note);
		return;
	}
	if (r->nondet_bounded) {
		bounded_reason(o, r);
		return;
	}
	if (r->nondet_unmodelled[0]) {
		snprintf(s, n, "the program defines %s, which x86smc does not "
			 "model (the function runs: its values are not "
			 "explored)", r->nondet_unmodelled);
		return;
	}
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct outcome *oc = &r->outcomes[i];
		if (path_end(o->property, oc->status))
			continue;
		snprintf(s, n, "%lu execution%s ended in %s, which %s does not "
			 "account for: what the program would do next is "
			 "unknown", oc->count, oc->count == 1 ? "" : "s",
			 oc->status, svcomp_property_name(o->property));
		return;
	}
}

void svcomp_answer(const struct options *o, struct results *r)
{
	const char *name = svcomp_property_name(o->property);

	r->property = name;
	r->answer_reason[0] = 0;
	for (size_t i = 0; i < r->nerrors; i++)
		if (svcomp_violation(o->property, r->errors[i].kind)) {
			snprintf(r->answer, sizeof r->answer, "false");
			snprintf(r->answer_result, sizeof r->answer_result,
				 "false(%s)", name);
			return;
		}
	unknown_reason(o, r);
	snprintf(r->answer, sizeof r->answer, "%s",
		 r->answer_reason[0] ? "unknown" : "true");
	snprintf(r->answer_result, sizeof r->answer_result, "%s", r->answer);
}

void svcomp_print(const struct results *r, FILE *f)
{
	bool any = false;

	if (!r->property)
		return;
	/* the executions that ended some other way than exit 0, by how */
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct outcome *oc = &r->outcomes[i];
		if (strcmp(oc->status, "exit 0") == 0)
			continue;
		fprintf(f, "%s%s %lu", any ? ", " : "executions by end: ",
			oc->status, oc->count);
		any = true;
	}
	if (any)
		fputc('\n', f);
	fprintf(f, "SV-COMP answer: %s\n", r->answer_result);
	if (r->answer_reason[0])
		fprintf(f, "  because %s\n", r->answer_reason);
}
