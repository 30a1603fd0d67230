/* results.c — outcomes, errors and the two summaries. */
#include "report/results.h"
#include "report/profile.h"

#include <stdlib.h>
#include <string.h>

const struct outcome *results_find_outcome(const struct results *r,
					   const struct outcome *o)
{
	for (size_t i = 0; i < r->noutcomes; i++)
		if (r->outcomes[i].len == o->len &&
		    memcmp(r->outcomes[i].out, o->out, o->len) == 0 &&
		    strcmp(r->outcomes[i].status, o->status) == 0)
			return &r->outcomes[i];
	return NULL;
}

int results_add_outcome(struct results *r, const char *out, size_t len,
			const char *status, const char *witness)
{
	for (size_t i = 0; i < r->noutcomes; i++) {
		struct outcome *o = &r->outcomes[i];
		if (o->len == len && memcmp(o->out, out, len) == 0 &&
		    strcmp(o->status, status) == 0) {
			o->count++;
			return 0;
		}
	}
	struct outcome *n = realloc(r->outcomes,
				    (r->noutcomes + 1) * sizeof *n);
	if (!n)
		return -1;
	r->outcomes = n;
	n = &r->outcomes[r->noutcomes];
	n->out = malloc(len + 1);
	if (!n->out)
		return -1;
	memcpy(n->out, out, len);
	n->out[len] = 0;
	n->len = len;
	snprintf(n->status, sizeof n->status, "%s", status);
	n->count = 1;
	n->witness = witness ? strdup(witness) : NULL;
	r->noutcomes++;
	return 0;
}

struct error_rec *results_add_error(struct results *r)
{
	struct error_rec *e = realloc(r->errors, (r->nerrors + 1) * sizeof *e);

	if (!e)
		return NULL;
	r->errors = e;
	e = &r->errors[r->nerrors++];
	memset(e, 0, sizeof *e);
	return e;
}

struct error_rec *results_keep_error(struct results *r,
				     const struct error_rec *e)
{
	struct error_rec *n;

	for (size_t i = 0; i < r->nerrors; i++) {
		struct error_rec *o = &r->errors[i];
		if (strcmp(o->kind, e->kind) || strcmp(o->location, e->location))
			continue;
		if (e->preemptions >= o->preemptions)
			return NULL;
		free(o->trace);
		free(o->schedule);
		free(o->dot);
		free(o->sarif);
		free(o->witness);
		*o = *e;
		o->trace = o->schedule = o->dot = o->sarif = NULL;
		o->witness = NULL;
		o->trace_file[0] = 0;
		return o;
	}
	n = results_add_error(r);
	if (!n)
		return NULL;
	*n = *e;
	n->trace = n->schedule = n->dot = n->sarif = NULL;
	n->witness = NULL;
	n->trace_file[0] = 0;
	return n;
}

void results_free(struct results *r)
{
	for (size_t i = 0; i < r->noutcomes; i++) {
		free(r->outcomes[i].out);
		free(r->outcomes[i].witness);
	}
	free(r->outcomes);
	free(r->non_sc);
	for (size_t i = 0; i < r->nerrors; i++) {
		free(r->errors[i].trace);
		free(r->errors[i].schedule);
		free(r->errors[i].dot);
		free(r->errors[i].sarif);
		free(r->errors[i].witness);
	}
	free(r->errors);
	free(r->trace);
	memset(r, 0, sizeof *r);
}

/* Length of the valid UTF-8 sequence at s (0 if invalid). */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t k;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if (k > n)
		return 0;
	for (size_t i = 1; i < k; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return k;
}

void json_string(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		size_t k;
		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else if (c < 0x80)
			fputc(c, f);
		else if ((k = utf8_len(s + i, n - i)) > 0) {
			fwrite(s + i, 1, k, f);
			i += k - 1;
		} else
			fprintf(f, "\\u%04x", c);
	}
	fputc('"', f);
}

static void json_kv(FILE *f, const char *k, const char *v, bool comma)
{
	fprintf(f, "  \"%s\": ", k);
	json_string(f, v ? v : "", v ? strlen(v) : 0);
	fputs(comma ? ",\n" : "\n", f);
}

static void json_error(FILE *f, const struct error_rec *e, bool last)
{
	fputs("    {\"kind\": ", f);
	json_string(f, e->kind, strlen(e->kind));
	fputs(", \"message\": ", f);
	json_string(f, e->message, strlen(e->message));
	fprintf(f, ", \"thread\": %d, \"pc\": \"%#lx\", \"location\": ",
		e->thread, (unsigned long)e->pc);
	json_string(f, e->location, strlen(e->location));
	fprintf(f, ", \"preemptions\": %d, \"trace_file\": ", e->preemptions);
	if (e->trace_file[0])
		json_string(f, e->trace_file, strlen(e->trace_file));
	else
		fputs("null", f);
	fputs(last ? "}\n" : "},\n", f);
}

