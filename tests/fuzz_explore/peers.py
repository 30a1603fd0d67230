#!/usr/bin/env python3
"""peers.py -- x86smc against GenMC and Nidhugg on random C11 programs (issue 23).

    python3 tests/fuzz_explore/peers.py --count 100          # make fuzz-peers N=100
    python3 tests/fuzz_explore/peers.py --seeds 7,9 -v       # show every run's line
    python3 tests/fuzz_explore/peers.py --show 7             # print program 7
    python3 tests/fuzz_explore/peers.py --minimize 7 --kind count --model sc

Each program uses only what the three checkers model the same way (README.md,
"fuzz-peers"): int-size C11 atomics, pthread_create/join of every thread,
one mutex, fences, branches and small loops on loaded values, assert.  It is
compiled with gcc (-O0; -O1 when seed = 3 mod 4) for x86smc and by each
peer's own clang, and explored by x86smc (dpor) under sc, tso and pso, by
GenMC v0.11 under sc and tso and by Nidhugg 0.4 under sc, tso and pso
(tests/peers/run-peer.sh).  Per model, the complete-execution counts, the
outcome sets (the one line main prints) and the verdict (assertion failed
or not) must be equal.  Exit status 1 if any program disagreed, 2 if a peer
is missing.
"""
import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import gen  # noqa: E402  (units/delete: the minimiser's tree operations)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'peers'))
from sessions import ACTIVE, killpg_quiet, on_signal  # noqa: E402  (tests/peers/sessions.py)

RUNPEER = os.path.join(ROOT, 'tests', 'peers', 'run-peer.sh')
# (checker, model) runs per program; x86smc is compared with each peer
# under the same model.
PEER_RUNS = [('genmc', 'sc'), ('genmc', 'tso'), ('nidhugg', 'sc'),
             ('nidhugg', 'tso'), ('nidhugg', 'pso')]
MODELS = ['sc', 'tso', 'pso']
VARS = ['X', 'Y', 'Z', 'W']
# The fixed set `--quick` (make check) runs, about a minute in all.
QUICK_SEEDS = [1, 2, 7, 9, 15, 18, 19]
# Findings that do not fail the run: a run that could not finish says
# nothing about the others; Nidhugg --pso above x86smc with the same
# outcomes is Nidhugg's (docs/TESTING.md).
LESSER = {'peer-unknown', 'x86smc-incomplete', 'nidhugg-pso-above',
          'nidhugg-tso-above-pso'}


