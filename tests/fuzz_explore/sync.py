#!/usr/bin/env python3
"""sync.py -- differential fuzzing of the sync layer (src/tracer/sync.c).

    python3 tests/fuzz_explore/sync.py --seeds 0..199 [--models sc,tso]
        [--x86smc ./x86smc] [--out DIR] [--timeout 120] [--jobs 1] [--extra]
    python3 tests/fuzz_explore/sync.py --show 17          # print program 17

Each seed is a small random C program (random.Random(seed)): main creates
2 or 3 worker threads and joins them; each does 1-3 operations drawn from
mutex sections (lock; reads/writes of shared ints; unlock), trylock
sections (`if (pthread_mutex_trylock(&m) == 0) {...; unlock} else log 9`),
rwlock read and write sections, tryrdlock / trywrlock sections (else log
9), sem_post / sem_wait (semaphore initialised to 0 or 1), a nested
section now and then, and plain unprotected reads and writes.  At most 7
sync calls in all, 1-2 mutexes, 1 rwlock, 1 semaphore.  Every thread logs
what it read (and 1 / 9 for a try that succeeded / failed) into its own
row of lg[][]; main prints all rows and the shared ints in one line.
--extra adds pthread_mutex_timedlock, sem_trywait and sem_timedwait (a
deadline in 2096: a timeout is x86smc's choice on both sides); --no KIND,... leaves operations out (a
known finding's pattern, say), which changes the programs of all seeds.

Compiled with gcc -O0 -g -pthread (-O2 when seed = 2 mod 3).  Per model,
x86smc explores it with --sync calls (the default; the sync layer) and
with --sync instructions (glibc's own code, the oracle); the sets of
(stdout, status) outcomes must be equal.  Verdicts per seed and model:
  PASS        both complete, sets equal
  MISMATCH    both complete, sets differ; or calls lacks an outcome that
              an incomplete instructions search reached
  INCOMPLETE  the instructions search stopped early (calls has all its
              outcomes)
  ERROR       x86smc crashed, hung, gave no JSON, or exited with a status
              other than 0 (no error), 1 (error found), 3 (limit)
Under sc, --strategy source --sync calls must also give the default's set
(a difference is a MISMATCH too).  One line per seed and model, a summary;
exit status 1 if any MISMATCH or ERROR.  The C source of each MISMATCH is
written to OUT/mismatch-SEED.c; OUT (default build/fuzz-sync) keeps every
program and JSON summary under OUT/seedN/.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys

MAX_SYNC = 7


# ---------------------------------------------------------------- generator

class Gen:
    def __init__(self, seed, extra=False, no=()):
        self.r = random.Random(seed)
        self.extra = extra
        self.no = set(no)
        self.val = 0            # last value written (each write its own)
        self.used = set()       # 'm0', 'm1', 'rw', 'sem'
        self.sync = 0

    def newval(self):
        self.val += 1
        return self.val

    def access(self, t, slot, nx, read=True, write=True):
        """One plain access: read x[a] into the log, or write x[b]."""
        r = self.r
        kinds = (['r'] if read else []) + (['w'] if write else [])
        if r.choice(kinds) == 'r':
            return ['lg[%d][%d] = x[%d];' % (t, slot.take(), r.randrange(nx))], True
        return ['x[%d] = %d;' % (r.randrange(nx), self.newval())], False

    def body(self, t, slot, nx, readonly=False, needwrite=False):
        n = self.r.choice([1, 1, 2])
        out = []
        wrote = False
        for i in range(n):
            if needwrite and i == n - 1 and not wrote:
                s, _ = self.access(t, slot, nx, read=False)
            else:
                s, rd = self.access(t, slot, nx, write=not readonly)
                wrote |= not rd
            out += s
        return out

    def op(self, t, slot, nx, nm, budget):
        """(list of statements, sync calls it makes at most)."""
        r = self.r
        choices = [('plain', 3)]
        if budget >= 2:
            choices += [('mutex', 4), ('trylock', 4), ('rd', 3), ('wr', 3),
                        ('tryrd', 2), ('trywr', 2)]
        if budget >= 1:
            choices += [('post', 3), ('wait', 3)]
        if budget >= 4:
            choices += [('nested', 1)]
        if self.extra:
            if budget >= 2:
                choices += [('timedlock', 2)]
            if budget >= 1:
                choices += [('semtry', 2), ('semtimed', 2)]
        choices = [(k, w) for k, w in choices if k not in self.no]
        total = sum(w for _, w in choices)
        x = r.randrange(total)
        for kind, w in choices:
            if x < w:
                break
            x -= w
        m = 'm[%d]' % r.randrange(nm)
        if kind == 'plain':
            s, _ = self.access(t, slot, nx)
            return s, 0
        if kind == 'mutex':
            self.used.add(m)
            return (['pthread_mutex_lock(&%s);' % m] + self.body(t, slot, nx) +
                    ['pthread_mutex_unlock(&%s);' % m]), 2
        if kind in ('trylock', 'tryrd', 'trywr', 'timedlock'):
            k = slot.take()
            if kind == 'trylock':
                self.used.add(m)
                take, rel, b = 'pthread_mutex_trylock(&%s)' % m, 'pthread_mutex_unlock(&%s);' % m, self.body(t, slot, nx)
            elif kind == 'timedlock':
                self.used.add(m)
                self.used.add('ts')
                take, rel, b = 'pthread_mutex_timedlock(&%s, &ts)' % m, 'pthread_mutex_unlock(&%s);' % m, self.body(t, slot, nx)
            elif kind == 'tryrd':
                self.used.add('rw')
                take, rel, b = 'pthread_rwlock_tryrdlock(&rw)', 'pthread_rwlock_unlock(&rw);', self.body(t, slot, nx, readonly=True)
            else:
                self.used.add('rw')
                take, rel, b = 'pthread_rwlock_trywrlock(&rw)', 'pthread_rwlock_unlock(&rw);', self.body(t, slot, nx, needwrite=True)
            return (['if (%s == 0) {' % take, '\tlg[%d][%d] = 1;' % (t, k)] +
                    ['\t' + s for s in b] + ['\t' + rel,
                     '} else', '\tlg[%d][%d] = 9;' % (t, k)]), 2
        if kind == 'rd':
            self.used.add('rw')
            return (['pthread_rwlock_rdlock(&rw);'] + self.body(t, slot, nx, readonly=True) +
                    ['pthread_rwlock_unlock(&rw);']), 2
        if kind == 'wr':
            self.used.add('rw')
            return (['pthread_rwlock_wrlock(&rw);'] + self.body(t, slot, nx, needwrite=True) +
                    ['pthread_rwlock_unlock(&rw);']), 2
        if kind == 'post':
            self.used.add('sem')
            return ['sem_post(&s);'], 1
        if kind == 'wait':
            self.used.add('sem')
            return ['sem_wait(&s);'], 1
        if kind in ('semtry', 'semtimed'):
            self.used.add('sem')
            k = slot.take()
            if kind == 'semtimed':
                self.used.add('ts')
            call = 'sem_trywait(&s)' if kind == 'semtry' else 'sem_timedwait(&s, &ts)'
            return ['lg[%d][%d] = %s == 0 ? 1 : 9;' % (t, k, call)], 1
        # nested: an outer mutex or rwlock section around an inner mutex one
        outer = r.choice(['mutex', 'wr', 'rd']) if nm == 1 else r.choice(['mutex', 'mutex', 'wr', 'rd'])
        if outer == 'mutex':
            if nm < 2:
                outer = 'wr'
            else:
                self.used |= {'m[0]', 'm[1]'}
                a, b = r.sample([0, 1], 2)
                lk, ul = 'pthread_mutex_lock(&m[%d]);' % a, 'pthread_mutex_unlock(&m[%d]);' % a
                m = 'm[%d]' % b
        if outer in ('wr', 'rd'):
            self.used.add('rw')
            lk, ul = 'pthread_rwlock_%slock(&rw);' % outer, 'pthread_rwlock_unlock(&rw);'
        self.used.add(m)
        return ([lk] + self.body(t, slot, nx, readonly=outer == 'rd') +
                ['pthread_mutex_lock(&%s);' % m] + self.body(t, slot, nx) +
                ['pthread_mutex_unlock(&%s);' % m, ul]), 4


class Slot:
    def __init__(self):
        self.n = 0

    def take(self):
        self.n += 1
        return self.n - 1


def program(seed, extra=False, no=()):
    g = Gen(seed, extra, no)
    r = g.r
    nt = r.choice([2, 2, 3])
    nx = r.randint(1, 3)
    nm = r.choice([1, 1, 2])
    threads = []
    budget = MAX_SYNC
    for t in range(nt):
        slot = Slot()
        ops = []
        for _ in range(r.randint(1, 3)):
            s, n = g.op(t, slot, nx, nm, budget)
            budget -= n
            ops.append(s)
        threads.append([ops, slot])
    sem_init = r.choice([0, 1])
    # Keep the waits satisfiable in some order: as many posts as waits
    # beyond the initial value (turn the last waits into posts).
    waits = [(t, i) for t, (ops, _) in enumerate(threads)
             for i, o in enumerate(ops) if o == ['sem_wait(&s);']]
    posts = sum(1 for ops, _ in threads for o in ops if o == ['sem_post(&s);'])
    while len(waits) > sem_init + posts:
        t, i = waits.pop()
        threads[t][0][i] = ['sem_post(&s);']
        posts += 1
    L = ['#include <pthread.h>']
    if 'sem' in g.used:
        L.append('#include <semaphore.h>')
    L.append('#include <stdio.h>')
    if 'ts' in g.used:
        L.append('#include <time.h>')
    L.append('')
    L.append('int x[%d];' % nx)
    width = max(1, max(sl.n for _, sl in threads))
    L.append('int lg[%d][%d];' % (nt, width))
    ms = sorted(m for m in g.used if m.startswith('m['))
    if ms:
        L.append('pthread_mutex_t m[%d] = {%s};' % (
            nm, ', '.join(['PTHREAD_MUTEX_INITIALIZER'] * nm)))
    if 'rw' in g.used:
        L.append('pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;')
    if 'sem' in g.used:
        L.append('sem_t s;')
    if 'ts' in g.used:
        L.append('struct timespec ts = { 4000000000 }; /* 2096: x86smc may time out any wait */')
    L.append('')
    for t, (ops, _) in enumerate(threads):
        L.append('void *t%d(void *a)' % t)
        L.append('{')
        for o in ops:
            L += ['\t' + s for s in o]
        L.append('\treturn a;')
        L.append('}')
        L.append('')
    L.append('int main(void)')
    L.append('{')
    L.append('\tpthread_t h[%d];' % nt)
    if 'sem' in g.used:
        L.append('\tsem_init(&s, 0, %d);' % sem_init)
    for t in range(nt):
        L.append('\tpthread_create(&h[%d], 0, t%d, 0);' % (t, t))
    L.append('\tfor (int i = 0; i < %d; i++)' % nt)
    L.append('\t\tpthread_join(h[i], 0);')
    fmt, args = [], []
    for t, (_, sl) in enumerate(threads):
        fmt.append('t%d:' % t + ','.join(['%d'] * sl.n))
        args += ['lg[%d][%d]' % (t, k) for k in range(sl.n)]
    fmt.append('x:' + ','.join(['%d'] * nx))
    args += ['x[%d]' % k for k in range(nx)]
    L.append('\tprintf("%s\\n", %s);' % (' '.join(fmt), ', '.join(args)))
    L.append('\treturn 0;')
    L.append('}')
    return '\n'.join(L) + '\n'


# ------------------------------------------------------------------- runner

def explore(x86smc, prog, model, sync, strategy, timeout, jfile):
    cmd = [x86smc, '--model', model, '--keep-going', '--fence-check', 'off',
           '--no-samples', '--timeout', str(timeout), '--json', jfile]
    if sync != 'calls':
        cmd += ['--sync', sync]
    if strategy:
        cmd += ['--strategy', strategy]
    cmd.append(prog)
    if os.path.exists(jfile):
        os.unlink(jfile)
    try:
        p = subprocess.run(['timeout', '-k', '10', str(timeout + 60)] + cmd,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, errors='replace')
    except OSError as e:
        return {'error': str(e), 'cmd': cmd}
    res = {'cmd': cmd, 'rc': p.returncode}
    if p.returncode not in (0, 1, 3):
        res['error'] = 'exit status %d%s: %s' % (
            p.returncode, ' (hung)' if p.returncode in (124, 137) else '',
            p.stderr.strip().splitlines()[-1] if p.stderr.strip() else '')
        return res
    try:
        with open(jfile) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        res['error'] = 'no JSON summary (%s)' % e
        return res
    res['complete'] = bool(d.get('complete'))
    res['executions'] = d.get('executions')
    res['outcomes'] = {(o['stdout'], o['status']) for o in d.get('outcomes', [])}
    res['errors'] = sorted({e.get('kind', '?') for e in d.get('errors', [])})
    return res


def fmt_out(o):
    return '%r %s' % (o[0].rstrip('\n'), o[1])


def compare(a, b, na, nb):
    """Lines describing what each side lacks."""
    lines = []
    for o in sorted(b['outcomes'] - a['outcomes']):
        lines.append('    %s lacks: %s' % (na, fmt_out(o)))
    for o in sorted(a['outcomes'] - b['outcomes']):
        lines.append('    %s lacks: %s' % (nb, fmt_out(o)))
    return lines


def check_seed(seed, args):
    src = program(seed, args.extra, args.no)
    d = os.path.join(args.out, 'seed%d' % seed)
    os.makedirs(d, exist_ok=True)
    cfile, prog = os.path.join(d, 'prog.c'), os.path.join(d, 'prog')
    with open(cfile, 'w') as f:
        f.write(src)
    opt = '-O2' if seed % 3 == 2 else '-O0'
    p = subprocess.run(['gcc', opt, '-g', '-pthread', '-o', prog, cfile],
                       capture_output=True, text=True)
    if p.returncode != 0:
        return [(seed, m, 'ERROR', ['    gcc failed: ' + p.stderr.strip()]) for m in args.models]
    results = []
    for model in args.models:
        J = lambda tag: os.path.join(d, '%s-%s.json' % (model, tag))
        calls = explore(args.x86smc, prog, model, 'calls', None, args.timeout, J('calls'))
        instr = explore(args.x86smc, prog, model, 'instructions', None, args.timeout, J('instr'))
        src_r = None
        if model == 'sc':
            src_r = explore(args.x86smc, prog, model, 'calls', 'source', args.timeout, J('source'))
        notes, verdict = [], None
        errs = [(n, r) for n, r in (('calls', calls), ('instructions', instr), ('source', src_r))
                if r is not None and 'error' in r]
        if errs:
            verdict = 'ERROR'
            for n, r in errs:
                notes.append('    %s: %s' % (n, r['error']))
                notes.append('      ' + ' '.join(r['cmd']))
        else:
            info = '%s calls %d%s, instructions %d%s' % (
                opt, calls['executions'], '' if calls['complete'] else '+',
                instr['executions'], '' if instr['complete'] else '+')
            if src_r is not None:
                info += ', source %d%s' % (src_r['executions'], '' if src_r['complete'] else '+')
            bad = False
            if calls['complete'] and instr['complete']:
                if calls['outcomes'] != instr['outcomes']:
                    bad = True
                    notes += compare(calls, instr, 'calls', 'instructions')
                verdict_ok = 'PASS'
            else:
                verdict_ok = 'INCOMPLETE'
                if not calls['complete'] and not instr['complete']:
                    notes.append('    both incomplete, not compared')
                elif not instr['complete']:
                    miss = instr['outcomes'] - calls['outcomes']
                    if miss:
                        bad = True
                        notes += ['    calls lacks: %s' % fmt_out(o) for o in sorted(miss)]
                else:
                    miss = calls['outcomes'] - instr['outcomes']
                    if miss:
                        bad = True
                        notes += ['    instructions lacks: %s' % fmt_out(o) for o in sorted(miss)]
            if src_r is not None:
                if calls['complete'] and src_r['complete']:
                    if calls['outcomes'] != src_r['outcomes']:
                        bad = True
                        notes += compare(calls, src_r, 'calls(dpor)', 'calls(source)')
                elif src_r['complete'] or calls['complete']:
                    c, i = (src_r, calls) if src_r['complete'] else (calls, src_r)
                    if i['outcomes'] - c['outcomes']:
                        bad = True
                        notes += compare(c, i, 'complete', 'incomplete')
            verdict = 'MISMATCH' if bad else verdict_ok
            notes.insert(0, '    (' + info + ')')
        results.append((seed, model, verdict, notes))
    if any(v == 'MISMATCH' for _, _, v, _ in results):
        with open(os.path.join(args.out, 'mismatch-%d.c' % seed), 'w') as f:
            f.write('/* sync.py seed %d, gcc %s -g -pthread */\n' % (seed, opt) + src)
    return results


def seed_list(spec):
    out = []
    for part in spec.split(','):
        if '..' in part:
            a, b = part.split('..')
            out += range(int(a), int(b) + 1)
        elif part:
            out.append(int(part))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seeds', default='0..19', help='A..B or a list (A..B inclusive)')
    ap.add_argument('--models', default='sc,tso')
    ap.add_argument('--x86smc', default=os.environ.get('X86SMC', './x86smc'))
    ap.add_argument('--out', default='build/fuzz-sync')
    ap.add_argument('--timeout', type=int, default=120, help='seconds per search')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--extra', action='store_true',
                    help='also timedlock, sem_trywait, sem_timedwait')
    ap.add_argument('--no', default='', metavar='KIND,...',
                    help='leave out operations: plain mutex trylock rd wr tryrd trywr '
                         'post wait nested (--extra: timedlock semtry semtimed)')
    ap.add_argument('-v', '--verbose', action='store_true', help='notes for PASS too')
    ap.add_argument('--show', type=int, metavar='SEED', help='print the program and exit')
    args = ap.parse_args()
    if args.show is not None:
        sys.stdout.write(program(args.show, args.extra, args.no))
        return 0
    args.no = [k for k in args.no.split(',') if k]
    args.models = [m for m in args.models.split(',') if m]
    os.makedirs(args.out, exist_ok=True)
    # a private copy: a rebuild during the run cannot give a half-linked binary
    x = os.path.join(args.out, 'x86smc')
    shutil.copy2(args.x86smc, x)
    args.x86smc = os.path.abspath(x)
    seeds = seed_list(args.seeds)
    counts = {'PASS': 0, 'MISMATCH': 0, 'INCOMPLETE': 0, 'ERROR': 0}
    bad_seeds = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as ex:
        for res in ex.map(lambda s: check_seed(s, args), seeds):
            for seed, model, verdict, notes in res:
                counts[verdict] += 1
                print('seed %d %s %s%s' % (seed, model, verdict,
                      '' if not notes else ' ' + notes[0].strip()), flush=True)
                if verdict != 'PASS' or args.verbose:
                    for n in notes[1:]:
                        print(n, flush=True)
                if verdict in ('MISMATCH', 'ERROR'):
                    bad_seeds.append('%d/%s' % (seed, model))
    print('summary: %d seeds x %s: %s' % (
        len(seeds), ','.join(args.models),
        ', '.join('%s %d' % kv for kv in counts.items())))
    if bad_seeds:
        print('bad: ' + ' '.join(bad_seeds))
    return 1 if counts['MISMATCH'] or counts['ERROR'] else 0


if __name__ == '__main__':
    sys.exit(main())