/* "fence_suggestion": null, or what the fence check found. */
static void json_fence(const struct results *r, FILE *f)
{
	const struct fence_rec *fr = &r->fence;

	if (!fr->ran) {
		fputs("  \"fence_suggestion\": null,\n", f);
		return;
	}
	fputs("  \"fence_suggestion\": {\"sc\": ", f);
	json_string(f, fr->sc, strlen(fr->sc));
	fputs(", \"reorderings\": [", f);
	for (int i = 0; i < r->nreorders; i++) {
		const struct reorder_rec *o = &r->reorders[i];
		fprintf(f, "%s{\"thread\": %d, \"kind\": \"%s\", \"store\": ",
			i ? ", " : "", o->thread,
			o->store_store ? "store-store" : "store-load");
		json_string(f, o->store, strlen(o->store));
		fputs(o->store_store ? ", \"later_store\": " : ", \"load\": ", f);
		json_string(f, o->load, strlen(o->load));
		fputc('}', f);
	}
	fputs("], \"fence_after\": [", f);
	for (int i = 0; i < fr->nfences; i++) {
		fprintf(f, "%s{\"pc\": \"%#lx\", \"location\": ", i ? ", " : "",
			(unsigned long)fr->pc[i]);
		json_string(f, fr->at[i], strlen(fr->at[i]));
		fputc('}', f);
	}
	fprintf(f, "], \"verified\": %s, \"recheck\": ",
		fr->verified == 1 ? "true" : fr->verified == 0 ? "false"
							      : "null");
	json_string(f, fr->recheck, strlen(fr->recheck));
	fputs(", \"check\": ", f);
	json_string(f, fr->status, strlen(fr->status));
	fprintf(f, ", \"budget_s\": %.2f, \"seconds\": %.3f},\n", fr->budget,
		fr->seconds);
}

