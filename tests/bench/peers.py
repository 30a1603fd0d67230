#!/usr/bin/env python3
"""peers.py -- make bench-peers: x86smc beside GenMC v0.11 and Nidhugg 0.4
on Nidhugg's own benchmark programs (issue 24), one CPU each.

    python3 tests/bench/peers.py                      # the whole table
    python3 tests/bench/peers.py --quick              # 4 programs
    python3 tests/bench/peers.py --programs dekker,lamport --models sc

The programs are read from the peers' build cache (Nidhugg's benchmarks/
folder, tests/peers/README.md); nothing of them is kept in this tree.  Each
is rewritten into a work folder as a VARIANT:
  plain   every seq_cst atomic load/store made relaxed (plain movs on x86,
          so TSO/PSO store buffering shows; under sc nothing changes);
  fenced  plain, plus a seq_cst fence (mfence) after every such store;
  asis    the file unchanged (seq_cst stores are xchg on x86).
and with SIZE macros set (its `#define NAME value` lines rewritten).  It is
compiled with gcc -O1 -g -pthread (plus SV-COMP's __VERIFIER_* functions
as contrib/svcomp defines them) for x86smc, and by each peer's own clang
(tests/peers/run-peer.sh).

Per program and model: GenMC (--sc/--tso; no PSO) and Nidhugg
(--sc/--tso/--pso), which stop at the first error; then x86smc: with
--keep-going (dpor, the default strategy) when neither peer found a bug,
else with default options (the time to the first bug, fence check
included, until exit).  On such a bug row the three also explore the
program with its asserts off, completely: the counts compared (each
checker ends a failing execution its own way, so counts with the asserts
differ without either being wrong; --keep-going-bugs adds x86smc's and
Nidhugg's --keep-going counts with the asserts as notes).  Complete-
execution counts are an oracle: the three explore one execution per
Mazurkiewicz trace (reads-from class), so the counts of a full
exploration must be equal; a difference is flagged DIFF (a potential
x86smc bug), or "known" where tests/peers/README.md documents a peer
modelling the program differently.  All runs are pinned to one CPU
(taskset, --cpu; x86smc also pins itself) and killed after --timeout
seconds.  Seconds: wall time of the whole process (the peers' clang front
end included) and CPU time (user + system of the run's processes: what
the machine's other load does not change); runs shorter than
--repeat-under seconds are done twice and the least times kept.  A peer
that is not built is reported and left out (make bench-peers
BUILD_PEERS=1 builds it); without Nidhugg's source there are no programs
to run, and the figures issue 24 quotes are printed instead.  Exit
status 0 (differences are reported, not failed), 2 on a usage error.
"""
import argparse
import json
import math
import os
import resource
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'contrib', 'svcomp'))
sys.dont_write_bytecode = True
import svcomp_build  # noqa: E402  (the __VERIFIER_* stub x86smc links with)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'peers'))
from sessions import ACTIVE, killpg_quiet, on_signal  # noqa: E402  (tests/peers/sessions.py)

RUNPEER = os.path.join(ROOT, 'tests', 'peers', 'run-peer.sh')
CACHE = os.environ.get('X86SMC_PEERS_CACHE', '/work/.cache/x86smc-peers')
BENCHDIR = os.path.join(CACHE, 'nidhugg-0.4', 'benchmarks')


class Prog:
    """A row of the table: Nidhugg's benchmark PATH as VARIANT with SIZES,
    under MODELS; KNOWN: 'peer model' -> why that peer's count may differ
    (tests/peers/README.md); SKIP: peer -> why it is not run; SUBS:
    (regex, replacement) applied to the source; NOCOUNT: models where the
    program's exploration with its asserts off is too large to run."""

    def __init__(self, name, path, variant='plain', sizes=None, models='sc tso',
                 known=None, skip=None, subs=(), nocount=''):
        self.name, self.path, self.variant = name, path, variant
        self.nocount = nocount.split()
        self.subs = subs
        self.sizes = sizes or {}
        self.models = models.split()
        self.known, self.skip = known or {}, skip or {}


# main joins its threads: where the original returns without (fib_bench,
# stack_true, lastzero, parker), main's exit ends the process and its
# threads for x86smc, whereas the peers run the threads on after main, so
# the counts differ (fib_bench N=3 sc: x86smc 1,112, each peer 1,698;
# parker: 79 and 60; with the joins, equal).
END = r'(\n\s*return 0;\s*\}\s*)$'
JOIN = r'\n  for (int i_ = 0; i_ < %s; i_++)\n    pthread_join(%s[i_], 0);'