# -- generator -------------------------------------------------------------
class PGen:
    """One random program as a tree gen.units/gen.delete understand:
    prog = {threads: [{idx, stmts, nregs}], main: {stmts, nregs}, ...};
    a statement node = {id, kind (op|if|mutex|loop), text, deps, pinned,
    body, els}."""

    def __init__(self, seed, asserts=0.25, fenceless=None):
        self.seed = seed
        self.r = random.Random(seed * 104729 + 3)
        # half of the programs have no seq_cst store and no mutex, so that
        # GenMC --tso can be compared (genmc_tso_differs); drawn apart so
        # that the other programs stay what they were
        if fenceless is None:
            fenceless = random.Random(seed * 31 + 7).random() < 0.5
        self.fenceless = fenceless
        self.nid = 0
        self.nstore = 0
        self.stored = {}
        self.asserts = asserts
        self.features = set()
        self.mutex = False

    def node(self, kind, text='', **kw):
        self.nid += 1
        n = {'id': self.nid, 'kind': kind, 'text': text, 'deps': [],
             'pinned': False}
        n.update(kw)
        return n

    def mo(self, kind):
        # every order gcc and the peers' clang map alike on x86 (README)
        r = self.r
        if kind == 'load':
            return r.choice(['relaxed', 'relaxed', 'acquire', 'seq_cst'])
        if kind == 'store':
            o = r.choice(['relaxed', 'relaxed', 'release', 'seq_cst'])
            return 'release' if o == 'seq_cst' and self.fenceless else o
        return r.choice(['relaxed', 'seq_cst'])

    def value(self, v):
        self.nstore = self.nstore % 15 + 1
        self.stored.setdefault(v, []).append(self.nstore)
        return self.nstore

    def possible(self, v):
        return [0] + self.stored.get(v, [])

    def reg(self, th):
        if th['nregs'] >= 4:
            return None
        th['nregs'] += 1
        return 'r%d' % (th['nregs'] - 1)

    def op(self, th, depth=0):
        r = self.r
        kinds = [('load', 4), ('store', 4), ('fadd', 1), ('xchg', 1),
                 ('cas', 1)]
        if depth == 0:
            kinds += [('fence', 0.6), ('mutex', 0.6), ('branch', 1),
                      ('loop', 0.4)]
        for _ in range(20):
            k = r.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
            n = self.make(th, k, depth)
            if n:
                return n
        return None

    def make(self, th, k, depth):
        r = self.r
        v = r.choice(self.vars)
        # A failed compare-exchange writes on x86 (lock cmpxchg always
        # stores), in LLVM's cmpxchg it only reads: counts differ when it
        # meets another read (README.md).  So the CAS variable is read
        # (load or CAS) by one thread only: others may only write it.
        if k == 'cas':
            if self.casvar is None or self.casowner != th['idx']:
                return None
            v = self.casvar
        elif k == 'load' and v == self.casvar and th['idx'] != self.casowner:
            return None
        if k == 'load':
            reg = self.reg(th)
            if not reg:
                return None
            th['regvar'][reg] = v
            return self.node('op', '%s = atomic_load_explicit(&%s, memory_order_%s);'
                             % (reg, v, self.mo('load')))
        if k == 'store':
            return self.node('op', 'atomic_store_explicit(&%s, %d, memory_order_%s);'
                             % (v, self.value(v), self.mo('store')))
        if k in ('fadd', 'xchg', 'cas'):
            reg = self.reg(th)
            if not reg:
                return None
            th['regvar'][reg] = v
            o = self.mo('rmw')
            self.features.add('rmw')
            if k == 'fadd':
                return self.node('op', '%s = atomic_fetch_add_explicit(&%s, %d, memory_order_%s);'
                                 % (reg, v, r.randint(1, 2), o))
            if k == 'xchg':
                return self.node('op', '%s = atomic_exchange_explicit(&%s, %d, memory_order_%s);'
                                 % (reg, v, self.value(v), o))
            exp = r.choice(self.possible(v))
            return self.node('op', '{ int e = %d; int ok = atomic_compare_exchange_strong_explicit('
                             '&%s, &e, %d, memory_order_%s, memory_order_%s); %s = e * 2 + ok; }'
                             % (exp, v, self.value(v), o, o, reg))
        if k == 'fence':
            self.features.add('fence')
            return self.node('op', 'atomic_thread_fence(memory_order_seq_cst);')
        if k == 'mutex':
            body = [b for b in (self.op(th, depth + 1)
                                for _ in range(r.randint(1, 2))) if b]
            if not body:
                return None
            if self.fenceless:
                return self.node('block', body=body)
            self.mutex = True
            self.features.add('mutex')
            return self.node('mutex', body=body)
        if k == 'branch':
            regs = [x for x in th['regvar']]
            if not regs:
                return None
            reg = r.choice(regs)
            c = r.choice(self.possible(th['regvar'][reg]))
            body = [b for b in [self.op(th, depth + 1)] if b]
            els = [b for b in ([self.op(th, depth + 1)] if r.random() < 0.5
                               else []) if b]
            if not body and not els:
                return None
            self.features.add('branch')
            return self.node('if', cond='%s == %d' % (reg, c), body=body,
                             els=els)
        if k == 'loop':
            body = [b for b in (self.op(th, depth + 1)
                                for _ in range(r.randint(1, 2))) if b]
            if not body:
                return None
            self.features.add('loop')
            return self.node('loop', cond='2', body=body)
        raise ValueError(k)

    def generate(self):
        r = self.r
        self.vars = VARS[:r.randint(2, 4)]
        nthreads = r.choice([2, 2, 2, 3])
        # the CAS variable and its only reader (main is thread 0)
        self.casvar = self.casowner = None
        if r.random() < 0.5:
            self.casvar = r.choice(self.vars)
            self.casowner = r.randint(1, nthreads)
        sizes = [1, 2, 2, 3, 3, 4] if nthreads == 2 else [1, 2, 2, 3]
        threads = []
        for i in range(1, nthreads + 1):
            th = dict(idx=i, stmts=[], nregs=0, regvar={})
            for _ in range(r.choice(sizes)):
                n = self.op(th)
                if n:
                    th['stmts'].append(n)
            threads.append(th)
        main = dict(idx=0, stmts=[], nregs=0, regvar={})
        # main's accesses between the creates and the joins (issue 23)
        if r.random() < 0.5:
            for _ in range(r.choice([1, 1, 2])):
                n = self.op(main, depth=1)
                if n:
                    main['stmts'].append(n)
        if r.random() < self.asserts:
            cands = [(t, reg) for t in threads for reg in t['regvar']]
            if cands:
                t, reg = r.choice(cands)
                vals = self.possible(t['regvar'][reg])
                c = r.choice(vals[1:] if len(vals) > 1 else vals)
                pos = [i for i, n in enumerate(t['stmts']) if reg + ' ' in n['text']
                       or reg + ' ' in json.dumps(n)]
                at = r.randint(max(pos) + 1 if pos else len(t['stmts']),
                               len(t['stmts']))
                t['stmts'].insert(at, self.node('op', 'assert(%s != %d);'
                                                % (reg, c)))
                self.features.add('assert')
        if main['stmts']:
            self.features.add('main_ops')
        if self.fenceless:
            self.features.add('fenceless')
        return dict(seed=self.seed, cls='peers', vars=self.vars,
                    mutex=self.mutex, features=sorted(self.features),
                    join=r.sample(range(1, nthreads + 1), nthreads),
                    main=dict(stmts=main['stmts'], nregs=main['nregs']),
                    threads=[dict(idx=t['idx'], stmts=t['stmts'],
                                  nregs=t['nregs']) for t in threads])


