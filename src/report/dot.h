/* dot.h — the reported error's execution as a happens-before graph in
 * Graphviz DOT (--dot FILE), and its rendering to SVG (--svg FILE).
 * How to read it: docs/TRACES.md, "Pictures".
 *
 * The graph has one column per thread (a cluster, T0 first) and one per
 * store buffer that has updates (Tn+, next to Tn); its nodes are the
 * lines of the text trace (trace_steps(): a step, or a folded run of one
 * thread's steps), linked top-down in program order.  Edges between
 * columns are the happens-before of the execution, the rule of dpor.h
 * recomputed from the events (the renderer reads no explorer state):
 * spawn ("creates"), wake-ups ("wakes", an exit waking its joiner:
 * "join"), the buffer's part (a store to its update: "flush"; the update
 * that emptied a buffer to the locked or fenced event that waited for
 * it: "drained"), and conflicts (same bytes, one a write: "rf X" reads
 * what the other wrote, "fr X" the other overwrites what it read, "ww
 * X").  Only edges that no other path implies are drawn (vector clocks,
 * newest source first, like dpor's race check), so every conflict edge
 * is a race of this execution in dpor's sense.
 *
 * Highlighted in red: each stale read and the buffered store it read
 * past (a dashed edge "stale", which is no happens-before edge), the
 * store→load (or pso store→store) reorderings of the fence check
 * (trace_reorders, an edge "reordered"), the failing thread's last step
 * and the failure itself (an octagon below it; for a deadlock, joined to
 * each blocked thread).
 */
#ifndef X86SMC_DOT_H
#define X86SMC_DOT_H

#include "report/trace.h"

/* The DOT text of the execution (malloc'd), or NULL. */
char *dot_render(const struct trace_env *env, const struct trace_in *in);

/* Run Graphviz's `dot -Tsvg` on the DOT text, writing path.  0 done;
 * 1 dot is not installed (nothing written); -1 it failed (a message on
 * stderr). */
int dot_svg(const char *dot, const char *path);

#endif