# The fixed list.  Sizes: the benchmarks' own where x86smc finishes within
# about a minute, smaller where not.  pso runs only with --models pso
# (GenMC has no PSO).
PROGRAMS = [
    Prog('dekker', 'SV-COMP/dekker.c'),
    Prog('dekker_fenced', 'SV-COMP/dekker.c', 'fenced', models='tso pso'),
    Prog('peterson', 'from_TRACER/peterson.c'),
    Prog('peterson_fenced', 'from_TRACER/peterson.c', 'fenced', models='tso pso'),
    # with the asserts off, lamport under tso has 81,244 executions
    # (GenMC), szymanski more than GenMC explores in a minute
    Prog('lamport', 'SV-COMP/lamport.c', nocount='tso'),
    Prog('lamport_fenced', 'SV-COMP/lamport.c', 'fenced', models='tso pso'),
    Prog('szymanski', 'SV-COMP/szymanski.c', nocount='tso'),
    Prog('szymanski_fenced', 'SV-COMP/szymanski.c', 'fenced', models='tso pso'),
    Prog('bakery', 'from_TRACER/bakery.c'),
    Prog('bakery_fenced', 'from_TRACER/bakery.c', 'fenced', models='tso pso'),
    Prog('burns', 'from_TRACER/burns.c'),
    Prog('dijkstra', 'from_TRACER/dijkstra.c'),
    Prog('pgsql', 'from_TRACER/pgsql.c'),
    Prog('fib_bench', 'from_OBSERVERS/fib_bench.c', sizes={'N': 4}, subs=[(
        r'(?m)^(\s*int correct = )', r'  pthread_join(id1, 0);\n  pthread_join(id2, 0);\n\1')]),
    Prog('stack_true', 'SV-COMP/stack_true.c', subs=[(END, JOIN % (
        'NUM_PUSH_THREADS', 't1s') + JOIN % ('NUM_POP_THREADS', 't2s') + r'\1')], known={
        'genmc tso': 'GenMC --tso: an unlock does not drain the store buffer'}),
    Prog('indexer', 'SV-COMP/indexer.c', sizes={'NUM_THREADS': 4}, known={
        'genmc tso': 'GenMC --tso: an unlock does not drain the store buffer'}),
    Prog('lastzero', 'from_CONCUERROR/lastzero.c', sizes={'N': 5},
         subs=[(END, JOIN % ('N + 1', 't') + r'\1')]),
    Prog('readers', 'from_RCMC/readers.c', sizes={'N': 6}),
    Prog('reorder_bad', 'from_SCTBench/reorder_c11_bad.c', sizes={'N': 2}),
    Prog('parker', 'from_DCDPOR/parker_c11.c', 'asis', {'N': 2}, 'sc', skip={
        'genmc': 'GenMC stops with "Unordered writes" (not a bug of the program)'},
        subs=[(r'(\n\s*unparker\(NULL\);)', r'\1\n  pthread_join(t1, 0);')]),
]
QUICK = ['dekker', 'bakery', 'fib_bench', 'pgsql']

# Figures quoted in issue 24 (one CPU each, measured when the peers were
# built), printed when a peer is missing.
QUOTED = """\
Figures quoted in issue 24 (not measured here: dekker and lamport relaxed
("plain"), szymanski fenced; wall seconds, one CPU each):

| program | model | executions | GenMC s | Nidhugg s | x86smc s |
| --- | --- | ---: | ---: | ---: | ---: |
| dekker | sc | 1,599 | 0.11 | 0.45 | 3.0 |
| lamport | sc | 25,828 | 0.71 | 2.6 | 58.9 |
| szymanski_fenced | tso | 22,945 | 0.61 | 2.2 | 35.4 |

Geometric means over the 32 of 39 rows all three finished: x86smc / GenMC
40x (28x on full explorations, 6.6x to the first bug); x86smc / Nidhugg
12.7x.
"""


# -- variants ------------------------------------------------------------
PRELUDE = """
/* bench-peers (%s): relaxed loads and stores%s */
#undef atomic_load
#undef atomic_store
#define atomic_load(p) atomic_load_explicit(p, memory_order_relaxed)
#define atomic_store(p, v) bench_store(p, v, memory_order_seq_cst)
#define bench_load(p, mo) atomic_load_explicit(p, memory_order_relaxed)
#define bench_store(p, v, mo) %s
"""
STORE = {
    'plain': 'atomic_store_explicit(p, v, memory_order_relaxed)',
    'fenced': '(atomic_store_explicit(p, v, memory_order_relaxed), '
              'atomic_thread_fence(memory_order_seq_cst))',
}


