/* sarif.h — the errors found as SARIF 2.1.0 (--sarif FILE), the format
 * code-scanning services and CI read (OASIS SARIF v2.1.0, errata 01).
 *
 * One run: tool.driver is x86smc with its version and one rule per kind
 * of error found; one result per error (results.h, struct error_rec):
 * ruleId the kind ("assertion", "deadlock", ...), level "error", the
 * message of the text report, and the physical location of the failing
 * instruction: the program's own source line, as the `error:` line shows
 * it (for a deadlock the call that blocked).  The reported error (the
 * first; the one whose execution the text trace shows) also has a
 * codeFlow with one threadFlow per thread and per store buffer (Tn+),
 * each listing the trace's steps that have a source line (an update at
 * the line of its store), with the step number as executionOrder and the
 * text trace's instruction and effect as message; stale reads and the
 * failing step are "essential".
 *
 * Source paths: DWARF's (sym_path), relative to the working directory
 * when under it, with uriBaseId "%SRCROOT%" (originalUriBaseIds gives
 * the directory), else absolute file: URIs; without DWARF paths, the
 * basename.  Unknown lines leave a result without locations.
 */
#ifndef X86SMC_SARIF_H
#define X86SMC_SARIF_H

#include <stdio.h>

#include "report/results.h"
#include "report/trace.h"

/* The members "locations" and "codeFlows" of error e's result (JSON
 * text without braces, malloc'd), or NULL; in: the execution, for the
 * code flow (NULL: the location only).  Kept in error_rec.sarif until
 * sarif_write. */
char *sarif_note(const struct trace_env *env, const struct trace_in *in,
		 const struct error_rec *e);

/* The SARIF log of the results; version: x86smc's.  0, or -1 if it could
 * not be written. */
int sarif_write(FILE *f, const struct results *r, const char *version);

#endif