def render_stmts(stmts, ind):
    out = []
    tab = '\t' * ind
    for n in stmts:
        k = n['kind']
        if k == 'op':
            out.append(tab + n['text'])
        elif k == 'block':
            out += render_stmts(n['body'], ind)
        elif k == 'mutex':
            out.append(tab + 'pthread_mutex_lock(&M);')
            out += render_stmts(n['body'], ind)
            out.append(tab + 'pthread_mutex_unlock(&M);')
        elif k == 'if':
            out.append(tab + 'if (%s) {' % n['cond'])
            out += render_stmts(n['body'], ind + 1)
            if n.get('els'):
                out.append(tab + '} else {')
                out += render_stmts(n['els'], ind + 1)
            out.append(tab + '}')
        elif k == 'loop':
            out.append(tab + 'for (int i = 0; i < %s; i++) {' % n['cond'])
            out += render_stmts(n['body'], ind + 1)
            out.append(tab + '}')
    return out


def render(prog, comment=None):
    L = []
    if comment:
        L.append('/*')
        for line in comment.rstrip('\n').split('\n'):
            L.append(' * ' + line if line else ' *')
        L.append(' */')
    L.append('/* x86smc fuzz-peers program: seed %d, features: %s */'
             % (prog['seed'], ' '.join(prog['features']) or '-'))
    L += ['#include <assert.h>', '#include <pthread.h>',
          '#include <stdatomic.h>', '#include <stdio.h>', '',
          '/* four observations of a thread, 16 bits each, as its return value */',
          '#define PACK(a, b, c, d) ((void *)((long)(a) | (long)(b) << 16 | '
          '(long)(c) << 32 | (long)(d) << 48))',
          '#define UNP(p, k) ((int)(((long)(p) >> (16 * (k))) & 0xffff))', '']
    used = set(re.findall(r'&([XYZW])\b', json.dumps(prog)))
    for v in prog['vars']:
        if v in used:
            L.append('static atomic_int %s;' % v)
    if prog['mutex'] and 'mutex' in json.dumps([t['stmts'] for t in prog['threads']] +
                                               [prog['main']['stmts']]):
        L.append('static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;')
    L.append('')
    for th in prog['threads']:
        L.append('static void *t%d(void *arg)' % th['idx'])
        L.append('{')
        L.append('\tint r0 = 0, r1 = 0, r2 = 0, r3 = 0;')
        L.append('')
        L.append('\t(void)arg;')
        L += render_stmts(th['stmts'], 1)
        L.append('\treturn PACK(r0, r1, r2, r3);')
        L.append('}')
        L.append('')
    L.append('int main(void)')
    L.append('{')
    L.append('\tpthread_t th[4];')
    L.append('\tvoid *ret[4] = { 0 };')
    L.append('\tint r0 = 0, r1 = 0, r2 = 0, r3 = 0;')
    L.append('')
    present = {t['idx']: t for t in prog['threads']}
    for i in sorted(present):
        L.append('\tpthread_create(&th[%d], NULL, t%d, NULL);' % (i, i))
    L += render_stmts(prog['main']['stmts'], 1)
    fmt = ['OUT m:' + ','.join(['%d'] * prog['main']['nregs'])]
    args = ['r%d' % k for k in range(prog['main']['nregs'])]
    for i in prog['join']:
        if i not in present:
            continue
        L.append('\tpthread_join(th[%d], &ret[%d]);' % (i, i))
        n = present[i]['nregs']
        fmt.append('t%d:' % i + ','.join(['%d'] * n))
        args += ['UNP(ret[%d], %d)' % (i, k) for k in range(n)]
    L.append('\tprintf("%s\\n"%s);' % (' '.join(fmt), ''.join(', ' + a for a in args)))
    L.append('\t(void)r0; (void)r1; (void)r2; (void)r3;')
    L.append('\treturn 0;')
    L.append('}')
    return '\n'.join(L) + '\n'


