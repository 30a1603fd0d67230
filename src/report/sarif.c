/* sarif.c — SARIF 2.1.0 results (see sarif.h). */
#include "report/sarif.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SCHEMA "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/" \
	       "os/schemas/sarif-schema-2.1.0.json"
#define NT TR_MAX_THREADS

static void jstr(FILE *f, const char *s)
{
	json_string(f, s ? s : "", s ? strlen(s) : 0);
}

/* A path as a URI reference: unreserved characters and '/' as they
 * are, the rest percent-encoded (RFC 3986). */
static void put_uri_path(FILE *f, const char *p)
{
	static const char ok[] = "-._~/";

	for (; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr(ok, c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}

/* "artifactLocation": under the working directory relative to
 * %SRCROOT%, else an absolute file: URI. */
static void put_artifact(FILE *f, const char *path, const char *file)
{
	char cwd[4096];
	const char *p = path ? path : file;
	size_t n;

	fputs("\"artifactLocation\": {\"uri\": \"", f);
	if (p[0] == '/' && getcwd(cwd, sizeof cwd) &&
	    strncmp(p, cwd, (n = strlen(cwd))) == 0 && p[n] == '/')
		p += n + 1;
	else if (p[0] == '/') {
		fputs("file://", f);
		put_uri_path(f, p);
		fputs("\"}", f);
		return;
	}
	put_uri_path(f, p);
	fputs("\", \"uriBaseId\": \"%SRCROOT%\"}", f);
}

/* A location object: file:line, the function, a message. */
static void put_location(FILE *f, const struct trace_src *src,
			 const char *msg)
{
	fputs("{\"physicalLocation\": {", f);
	put_artifact(f, src->path, src->file);
	fprintf(f, ", \"region\": {\"startLine\": %d}}",
		src->line > 0 ? src->line : 1);
	if (src->func) {
		fputs(", \"logicalLocations\": [{\"name\": ", f);
		jstr(f, src->func);
		fputs(", \"kind\": \"function\"}]", f);
	}
	if (msg) {
		fputs(", \"message\": {\"text\": ", f);
		jstr(f, msg);
		fputc('}', f);
	}
	fputc('}', f);
}

/* The source line a trace line stands at: its own, or an update's
 * store's. */
static const struct trace_step *line_of(const struct trace_steps *s,
					const struct trace_step *st)
{
	if (st->n > 1)
		return NULL;
	if (st->update && s->src[st->first] >= 0)
		st = &s->v[s->step_of[s->src[st->first]]];
	return st->src.file ? st : NULL;
}

static bool essential(const struct trace_steps *s, const struct trace_in *in,
		      const struct trace_step *st)
{
	const struct error_rec *e = in->err;

	if (s->stale[st->first] >= 0)
		return true;
	for (size_t k = 0; k < in->n; k++)
		if (s->stale[k] == (long)st->first)
			return true;
	/* the failing thread's last step */
	if (!e || st->update || st->thread != e->thread)
		return false;
	for (size_t i = s->step_of[st->first] + 1; i < s->n; i++)
		if (!s->v[i].update && s->v[i].thread == e->thread)
			return false;
	return true;
}

/* One threadFlow: the lines of column (t, update) that have a source
 * line.  Returns whether it had any. */
static bool put_thread_flow(FILE *f, const struct trace_steps *s,
			    const struct trace_in *in, int t, bool update,
			    bool comma)
{
	bool any = false;

	for (size_t i = 0; i < s->n; i++) {
		const struct trace_step *st = &s->v[i], *at;
		char *msg = NULL;
		size_t len = 0;
		FILE *m;
		if (st->thread != t || st->update != update ||
		    !(at = line_of(s, st)) || !(m = open_memstream(&msg, &len)))
			continue;
		fprintf(m, "step %zu: %s%s%s", st->first + 1, st->insn,
			st->insn[0] && st->effect[0] ? ": " : "", st->effect);
		fclose(m);
		if (!any)
			fprintf(f, "%s\n        {\"id\": \"T%d%s\", \"message\": "
				   "{\"text\": \"%s\"}, \"locations\": [",
				comma ? "," : "", t, update ? "+" : "",
				update  ? "its store buffer"
				: t == 0 ? "main thread"
					 : "thread");
		fprintf(f, "%s\n          {\"location\": ", any ? "," : "");
		put_location(f, &at->src, msg);
		fprintf(f, ", \"executionOrder\": %zu, \"importance\": \"%s\"}",
			st->first + 1,
			essential(s, in, st) ? "essential" : "important");
		free(msg);
		any = true;
	}
	if (any)
		fputs("]}", f);
	return any;
}

static void put_code_flow(FILE *f, const struct trace_steps *s,
			  const struct trace_in *in)
{
	bool any = false;

	fprintf(f, ",\n      \"codeFlows\": [{\"message\": {\"text\": \"the "
		   "execution that reaches the error (model %s, %zu steps, "
		   "%d preemptions)\"}, \"threadFlows\": [",
		in->model, in->n, in->preemptions);
	for (int t = 0; t < NT; t++)
		for (int u = 0; u < 2; u++)
			any |= put_thread_flow(f, s, in, t, u, any);
	fputs("]}]", f);
}

char *sarif_note(const struct trace_env *env, const struct trace_in *in,
		 const struct error_rec *e)
{
	struct trace_steps s = { 0 };
	struct trace_src src;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	bool flows = false;

	if (in && trace_steps(env, in, &s) < 0)
		return NULL;
	if (!(f = open_memstream(&text, &len))) {
		trace_steps_free(&s);
		return NULL;
	}
	fputs("\"locations\": [", f);
	if (trace_error_source(env, e, &src))
		put_location(f, &src, NULL);
	fputc(']', f);
	for (size_t i = 0; i < s.n && !flows; i++)
		flows = line_of(&s, &s.v[i]) != NULL;
	if (flows) /* a threadFlow needs a location at least */
		put_code_flow(f, &s, in);
	fclose(f);
	trace_steps_free(&s);
	return text;
}

/* ---- the log ---- */

static const struct {
	const char *kind, *what;
} rules[] = {
	{ "assertion", "An assertion fails (assert, __assert_fail)" },
	{ "crash", "The program is killed by a signal (segmentation fault, "
		   "bus error, ...)" },
	{ "deadlock", "Every live thread is blocked" },
	{ "livelock", "No thread can make progress: every live thread "
		      "waits or spins forever" },
	{ "exit-code", "The program exits with a non-zero status" },
	{ "verifier-error", "__VERIFIER_error() or reach_error() is reached" },
	{ "panic", "A Rust panic" },
	{ "uncaught-exception", "An uncaught C++ exception" },
	{ "misuse", "A pthread object is misused" },
};

static const char *rule_text(const char *kind)
{
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
		if (strcmp(rules[i].kind, kind) == 0)
			return rules[i].what;
	return kind;
}

/* The distinct kinds, in order of first error: index of e's. */
static size_t rule_index(const struct results *r, size_t e)
{
	size_t n = 0;

	for (size_t i = 0; i < e; i++) {
		bool first = true;
		for (size_t j = 0; j < i && first; j++)
			first = strcmp(r->errors[j].kind, r->errors[i].kind) != 0;
		if (first && strcmp(r->errors[i].kind, r->errors[e].kind) == 0)
			return n;
		n += first;
	}
	return n;
}

static void put_rules(FILE *f, const struct results *r)
{
	bool any = false;

	fputs("\"rules\": [", f);
	for (size_t i = 0; i < r->nerrors; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(r->errors[j].kind, r->errors[i].kind) == 0;
		if (seen)
			continue;
		fprintf(f, "%s\n        {\"id\": ", any ? "," : "");
		jstr(f, r->errors[i].kind);
		fputs(", \"shortDescription\": {\"text\": ", f);
		jstr(f, rule_text(r->errors[i].kind));
		fputs("}, \"defaultConfiguration\": {\"level\": \"error\"}}", f);
		any = true;
	}
	fputs("]", f);
}

/* Without a noted trace: file:line from the location text ("main+0x90
 * (dekker.c:62)"). */
static void put_fallback_location(FILE *f, const struct error_rec *e)
{
	const char *open = strrchr(e->location, '('), *colon;
	char file[256];
	int line;

	fputs("\"locations\": [", f);
	if (open && (colon = strrchr(open, ':')) &&
	    (size_t)(colon - open - 1) < sizeof file &&
	    sscanf(colon + 1, "%d)", &line) == 1) {
		struct trace_src src = { NULL, file, NULL, line };
		memcpy(file, open + 1, (size_t)(colon - open - 1));
		file[colon - open - 1] = 0;
		put_location(f, &src, NULL);
	}
	fputc(']', f);
}

static void put_result(FILE *f, const struct results *r, size_t i)
{
	const struct error_rec *e = &r->errors[i];
	char msg[2048];

	snprintf(msg, sizeof msg, "%s in thread %d at %s: %s", e->kind,
		 e->thread, e->location, e->message);
	fprintf(f, "%s\n    {\"ruleId\": ", i ? "," : "");
	jstr(f, e->kind);
	fprintf(f, ", \"ruleIndex\": %zu, \"level\": \"error\",\n"
		   "      \"message\": {\"text\": ",
		rule_index(r, i));
	jstr(f, msg);
	fputs("},\n      ", f);
	if (e->sarif)
		fputs(e->sarif, f);
	else
		put_fallback_location(f, e);
	fprintf(f, ",\n      \"properties\": {\"thread\": %d, \"pc\": "
		   "\"%#lx\", \"location\": ",
		e->thread, (unsigned long)e->pc);
	jstr(f, e->location);
	fprintf(f, ", \"preemptions\": %d}}", e->preemptions);
}

int sarif_write(FILE *f, const struct results *r, const char *version)
{
	char cwd[4096];

	fprintf(f, "{\n  \"$schema\": \"%s\",\n  \"version\": \"2.1.0\",\n"
		   "  \"runs\": [{\n  \"tool\": {\"driver\": {\"name\": "
		   "\"x86smc\", \"version\": ",
		SCHEMA);
	jstr(f, version);
	fputs(", \"semanticVersion\": ", f);
	jstr(f, version);
	fputs(",\n      ", f);
	put_rules(f, r);
	fputs("}},\n", f);
	if (getcwd(cwd, sizeof cwd)) {
		fputs("  \"originalUriBaseIds\": {\"%SRCROOT%\": {\"uri\": "
		      "\"file://",
		      f);
		put_uri_path(f, cwd);
		fputs(strcmp(cwd, "/") ? "/\"}},\n" : "\"}},\n", f);
	}
	fputs("  \"results\": [", f);
	for (size_t i = 0; i < r->nerrors; i++)
		put_result(f, r, i);
	fputs("],\n  \"properties\": {\"program\": ", f);
	jstr(f, r->program);
	fputs(", \"model\": ", f);
	jstr(f, r->model);
	fputs(", \"strategy\": ", f);
	jstr(f, r->strategy);
	fprintf(f, ", \"complete\": %s, \"executions\": %lu}\n  }]\n}\n",
		r->complete ? "true" : "false", r->executions);
	return ferror(f) ? -1 : 0;
}