ASSERT_OFF = """
/* bench-peers: asserts off (the condition is evaluated, its loads stay) */
#undef assert
#define assert(c) ((void)(c))
"""


def variant_source(prog, asserts=True):
    """The text of prog's source as its variant, with its sizes; without
    asserts if not ASSERTS."""
    with open(os.path.join(BENCHDIR, prog.path)) as f:
        text = f.read()
    for rx, rep in prog.subs:
        text, n = re.subn(rx, rep, text)
        if n == 0:
            raise SystemExit('peers.py: %s: no match for %s' % (prog.path, rx))
    for name, value in prog.sizes.items():
        text, n = re.subn(r'(?m)^(\s*#\s*define\s+%s)\b.*$' % name,
                          r'\g<1> %s' % value, text)
        if n == 0:
            raise SystemExit('peers.py: %s: no #define %s' % (prog.path, name))
    # GenMC declares __VERIFIER_assume(bool); a declaration with int is an
    # error there (tests/peers/README.md)
    text = re.sub(r'(?m)^\s*void\s+__VERIFIER_assume\s*\(\s*int\s*\)\s*;',
                  'extern void __VERIFIER_assume(_Bool);', text)
    prelude = '' if asserts else ASSERT_OFF
    if prog.variant != 'asis':
        text = re.sub(r'\batomic_load_explicit\s*\(', 'bench_load(', text)
        text = re.sub(r'\batomic_store_explicit\s*\(', 'bench_store(', text)
        fence = ', a seq_cst fence after every store' if prog.variant == 'fenced' else ''
        prelude += PRELUDE % (prog.variant, fence, STORE[prog.variant])
    includes = list(re.finditer(r'(?m)^\s*#\s*include\b.*$', text))
    at = includes[-1].end() if includes else 0
    return text[:at] + prelude + text[at:]


# -- runs ------------------------------------------------------------------
def child_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_cmd(cmd, timeout, env=None):
    """(rc, stdout, seconds, hang, cpu): cmd in its own session, killed
    with its whole group after timeout seconds; cpu: the user + system
    time of the processes it waited for (one run at a time)."""
    c0 = child_cpu()
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, start_new_session=True, env=env)
    ACTIVE.add(p.pid)
    try:
        out, _ = p.communicate(timeout=timeout)
        hang = False
    except subprocess.TimeoutExpired:
        killpg_quiet(p.pid)
        out, _ = p.communicate()
        hang = True
    finally:
        ACTIVE.discard(p.pid)
    secs = time.monotonic() - t0
    return p.returncode, out.decode('utf-8', 'replace'), secs, hang, child_cpu() - c0


class Run:
    """One checker's run: result ok|bug|timeout|fail, executions (None if
    unknown), seconds."""

    def __init__(self, result, executions, seconds, detail='', cpu=None):
        self.result, self.executions, self.seconds = result, executions, seconds
        self.detail, self.cpu = detail, cpu

    def done(self):
        return self.result in ('ok', 'bug')