def nidhugg_tso_bug(prog):
    """True if prog has the shape Nidhugg 0.4 --tso explores wrongly: a
    store that is not seq_cst in one thread and an exchange, a fetch-add or
    a seq_cst store to the same variable in another (README.md: Nidhugg
    loses executions where the latter comes first)."""
    stores, rmws = {}, {}
    for t in prog['threads'] + [dict(prog['main'], idx=0)]:
        for n in gen.walk(t['stmts']):
            for v, mo in re.findall(r'atomic_store_explicit\(&(\w+), \d+, memory_order_(\w+)\)',
                                    n['text']):
                (rmws if mo == 'seq_cst' else stores).setdefault(v, set()).add(t['idx'])
            for v in re.findall(r'atomic_(?:exchange|fetch_add)_explicit\(&(\w+),', n['text']):
                rmws.setdefault(v, set()).add(t['idx'])
    return any(a != b for v in rmws for a in rmws[v] for b in stores.get(v, ()))


def genmc_tso_differs(prog):
    """True if prog locks the mutex or has a seq_cst store: GenMC's --tso
    lets a later load pass either, where the x86 binary has a full fence
    (README.md).  GenMC takes an unlock for a release store that does not
    drain the store buffer, glibc's x86 unlock is a locked instruction
    (t1: lock; X = 1; unlock; r1 = Y; t2: Y = 1; fence; r2 = X: r1 = r2 = 0
    under GenMC --tso only); and it compiles a seq_cst store as a plain
    store (the fence before seq_cst loads instead), gcc and clang as xchg
    (t1: X = 1 seq_cst; r1 = Y relaxed; t2 the mirror: r1 = r2 = 0 under
    GenMC --tso only).  And a thread that stores and compare-exchanges:
    GenMC's failed CAS is a plain read that does not drain the buffer,
    x86's lock cmpxchg is a full fence even when it fails (t1: Y = 1;
    cas(X, 42, 7) fails; t2: X = 1; fence; r2 = Y: r1 = r2 = 0 under GenMC
    --tso only, 4 executions against x86smc's and Nidhugg's 3; seed
    1697)."""
    for t in prog['threads'] + [prog['main']]:
        store = cas = False
        for n in gen.walk(t['stmts']):
            if n['kind'] == 'mutex' or re.search(
                    r'atomic_store_explicit\([^;]*memory_order_seq_cst\)', n['text']):
                return True
            store |= 'atomic_store_explicit' in n['text']
            cas |= 'atomic_compare_exchange' in n['text']
        if store and cas:
            return True
    return False


def generate(seed, asserts=0.25, fenceless=None):
    return json.loads(json.dumps(PGen(seed, asserts, fenceless).generate()))


NIDHUGG_MSG = re.compile(r'(?:(?:Assume-blocked |Await-blocked |Sleepset-blocked )?[Tt]race '
                         r'count|Total wall-clock time): [^\n]*\n|No errors were detected\.\n'
                         r'|WARNING: [^\n]*\n')


def peer_paths():
    """Where run-peer.sh looks for the peers."""
    cache = os.environ.get('X86SMC_PEERS_CACHE', '/work/.cache/x86smc-peers')
    return [os.environ.get('GENMC', os.path.join(cache, 'genmc-v0.11.0', 'genmc')),
            os.environ.get('NIDHUGGC', os.path.join(cache, 'nidhugg-0.4', 'src', 'nidhuggc'))]


# -- runs ------------------------------------------------------------------
def run_cmd(cmd, timeout, env=None, err=None):
    """(rc, stdout text, hang) of cmd in its own session; stderr to the
    file err (or nowhere)."""
    fe = open(err, 'wb') if err else subprocess.DEVNULL
    try:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=fe,
                             stdin=subprocess.DEVNULL, start_new_session=True,
                             env=env)
    finally:
        if err:
            fe.close()
    ACTIVE.add(p.pid)
    try:
        so, _ = p.communicate(timeout=timeout)
        hang = False
    except subprocess.TimeoutExpired:
        killpg_quiet(p.pid)
        so, _ = p.communicate()
        hang = True
    finally:
        ACTIVE.discard(p.pid)
    return p.returncode, so.decode('utf-8', 'replace'), hang