int report_json(const struct results *r, FILE *f)
{
	fputs("{\n", f);
	json_kv(f, "program", r->program, true);
	json_kv(f, "model", r->model, true);
	json_kv(f, "strategy", r->strategy, true);
	fprintf(f, "  \"complete\": %s,\n", r->complete ? "true" : "false");
	fprintf(f, "  \"executions\": %lu,\n", r->executions);
	fprintf(f, "  \"blocked_executions\": %lu,\n", r->blocked_executions);
	fprintf(f, "  \"assume_blocked\": %lu,\n", r->assume_blocked);
	fputs("  \"errors\": [", f);
	fputs(r->nerrors ? "\n" : "", f);
	for (size_t i = 0; i < r->nerrors; i++)
		json_error(f, &r->errors[i], i + 1 == r->nerrors);
	fputs(r->nerrors ? "  ],\n" : "],\n", f);
	fputs("  \"outcomes\": [", f);
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct outcome *o = &r->outcomes[i];
		fputs(i ? ",\n    {\"stdout\": " : "\n    {\"stdout\": ", f);
		json_string(f, o->out, o->len);
		fputs(", \"status\": ", f);
		json_string(f, o->status, strlen(o->status));
		fprintf(f, ", \"count\": %lu}", o->count);
	}
	fputs(r->noutcomes ? "\n  ],\n" : "],\n", f);
	fprintf(f, "  \"elapsed_s\": %.3f,\n", r->elapsed_s);
	fprintf(f, "  \"events\": %lu,\n", (unsigned long)r->events);
	fprintf(f, "  \"ptrace_stops\": %lu,\n",
		(unsigned long)r->ptrace_stops);
	fprintf(f, "  \"replayed_events\": %lu,\n",
		(unsigned long)r->replayed);
	fprintf(f, "  \"checkpoints\": %lu,\n",
		(unsigned long)r->checkpoints);
	fprintf(f, "  \"jobs\": %d,\n", r->jobs ? r->jobs : 1);
	fprintf(f, "  \"hb_classes\": %lu,\n", r->traces);
	profile_json(f);
	if (r->robust_checked) {
		fprintf(f, "  \"robust\": %s,\n  \"non_sc_outcomes\": [",
			r->nnon_sc ? "false" : "true");
		for (size_t i = 0; i < r->nnon_sc; i++) {
			const struct outcome *o = r->non_sc[i];
			fputs(i ? ",\n    {\"stdout\": " : "\n    {\"stdout\": ", f);
			json_string(f, o->out, o->len);
			fputs(", \"status\": ", f);
			json_string(f, o->status, strlen(o->status));
			fputs(", \"witness\": ", f);
			json_string(f, o->witness ? o->witness : "",
				    o->witness ? strlen(o->witness) : 0);
			fputc('}', f);
		}
		fputs(r->nnon_sc ? "\n  ],\n" : "],\n", f);
	}
	json_fence(r, f);
	if (r->sanity)
		fprintf(f, "  \"sanity_checked\": %lu,\n"
			   "  \"sanity_mismatches\": %lu,\n",
			(unsigned long)r->sanity_checked,
			(unsigned long)r->sanity_mismatches);
	if (r->max_steps_cut)
		fprintf(f, "  \"max_steps_executions\": %lu,\n",
			r->max_steps_cut);
	if (r->threads_cut)
		fprintf(f, "  \"thread_limit_executions\": %lu,\n",
			r->threads_cut);
	if (r->timeouts_pruned)
		fprintf(f, "  \"timeouts_not_explored\": %lu,\n",
			r->timeouts_pruned);
	if (r->timeout_cut)
		fprintf(f, "  \"timeout_cut_executions\": %lu,\n",
			r->timeout_cut);
	if (r->preemption_bound >= 0)
		fprintf(f, "  \"preemption_bound\": %ld,\n",
			r->preemption_bound);
	if (r->spin_live)
		fprintf(f, "  \"spin_counter_read\": %lu,\n",
			(unsigned long)r->spin_live);
	if (r->pso_shared)
		fprintf(f, "  \"pso_shared_stores\": %lu,\n",
			(unsigned long)r->pso_shared);
	if (r->property) { /* --property (report/svcomp.h) */
		json_kv(f, "property", r->property, true);
		json_kv(f, "answer", r->answer, true);
		json_kv(f, "answer_result", r->answer_result, true);
		json_kv(f, "answer_reason", r->answer_reason, true);
	}
	if (r->nondet_bounded)
		fprintf(f, "  \"nondet_bounded\": true,\n");
	if (r->samples)
		fprintf(f, "  \"pct_samples\": %lu,\n  \"found_by\": \"%s\",\n",
			r->samples,
			!r->nerrors		 ? "none"
			: r->errors[0].by_sample ? "pct-sample"
						 : "search");
	if (r->estimate > 0)
		fprintf(f, "  \"estimate\": {\"executions\": %.0f, "
			   "\"seconds\": %.3f, \"probes\": %u, "
			   "\"probe_seconds\": %.3f},\n",
			r->estimate, r->estimate_s, r->estimate_probes,
			r->estimate_probe_s);
	json_kv(f, "coverage", r->note, false);
	fputs("}\n", f);
	return ferror(f) ? -1 : 0;
}

static void text_outcomes(const struct results *r, FILE *f)
{
	fprintf(f, "outcomes (%zu distinct):\n", r->noutcomes);
	for (size_t i = 0; i < r->noutcomes; i++) {
		const struct outcome *o = &r->outcomes[i];
		fprintf(f, "  %6lu  %-16s  ", o->count, o->status);
		json_string(f, o->out, o->len);
		fputc('\n', f);
	}
}

/* "store+0x12 (dekker.c:29)" → "store+0x12": what --assume-fence takes,
 * when the name is a plain C one.  A C++ or Rust name has spaces, shell
 * characters, and may not be unique (Rust's legacy names lose their
 * hash): then the pc, which is what the re-check used (0 returned). */
static int addr_len(const char *at)
{
	size_t n = strcspn(at, " ");

	return strspn(at, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "0123456789_.+") == n ? (int)n : 0;
}

/* One reordering and, the first time it comes up, the fence for it. */
static void text_reorder(const struct results *r, int i, FILE *f)
{
	const struct fence_rec *fr = &r->fence;
	const struct reorder_rec *o = &r->reorders[i];

	fprintf(f, "  %sT%d's store at %s was still in its store buffer\n"
		   "    when %s at %s %s\n",
		o->recheck ? "with that, " : "", o->thread, o->store,
		o->store_store ? "its later store" : "its load", o->load,
		o->store_store ? "reached memory"
			       : "read a location another thread writes");
	for (int j = 0; j < i; j++)
		if (r->reorders[j].fence_pc == o->fence_pc)
			return;
	for (int k = 0; k < fr->nfences; k++)
		if (fr->pc[k] == o->fence_pc)
			fprintf(f, "  suggestion: an MFENCE right after %s%s\n",
				fr->at[k], o->fence_pc != o->store_pc
						   ? ",\n    the thread's last "
						     "store before that load"
						   : "");
}