class Bench:
    def __init__(self, a):
        self.a = a
        self.work = a.work or tempfile.mkdtemp(prefix='x86smc-bench-peers.')
        os.makedirs(self.work, exist_ok=True)
        self.x86 = os.path.join(self.work, 'x86smc')
        shutil.copy2(a.x86smc, self.x86)   # not half-linked by a make meanwhile
        self.odd = []
        self.stub = os.path.join(self.work, 'verifier_stub.c')
        svcomp_build.write_stub(self.stub, set())

    def build(self, prog, asserts=True):
        name = prog.name + ('' if asserts else '-noassert')
        src = os.path.join(self.work, name + '.c')
        with open(src, 'w') as f:
            f.write(variant_source(prog, asserts))
        binary = os.path.join(self.work, name)
        r = subprocess.run(['gcc', '-O1', '-g', '-pthread', '-w', '-o', binary,
                            src, self.stub], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise SystemExit('peers.py: gcc failed on %s:\n%s' % (src, r.stdout.decode()))
        return src, binary

    def best(self, fn, *args):
        """fn(*args), run once more if it took under --repeat-under seconds
        (the machine is shared: the least wall and CPU times); a second count
        that differs is noted."""
        r = fn(*args)
        if r.done() and r.seconds < self.a.repeat_under:
            r2 = fn(*args)
            if r2.result != r.result or r2.executions != r.executions:
                self.odd.append('%s: two runs differ: %s %s / %s %s' % (
                    ' '.join(map(str, args)), r.result, r.executions,
                    r2.result, r2.executions))
            else:
                # each the least of the two (the other load comes and goes)
                r.seconds = min(r.seconds, r2.seconds)
                if r.cpu is not None and r2.cpu is not None:
                    r.cpu = min(r.cpu, r2.cpu)
        return r

    def x86smc(self, binary, model, keep_going, env=None):
        a = self.a
        j = binary + '.%s%s%s.json' % (model, '.k' if keep_going else '',
                                       '.nocs' if env else '')
        if os.path.exists(j):
            os.unlink(j)
        cmd = ['taskset', '-c', str(a.cpu), self.x86, '--model', model,
               '--json', j, '--timeout', str(a.timeout)]
        if keep_going:
            # a full exploration against the peers': the search alone, not
            # the PCT samples the default runs beside it (docs/EXPLORATION.md)
            cmd += ['--keep-going', '--no-samples']
        rc, _, secs, hang, cpu = run_cmd(cmd + [binary], a.timeout + 30, env=env)
        try:
            with open(j) as f:
                js = json.load(f)
        except (OSError, ValueError):
            return Run('timeout' if hang else 'fail', None, secs, 'rc %s' % rc, cpu)
        if js['errors']:
            res = 'bug'
        elif js['complete'] and rc == 0:
            res = 'ok'
        else:
            res = 'timeout' if hang or rc == 3 else 'fail'
        full = js['complete'] and (keep_going or not js['errors'])
        return Run(res, js['executions'] if full or res == 'bug' else None, secs,
                   'elapsed %.2f s, cpu %.2f s' % (js.get('elapsed_s', 0), cpu), cpu)

    def peer(self, src, peer, model, keep_going=False):
        a = self.a
        env = dict(os.environ, PEER_QUIET='1', PEER_TIMEOUT=str(a.timeout),
                   PEER_CPU=str(a.cpu))
        cmd = ['bash', RUNPEER, peer, model, src] + (['--keep-going'] if keep_going else [])
        rc, out, secs, hang, cpu = run_cmd(cmd, a.timeout + 30, env=env)
        if peer == 'genmc':
            self.genmc_litter()
        f = dict(x.split('=', 1) for x in out.split() if '=' in x)
        ex = f.get('executions', '-')
        ex = int(ex) if ex.isdigit() else None
        res = {'ok': 'ok', 'error': 'bug'}.get(f.get('result'), 'fail')
        if f.get('timeout') == '1' or hang:
            res = 'timeout'
        try:
            secs = float(f['seconds'])
        except (KeyError, ValueError):
            pass
        return Run(res, ex, secs, out.strip() + ' cpu=%.2f' % cpu, cpu)

    def genmc_litter(self):
        """GenMC v0.11 leaves its LLVM IR in /tmp/__genmc.ll.XXXXXX (a fixed
        template, TMPDIR is not read): remove the files of our sources."""
        for name in os.listdir('/tmp'):
            if not name.startswith('__genmc.ll.'):
                continue
            path = os.path.join('/tmp', name)
            try:
                with open(path, errors='replace') as f:
                    head = f.readline()
                if self.work in head:
                    os.unlink(path)
            except OSError:
                pass

    def runs(self, prog, model, peers, asserts):
        """The peers' runs and x86smc's on prog under model: full
        explorations (x86smc --keep-going) unless a peer found a bug, then
        x86smc's time to the first bug (default options)."""
        src, binary = self.build(prog, asserts)
        r = {}
        if 'genmc' in peers and model != 'pso' and 'genmc' not in prog.skip:
            r['genmc'] = self.best(self.peer, src, 'genmc', model)
        if 'nidhugg' in peers and 'nidhugg' not in prog.skip:
            r['nidhugg'] = self.best(self.peer, src, 'nidhugg', model)
        bug = any(x.result == 'bug' for x in r.values())
        r['x86smc'] = self.best(self.x86smc, binary, model, not bug)
        if asserts and not bug and r['x86smc'].result == 'bug':
            # x86smc alone found one: its time to the first bug
            r['x86smc'] = self.best(self.x86smc, binary, model, False)
        return r

    def row(self, prog, model, peers):
        r = self.runs(prog, model, peers, True)
        bug = any(x.result == 'bug' for x in r.values())
        row = dict(prog=prog, model=model, runs=r, bug=bug, full=r)
        if bug and model in prog.nocount:
            row['full'] = {'x86smc': Run('too large', None, 0)}
        elif bug:
            # the counts compared: the whole exploration of the program with
            # its asserts off (where an execution ends at a failed assert
            # differs between the checkers: x86smc's abort ends the process)
            row['full'] = self.runs(prog, model, peers, False)
        # a count that differs from a peer's: again without counted spins
        # (each iteration of a loop that gives up an event, as the peers
        # count them; docs/EXPLORATION.md, "Counted spins")
        f = row['full']
        x = f.get('x86smc')
        if x is not None and x.done() and x.executions is not None and any(
                k in f and f[k].done() and f[k].executions not in (None, x.executions)
                for k, _ in TOOLS[1:]):
            src, binary = self.build(prog, not bug)
            row['nocs'] = self.x86smc(binary, model, True, env=dict(
                os.environ, X86SMC_NO_COUNTED_SPINS='1'))
        if bug:
            if self.a.keep_going_bugs:
                src, binary = self.build(prog)
                row['kg'] = {'x86smc': self.x86smc(binary, model, True)}
                if 'nidhugg' in r:
                    row['kg']['nidhugg'] = self.peer(src, 'nidhugg', model, True)
        return row


# -- the table -------------------------------------------------------------
def fmt_n(run, full=True):
    if run is None:
        return ''
    if run.executions is None:
        return run.result
    s = '{:,}'.format(run.executions)
    return s if full else '(%s)' % s


def fmt_s(run):
    """wall seconds (CPU seconds)"""
    if run is None:
        return ''
    if not run.done():
        return run.result
    if run.cpu is None:
        return '%.2f' % run.seconds
    return '%.2f (%.2f)' % (run.seconds, run.cpu)


def ratio(a, b, cpu=False):
    if a is None or b is None or not a.done() or not b.done():
        return None
    if cpu:
        if a.cpu is None or b.cpu is None:
            return None
        return a.cpu / max(b.cpu, 1e-3)
    return a.seconds / max(b.seconds, 1e-3)


def fmt_r(a, b):
    w, c = ratio(a, b), ratio(a, b, True)
    if w is None:
        return ''
    return '%.1fx (%.1fx)' % (w, c) if c is not None else '%.1fx' % w


TOOLS = (('x86smc', 'x86smc'), ('genmc', 'GenMC'), ('nidhugg', 'Nidhugg'))


def verdict(row):
    """ok, bug, or the tools' verdicts where they disagree."""
    res = {name: row['runs'][k].result for k, name in TOOLS if k in row['runs']}
    done = {v for v in res.values() if v in ('ok', 'bug')}
    if len(done) == 1 and all(v in done for v in res.values()):
        return done.pop(), False
    return ', '.join('%s %s' % (n, v) for n, v in res.items()), len(done) > 1


def counts_cell(row):
    """'=' when the full explorations' counts agree, 'DIFF PEER' where one
    differs from x86smc's, 'known' where that difference is documented;
    and the notes."""
    f, model, prog = row['full'], row['model'], row['prog']
    x = f['x86smc']
    if not x.done() or x.executions is None:
        return '', []
    diffs, notes, same = [], [], 0
    for k, name in TOOLS[1:]:
        run = f.get(k)
        if run is None or not run.done() or run.executions is None:
            continue
        if run.executions == x.executions:
            same += 1
            continue
        known = prog.known.get('%s %s' % (k, model))
        nocs = row.get('nocs')
        if not known and nocs is not None and nocs.executions == run.executions:
            known = 'counted spins: %s executions without them (X86SMC_NO_COUNTED_SPINS=1)' % (
                '{:,}'.format(nocs.executions))
        if known:
            notes.append('%s: %s' % (name, known))
        else:
            diffs.append(name)
    if diffs:
        return 'DIFF ' + '/'.join(diffs), notes
    return ('known' if notes else '=' if same else ''), notes


def geomean(v):
    return math.exp(sum(map(math.log, v)) / len(v))


def table(rows, peers):
    out = []
    if peers:
        head = ['program', 'model', 'result', 'x86smc execs', 'GenMC execs',
                'Nidhugg execs', 'counts', 'x86smc s', 'GenMC s', 'Nidhugg s',
                'x86smc/GenMC', 'x86smc/Nidhugg', 'x86smc full s']
    else:
        head = ['program', 'model', 'result', 'x86smc execs', 'x86smc s',
                'x86smc full s']
    out.append('| ' + ' | '.join(head) + ' |')
    out.append('| --- | --- | --- |' + ' ---: |' * (len(head) - 3))
    gm = {(p, c): {'all': [], 'full': [], 'bug': []}
          for p in ('genmc', 'nidhugg') for c in (False, True)}
    notes = []
    for row in rows:
        r, f, prog, model = row['runs'], row['full'], row['prog'], row['model']
        name = prog.name + (' \\*' if row['bug'] else '')
        res, split = verdict(row)
        if split:
            notes.append('%s %s: VERDICTS DIFFER: %s' % (prog.name, model, res))
        x = r['x86smc']
        if not peers:
            out.append('| %s | %s | %s | %s | %s | %s |' % (
                name, model, res, fmt_n(f['x86smc']), fmt_s(x), fmt_s(f['x86smc'])))
            continue
        cell, why = counts_cell(row)
        for peer, w in sorted(prog.skip.items()):
            notes.append('%s %s: %s not run: %s' % (prog.name, model, peer, w))
        for w in why:
            notes.append('%s %s: %s' % (prog.name, model, w))
        if 'kg' in row:
            notes.append('%s %s: --keep-going with the asserts: %s' % (
                prog.name, model, ', '.join('%s %s' % (dict(TOOLS)[k], fmt_n(v))
                                            for k, v in row['kg'].items())))
        g, n = r.get('genmc'), r.get('nidhugg')
        kind = 'bug' if row['bug'] else 'full'
        for cpu in (False, True):
            # over the rows every built peer finished
            rs = {p: ratio(x, r.get(p), cpu) for p in peers}
            if all(v is not None for v in rs.values()):
                for peer, v in rs.items():
                    gm[peer, cpu]['all'].append(v)
                    gm[peer, cpu][kind].append(v)
        out.append('| %s |' % ' | '.join([
            name, model, res, fmt_n(f['x86smc']),
            fmt_n(f['genmc']) if 'genmc' in f else '' if 'genmc' in r else 'n/a',
            fmt_n(f['nidhugg']) if 'nidhugg' in f else '' if 'nidhugg' in r else 'n/a', cell,
            fmt_s(x), fmt_s(g) if g else 'n/a', fmt_s(n) if n else 'n/a',
            fmt_r(x, g), fmt_r(x, n), fmt_s(f['x86smc'])]))
    if peers:
        out.append('')
        for peer, label in TOOLS[1:]:
            if peer not in peers:
                continue
            for cpu in (False, True):
                v = gm[peer, cpu]
                parts = ['%.1fx on %s (%d rows)' % (geomean(v[kind]), what, len(v[kind]))
                         for kind, what in (('all', 'all rows'),
                                            ('full', 'full explorations'),
                                            ('bug', 'the time to the first bug'))
                         if v[kind]]
                out.append('Geometric mean x86smc / %s, %s: %s.' % (
                    label, 'CPU time' if cpu else 'wall time', '; '.join(parts) or '-'))
    if notes:
        out.append('')
    for n in notes:
        out.append('- ' + n)
    return '\n'.join(out)


def legend(a, peers):
    return """\
Programs: Nidhugg's benchmarks (plain: relaxed loads and stores; fenced:
plus a seq_cst fence after each store; sizes in tests/bench/peers.py),
gcc -O1 for x86smc.  One CPU (taskset -c %d), timeout %d s.  Seconds:
wall time until exit (the peers' clang front end included), in
parentheses the CPU time (user + system of every process of the run: on
one CPU the wall time of an idle machine, and what the machine's other
load does not change); runs under %g s done twice, the least kept.
execs: complete executions of the whole exploration (x86smc --keep-going,
dpor).  \\* = a bug row: the checkers found an assertion failure; its
execs are those of the same program with its asserts off (each checker
ends a failing execution its own way), its seconds the time to the first
bug with default options (x86smc without --keep-going, fence check
included; GenMC and Nidhugg stop at the first error).  counts: = equal,
DIFF a count differs from x86smc's (a potential x86smc bug), known: a
peer models the program differently (notes).  x86smc full s: x86smc's
whole exploration.  Peers: %s.""" % (a.cpu, a.timeout, a.repeat_under,
                                     ', '.join(peers) or 'none')


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--quick', action='store_true', help='only %s' % ','.join(QUICK))
    ap.add_argument('--programs', help='comma-separated names (default: all): %s' %
                    ','.join(p.name for p in PROGRAMS))
    ap.add_argument('--models', default='sc,tso',
                    help='comma-separated, of sc,tso,pso (default sc,tso); each '
                    'program runs under the ones it lists')
    ap.add_argument('--timeout', type=int, default=120,
                    help='seconds per checker run (default 120)')
    ap.add_argument('--cpu', type=int, default=(os.cpu_count() or 1) - 1,
                    help='CPU every run is pinned to (default the last one)')
    ap.add_argument('--x86smc', default=os.environ.get('X86SMC', os.path.join(ROOT, 'x86smc')))
    ap.add_argument('--work', help='work folder (default: a new one in $TMPDIR, removed)')
    ap.add_argument('--json', metavar='FILE', help='also write every run as JSON')
    ap.add_argument('--repeat-under', type=float, default=10, metavar='S',
                    help='run again what took under S seconds, keep the faster '
                    '(default 10; 0: never)')
    ap.add_argument('--keep-going-bugs', action='store_true',
                    help='on bug rows also x86smc and Nidhugg --keep-going on the '
                    'program with its asserts (counts in the notes)')
    ap.add_argument('-v', '--verbose', action='store_true', help='print each run as it ends')
    a = ap.parse_args()
    if not os.access(a.x86smc, os.X_OK):
        ap.error('%s: not found (make first, or --x86smc PATH)' % a.x86smc)
    if not os.path.isdir(BENCHDIR):
        print('peers.py: no %s: Nidhugg\'s benchmark programs come with its source '
              '(make bench-peers BUILD_PEERS=1, or tests/peers/build-nidhugg.sh)' % BENCHDIR)
        print()
        print(QUOTED)
        return 0
    models = [m for m in a.models.split(',') if m]
    for m in models:
        if m not in ('sc', 'tso', 'pso'):
            ap.error('unknown model %s' % m)
    names = QUICK if a.quick else (a.programs.split(',') if a.programs else None)
    progs = PROGRAMS if names is None else []
    for nm in names or []:
        p = [q for q in PROGRAMS if q.name == nm]
        if not p:
            ap.error('unknown program %s' % nm)
        progs += p
    peers, missing = [], []
    for peer, path in (('genmc', os.environ.get('GENMC', os.path.join(
            CACHE, 'genmc-v0.11.0', 'genmc'))), ('nidhugg', os.environ.get(
            'NIDHUGGC', os.path.join(CACHE, 'nidhugg-0.4', 'src', 'nidhuggc')))):
        (peers if os.access(path, os.X_OK) else missing).append(peer)
        if peer in missing:
            print('peers.py: %s is not built (%s; tests/peers/README.md, or make '
                  'bench-peers BUILD_PEERS=1)' % (peer, path))
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    b = Bench(a)
    rows = []
    try:
        for p in progs:
            for m in p.models:
                if m not in models:
                    continue
                row = b.row(p, m, peers)
                rows.append(row)
                if a.verbose:
                    for part in ('runs', 'full', 'kg'):
                        for k, v in (row.get(part) or {}).items():
                            if part == 'full' and not row['bug']:
                                continue
                            sys.stderr.write('%-16s %-4s %-5s %-8s %-7s %s %.2f s  %s\n' % (
                                p.name, m, part, k, v.result, v.executions, v.seconds,
                                v.detail.splitlines()[-1] if v.detail else ''))
                    sys.stderr.flush()
    finally:
        if not a.work:
            shutil.rmtree(b.work, ignore_errors=True)
    print(legend(a, peers))
    print()
    print(table(rows, peers))
    for o in b.odd:
        print('- ' + o)
    if missing:
        print()
        print(QUOTED)
    if a.json:
        with open(a.json, 'w') as f:
            json.dump([{'program': r['prog'].name, 'model': r['model'], 'bug': r['bug'],
                        'runs': {k: vars(v) for k, v in r['runs'].items()},
                        'full': {k: vars(v) for k, v in r['full'].items()}}
                       for r in rows], f, indent=1)
    return 0


if __name__ == '__main__':
    sys.exit(main())