class Runner:
    def __init__(self, a):
        self.a = a
        self.work = os.path.join(a.out, 'work')
        os.makedirs(self.work, exist_ok=True)
        self.x86 = os.path.join(self.work, 'x86smc')
        tmp = self.x86 + '.tmp%d' % os.getpid()
        shutil.copy2(a.x86smc, tmp)
        os.replace(tmp, self.x86)

    def x86smc(self, binary, model, tag):
        a = self.a
        j = os.path.join(self.work, '%s-x86smc-%s.json' % (tag, model))
        if os.path.exists(j):
            os.unlink(j)
        cmd = [self.x86, '--model', model, '--keep-going', '--json', j,
               '--timeout', str(a.timeout), binary]
        rc, _, hang = run_cmd(cmd, a.timeout + 30, err=j + '.err')
        res = dict(tool='x86smc', model=model, rc=rc, hang=hang, cmd=' '.join(cmd))
        with open(j + '.err', errors='replace') as f:
            res['err'] = f.read()[-600:]
        try:
            with open(j) as f:
                js = json.load(f)
        except (OSError, ValueError):
            res.update(result='unknown', executions=None, outcomes=set())
            return res
        outs = {o['stdout'] for o in js['outcomes'] if o['status'] == 'exit 0'}
        res.update(executions=js['executions'], complete=js['complete'],
                   outcomes=outs, errors=sorted({e['kind'] for e in js['errors']}),
                   blocked=js.get('blocked_executions'))
        if js['errors']:
            res['result'] = 'error'
        elif js['complete'] and rc == 0:
            res['result'] = 'ok'
        else:
            res['result'] = 'unknown'
        return res

    def peer(self, src, peer, model, tag):
        a = self.a
        log = os.path.join(self.work, '%s-%s-%s.log' % (tag, peer, model))
        env = dict(os.environ, PEER_QUIET='1', PEER_LOG=log,
                   PEER_TIMEOUT=str(a.timeout))
        rc, so, hang = run_cmd(['bash', RUNPEER, peer, model, src], a.timeout + 30,
                               env=env)
        f = dict(x.split('=', 1) for x in so.split() if '=' in x)
        res = dict(tool=peer, model=model, rc=rc, hang=hang,
                   result=f.get('result', 'unknown'), line=so.strip(),
                   cmd='%s %s %s' % (RUNPEER, peer, model))
        ex = f.get('executions', '-')
        res['executions'] = int(ex) if ex.isdigit() else None
        res['blocked'] = f.get('blocked')
        try:
            with open(log, errors='replace') as fl:
                text = fl.read()
        except OSError:
            text = ''
        if peer == 'nidhugg':
            # the target's printf runs inside Nidhugg, into a stdout buffer
            # its own messages share (fflush is ignored): a message can land
            # in the middle of a line of the target's
            text = NIDHUGG_MSG.sub('', text)
        outs = set(re.findall(r'(?m)^OUT [^\n]*\n', text))
        res['outcomes'] = outs
        return res

    def program(self, prog, models=MODELS, peers=PEER_RUNS):
        a = self.a
        seed = prog['seed']
        opt = a.opt or ('-O1' if seed % 4 == 3 else '-O0')
        tag = 'p%d%s' % (seed, opt)
        src = os.path.join(self.work, tag + '.c')
        binary = os.path.join(self.work, tag)
        with open(src, 'w') as f:
            f.write(render(prog))
        r = subprocess.run(['gcc', opt, '-g', '-pthread', '-o', binary, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise RuntimeError('gcc failed on %s:\n%s' % (src, r.stdout.decode()))
        runs = {}
        for m in models:
            runs[('x86smc', m)] = self.x86smc(binary, m, tag)
        for p, m in peers:
            if m in models:
                runs[(p, m)] = self.peer(src, p, m, tag)
        skip = set()
        if nidhugg_tso_bug(prog):
            skip.add(('nidhugg', 'tso'))
        if genmc_tso_differs(prog):
            skip.add(('genmc', 'tso'))
        return dict(seed=seed, prog=prog, opt=opt, src=src, runs=runs,
                    skip=skip, findings=check(runs, skip))


def fmt_set(s):
    return '{' + ', '.join(repr(x.strip()) for x in sorted(s)) + '}'


def check(runs, skip=()):
    """Findings [(model, kind, detail)]: x86smc against each peer, and
    x86smc's own sc within tso within pso.  A (peer, model) in skip is a
    shape where that peer is known to differ in one direction (README.md),
    compared one way only: GenMC --tso allows more (x86smc's outcomes must
    be among its own, an error x86smc finds GenMC must find), Nidhugg
    --tso loses executions (its outcomes must be among x86smc's)."""
    F = []
    for (tool, m), x in runs.items():
        if tool != 'x86smc':
            continue
        if x['hang'] or x['rc'] is None or x['rc'] < 0 or x['rc'] > 3 or x['rc'] == 2:
            F.append((m, 'x86smc-failed', 'exit %s%s: %s: %s' % (
                x['rc'], ' (hang)' if x['hang'] else '', x['cmd'],
                x.get('err', '').strip()[-300:])))
            continue
        if x['result'] == 'unknown':
            F.append((m, 'x86smc-incomplete', 'x86smc did not finish (exit %s)' % x['rc']))
            continue
        for (ptool, pm), p in runs.items():
            if ptool == 'x86smc' or pm != m:
                continue
            if p['result'] == 'unknown':
                F.append((m, 'peer-unknown', '%s: %s' % (ptool, p['line'] or 'exit %s' % p['rc'])))
                continue
            if (ptool, pm) in skip:
                more = ptool == 'genmc'     # GenMC --tso: more; Nidhugg --tso: fewer
                big, small = (p, x) if more else (x, p)
                if small['result'] == 'error' and big['result'] != 'error':
                    # Nidhugg --tso reports an error its own --pso (which
                    # allows every tso execution and more) does not find:
                    # its tso is wrong on this shape, not x86smc
                    own_pso = runs.get(('nidhugg', 'pso'))
                    if not more and own_pso and own_pso['result'] == 'ok':
                        F.append((m, 'nidhugg-tso-above-pso', 'nidhugg --tso error, '
                                  'its --pso ok, x86smc ok'))
                        continue
                    F.append((m, 'verdict', '%s %s, x86smc %s (%s; one-sided)' % (
                        ptool, p['result'], x['result'], ','.join(x['errors']))))
                elif small['result'] != 'error' and big['result'] != 'error' and \
                        small['outcomes'] - big['outcomes']:
                    F.append((m, 'outcomes', '%s lacks %s (one-sided: %s)' % (
                        ptool if more else 'x86smc',
                        fmt_set(small['outcomes'] - big['outcomes']),
                        'the peer allows more' if more else 'the peer loses executions')))
                continue
            if p['result'] != x['result']:
                F.append((m, 'verdict', '%s %s, x86smc %s (%s)' % (
                    ptool, p['result'], x['result'], ','.join(x['errors']))))
                continue
            if x['result'] == 'error':
                continue   # the peers stop at the first error: no counts
            if p['outcomes'] != x['outcomes']:
                F.append((m, 'outcomes', '%s only: %s; x86smc only: %s' % (
                    ptool, fmt_set(p['outcomes'] - x['outcomes']),
                    fmt_set(x['outcomes'] - p['outcomes']))))
            if p['executions'] != x['executions']:
                # Nidhugg --pso explores more than one trace of some
                # reads-from/coherence classes (README.md: three cases
                # counted by hand); fewer executions with the same outcomes
                # is that, not a lost class, unless shown otherwise
                kind = 'count'
                if (ptool, m) == ('nidhugg', 'pso') and p['outcomes'] == x['outcomes'] \
                        and p['executions'] is not None and p['executions'] > x['executions']:
                    kind = 'nidhugg-pso-above'
                F.append((m, kind, '%s %s, x86smc %s complete executions' % (
                    ptool, p['executions'], x['executions'])))
    # x86smc's own models: what sc allows, tso allows, and so pso
    for lo, hi in (('sc', 'tso'), ('tso', 'pso'), ('sc', 'pso')):
        a, b = runs.get(('x86smc', lo)), runs.get(('x86smc', hi))
        if a and b and a['result'] != 'unknown' and b['result'] != 'unknown' and \
                a['outcomes'] - b['outcomes'] and b.get('complete'):
            F.append((hi, 'model-inclusion', 'x86smc %s outcomes %s missing under %s' % (
                lo, fmt_set(a['outcomes'] - b['outcomes']), hi)))
    return F


def short(res):
    parts = []
    for m in MODELS:
        cells = []
        for tool in ('x86smc', 'genmc', 'nidhugg'):
            r = res['runs'].get((tool, m))
            if not r:
                continue
            v = r['executions'] if r['result'] == 'ok' else r['result']
            cells.append('%s=%s%s' % (tool[0], v, '(skip)' if (tool, m) in res['skip'] else ''))
        if cells:
            parts.append('%s %s' % (m, ' '.join(cells)))
    return ' | '.join(parts)


def save(a, res):
    d = os.path.join(a.out, 'seed%d%s' % (res['seed'], res['opt']))
    os.makedirs(d, exist_ok=True)
    shutil.copy2(res['src'], os.path.join(d, 'prog.c'))
    with open(os.path.join(d, 'prog.json'), 'w') as f:
        json.dump(res['prog'], f, indent=1)
    with open(os.path.join(d, 'findings.txt'), 'w') as f:
        f.write('seed %d, gcc %s -g -pthread\n\n' % (res['seed'], res['opt']))
        for m, k, det in res['findings']:
            f.write('%s %s: %s\n' % (m, k, det))
        for (tool, m), r in sorted(res['runs'].items()):
            f.write('\n== %s %s: result %s, executions %s, blocked %s, exit %s\n%s\n' % (
                tool, m, r['result'], r['executions'], r.get('blocked'), r['rc'], r['cmd']))
            f.write('outcomes: %s\n' % fmt_set(r['outcomes']))
    return d


# -- driver ----------------------------------------------------------------
def parse_seeds(s):
    if '..' in s:
        lo, hi = s.split('..')
        return list(range(int(lo), int(hi) + 1))
    return [int(x) for x in s.split(',')]


def fuzz(a, rn):
    seeds = list(range(a.start, a.start + a.count)) if a.count is not None \
        else parse_seeds(a.seeds)
    t0 = time.time()
    n = 0
    agree = {m: 0 for m in a.models}
    compared = {m: 0 for m in a.models}
    counts = {}
    bad = []
    nskip = nskip_g = 0
    for seed in seeds:
        prog = generate(seed, a.asserts, a.fenceless)
        try:
            res = rn.program(prog, a.models)
        except RuntimeError as ex:
            print('seed %d: %s' % (seed, ex), flush=True)
            counts['gcc'] = counts.get('gcc', 0) + 1
            continue
        n += 1
        for m in a.models:
            serious = [f for f in res['findings'] if f[0] == m and f[1] not in LESSER]
            used = [r for (t, mm), r in res['runs'].items()
                    if mm == m and (t, mm) not in res['skip']]
            decided = len(used) > 1 and all(r['result'] != 'unknown' for r in used)
            if decided:
                compared[m] += 1
                if not serious:
                    agree[m] += 1
        for m, k, _ in res['findings']:
            counts[k] = counts.get(k, 0) + 1
        nskip += ('nidhugg', 'tso') in res['skip']
        nskip_g += ('genmc', 'tso') in res['skip']
        print('seed %d %s %s: %s' % (seed, res['opt'], ','.join(prog['features']) or '-',
                                    short(res)), flush=True)
        if res['findings']:
            d = save(a, res)
            for m, k, det in res['findings']:
                print('    %s %s: %s' % (m, k, det[:300]), flush=True)
            print('    -> %s' % d, flush=True)
            if any(k not in LESSER for _, k, _ in res['findings']):
                bad.append(seed)
    print('summary: %d programs, %.0f s' % (n, time.time() - t0))
    print('  compared (x86smc and at least one peer, all finished) / agreed: %s' % ', '.join(
        '%s %d/%d' % (m, agree[m], compared[m]) for m in a.models))
    print('  not compared: nidhugg --tso (its store/read-modify-write shape) %d programs, '
          'genmc --tso (mutex, seq_cst store, or store + CAS in a thread) %d programs' % (nskip, nskip_g))
    serious = {k: v for k, v in counts.items() if k not in LESSER}
    lesser = {k: v for k, v in counts.items() if k in LESSER}
    print('  mismatches by kind (model-runs): %s' % (
        ', '.join('%s %d' % kv for kv in sorted(serious.items())) or 'none'))
    print('  lesser (not failures): %s' % (
        ', '.join('%s %d' % kv for kv in sorted(lesser.items())) or 'none'))
    if bad:
        print('  seeds with mismatches: %s  (details under %s)' % (
            ' '.join(map(str, bad)), a.out))
    return 1 if bad else 0


def minimize(a, rn):
    if a.prog:
        with open(a.prog) as f:
            prog = json.load(f)
    else:
        prog = generate(a.minimize, a.asserts, a.fenceless)
    models = [a.model] if a.model else a.models
    res = rn.program(prog, models)
    target = None
    for m, k, _ in res['findings']:
        if k not in LESSER and (a.kind is None or k == a.kind):
            target = (m, k)
            break
    print('seed %d: findings %s' % (prog['seed'], [(m, k) for m, k, _ in res['findings']]))
    if not target:
        print('nothing to minimise')
        return 1
    m, k = target
    print('minimising %s under %s' % (k, m))
    tries = [0]

    def still(p):
        tries[0] += 1
        try:
            r = rn.program(p, [m])
        except RuntimeError:
            return None
        return r if any(f[0] == m and f[1] == k for f in r['findings']) else None

    best, last = prog, res
    changed = True
    while changed:
        changed = False
        chunk = max(1, len(gen.units(best)) // 2)
        while chunk >= 1:
            i = 0
            us = gen.units(best)
            while i < len(us):
                cand = gen.delete(best, us[i:i + chunk])
                r = still(cand) if cand is not None else None
                if r:
                    best, last, changed = cand, r, True
                    us = gen.units(best)
                    print('  %d units left (try %d)' % (len(us), tries[0]), flush=True)
                else:
                    i += chunk
            chunk //= 2
    det = [d for mm, kk, d in last['findings'] if mm == m and kk == k]
    note = ('fuzz-peers seed %d (%s), minimised by peers.py --minimize\n%s under %s: %s\n'
            % (prog['seed'], last['opt'], k, m, det[0] if det else ''))
    text = render(best, comment=note)
    path = os.path.join(a.out, 'min-peers%d-%s-%s.c' % (prog['seed'], m, k))
    with open(path, 'w') as f:
        f.write(text)
    with open(path[:-2] + '.json', 'w') as f:
        json.dump(best, f, indent=1)
    sys.stdout.write(text)
    print('// written to %s (%d tries)' % (path, tries[0]))
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', default='0..19', help='A..B or A,B,C (default 0..19)')
    ap.add_argument('--count', type=int, metavar='N', help='N programs from --start')
    ap.add_argument('--start', type=int, default=0)
    ap.add_argument('--models', default='sc,tso,pso')
    ap.add_argument('--timeout', type=int, default=60,
                    help='seconds per checker run (default 60)')
    ap.add_argument('--asserts', type=float, default=0.25,
                    help='share of programs with an assert (default 0.25)')
    ap.add_argument('--no-fenceless', dest='fenceless', action='store_const',
                    const=False, default=None,
                    help='no program made free of seq_cst stores and mutexes (the '
                    'generator as campaign A of docs/TESTING.md ran it)')
    ap.add_argument('--opt', choices=['-O0', '-O1', '-O2'],
                    help='gcc optimisation (default -O1 for seeds = 3 mod 4, else -O0)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'fuzz-peers'))
    ap.add_argument('--x86smc', default=os.environ.get('X86SMC', os.path.join(ROOT, 'x86smc')))
    ap.add_argument('--quick', action='store_true',
                    help='the fixed seeds make check runs; not installed peers: '
                    'a message and exit 0')
    ap.add_argument('--show', type=int, metavar='SEED', help='print program SEED and exit')
    ap.add_argument('--minimize', type=int, metavar='SEED')
    ap.add_argument('--prog', metavar='PROG.JSON', help='with --minimize: this saved tree')
    ap.add_argument('--model', help='with --minimize: the model')
    ap.add_argument('--kind', help='with --minimize: the finding kind (count, outcomes, verdict)')
    a = ap.parse_args()
    if a.show is not None:
        sys.stdout.write(render(generate(a.show, a.asserts, a.fenceless)))
        return 0
    a.models = [m for m in a.models.split(',') if m]
    for m in a.models:
        if m not in MODELS:
            ap.error('unknown model %s' % m)
    if not os.access(a.x86smc, os.X_OK):
        ap.error('%s: not found (make first, or --x86smc PATH)' % a.x86smc)
    missing = [p for p in peer_paths() if not os.access(p, os.X_OK)]
    if missing:
        print('peers.py: not installed: %s (tests/peers/README.md: '
              'tests/peers/build-genmc.sh, build-nidhugg.sh)%s' % (
                  ', '.join(missing), '; skipped' if a.quick else ''))
        return 0 if a.quick else 2
    if a.quick:
        a.seeds = ','.join(map(str, QUICK_SEEDS))
        a.count = None
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, on_signal)
    rn = Runner(a)
    if a.minimize is not None or a.prog:
        return minimize(a, rn)
    return fuzz(a, rn)


if __name__ == '__main__':
    sys.exit(main())