/* How long the check took, and why it did not conclude if it did not. */
static void text_fence_end(const struct fence_rec *fr, FILE *f)
{
	if (fr->status[0] && strcmp(fr->status, "verified") != 0 &&
	    strcmp(fr->status, "refuted") != 0)
		fprintf(f, "  (the fence check took %.2f s: %s; its budget was "
			   "%g s, --fence-check SECONDS)\n",
			fr->seconds, fr->status, fr->budget);
	else
		fprintf(f, "  (the fence check took %.2f s)\n", fr->seconds);
}

static void text_fence(const struct results *r, FILE *f)
{
	const struct fence_rec *fr = &r->fence;

	if (!fr->ran)
		return;
	if (strcmp(fr->sc, "possible") == 0) {
		fprintf(f, "fence check: this error happens under sc too (%s):\n"
			   "  store buffering is not its cause (%.2f s)\n",
			fr->sc_detail, fr->seconds);
		return;
	}
	fprintf(f, "fence check: this error is %s under sc (%s)\n",
		strcmp(fr->sc, "impossible") == 0 ? "impossible"
						  : "not known to be possible",
		fr->sc_detail);
	for (int i = 0; i < r->nreorders; i++)
		text_reorder(r, i, f);
	if (!fr->nfences) {
		text_fence_end(fr, f);
		return;
	}
	fputs(fr->recheck[0] ? "  re-checked with"
			     : "  not re-checked (no time left); to do it, "
			       "run again with",
	      f);
	for (int i = 0; i < fr->nfences; i++) {
		if (addr_len(fr->at[i]))
			fprintf(f, " --assume-fence %.*s", addr_len(fr->at[i]),
				fr->at[i]);
		else
			fprintf(f, " --assume-fence %#lx",
				(unsigned long)fr->pc[i]);
	}
	if (fr->recheck[0])
		fprintf(f, ":\n    %s\n", fr->recheck);
	else
		fputc('\n', f);
	text_fence_end(fr, f);
}

static void text_error(const struct results *r, size_t i, FILE *f)
{
	const struct error_rec *e = &r->errors[i];

	fprintf(f, "error: %s in thread %d at %s\n  %s\n", e->kind, e->thread,
		e->location[0] ? e->location : "?", e->message);
	if (e->trace_file[0])
		fprintf(f, "  schedule written to %s (replay with --replay)\n",
			e->trace_file);
	if (i == 0 && e->trace)
		fputs(e->trace, f);
}

void report_head(struct results *r, FILE *f)
{
	if (!r->nerrors || r->head_shown)
		return;
	text_error(r, 0, f);
	fflush(f);
	r->head_shown = true;
}

void report_text(const struct results *r, FILE *f, bool outcomes)
{
	for (size_t i = 0; i < r->nerrors; i++) {
		if (i || !r->head_shown)
			text_error(r, i, f);
		if (i == 0)
			text_fence(r, f);
	}
	if (r->trace)
		fputs(r->trace, f);
	if (outcomes)
		text_outcomes(r, f);
	if (r->robust_checked && !r->nnon_sc)
		fprintf(f, "robustness: every %s outcome is an sc outcome\n",
			r->model);
	for (size_t i = 0; i < r->nnon_sc; i++) {
		const struct outcome *o = r->non_sc[i];
		fprintf(f, "robustness: %s outcome impossible under sc: %-14s ",
			r->model, o->status);
		json_string(f, o->out, o->len);
		fprintf(f, "\n  witness schedule:\n%s", o->witness ? o->witness : "");
	}
	double per = r->events ? (double)r->ptrace_stops / (double)r->events
			       : 0.0;
	fprintf(f, "%s: %lu execution%s, %zu error%s, model %s, strategy %s, "
		   "%s\n  %s\n  %lu events, %lu ptrace stops (%.2f per event), "
		   "%.2f s\n",
		r->program, r->executions, r->executions == 1 ? "" : "s",
		r->nerrors, r->nerrors == 1 ? "" : "s", r->model, r->strategy,
		r->complete ? "complete" : "not complete", r->note,
		(unsigned long)r->events, (unsigned long)r->ptrace_stops, per,
		r->elapsed_s);
	if (r->assume_blocked)
		fprintf(f, "  %lu more execution%s ended infeasible "
			   "(assume-blocked: a __VERIFIER_assume failed, or "
			   "a loop drew the same input for ever)\n",
			r->assume_blocked, r->assume_blocked == 1 ? "" : "s");
	if (r->sanity)
		fprintf(f, "  sanity: %lu stepped instructions checked, %lu "
			   "mismatches\n",
			(unsigned long)r->sanity_checked,
			(unsigned long)r->sanity_mismatches);
}
