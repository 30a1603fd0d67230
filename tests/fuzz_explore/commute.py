#!/usr/bin/env python3
"""Differential fuzzing of the locked adds that commute (src/tracer/commute.c,
docs/EXPLORATION.md "Locked adds that commute").

Each seed is a random C program of 2 to 4 threads over one or two shared
counters: reference-count drops tested for zero (`lock sub; je`), blind adds
(`lock add`, result unused), fetch_sub compared with 1, increments tested for
sign or against a bound, xadds whose old value is kept, loads and stores.  It
is explored twice under each model, with the classification (the default)
and without it (X86SMC_NO_COMMUTE=1).  A finding is a difference in the
outcome sets when both searches are complete, more executions with the
classification than without, or (sc, tso: Optimal-DPOR) more sleep-set
blocked ones.

    python3 tests/fuzz_explore/commute.py --x86smc ./x86smc --seeds 0..100
"""
import argparse
import json
import os
import random
import subprocess
import sys

MODELS = ('sc', 'tso', 'pso')


def program(seed):
    r = random.Random(seed)
    nt = r.randint(2, 3 if r.random() < 0.7 else 4)
    nc = r.randint(1, 2)
    L = ['#include <pthread.h>', '#include <stdio.h>',
         'long c[2]; int flag[4]; long seen[4][4];']
    for t in range(nt):
        body = []
        for o in range(r.randint(1, 3)):
            v, k, bit = r.randrange(nc), r.choice([1, 1, 1, 2]), 1 << o
            kind = r.choice(['drop', 'drop', 'blind', 'blind', 'last',
                             'sign', 'bound', 'load', 'store', 'xadd'])
            if kind == 'drop':
                s = 'if (__atomic_sub_fetch(&c[%d], %d, __ATOMIC_ACQ_REL) == 0) flag[%d] |= %d;' % (v, k, t, bit)
            elif kind == 'last':
                s = 'if (__atomic_fetch_sub(&c[%d], 1, __ATOMIC_ACQ_REL) != 1) flag[%d] |= %d;' % (v, t, bit)
            elif kind == 'blind':
                s = '__atomic_fetch_add(&c[%d], %d, __ATOMIC_RELAXED);' % (v, r.choice([1, -1, 2]))
            elif kind == 'sign':
                s = 'if (__atomic_add_fetch(&c[%d], 1, __ATOMIC_RELAXED) < 0) flag[%d] |= %d;' % (v, t, bit)
            elif kind == 'bound':
                s = 'if (__atomic_add_fetch(&c[%d], %d, __ATOMIC_RELAXED) > %d) flag[%d] |= %d;' % (
                    v, k, r.randint(0, 3), t, bit)
            elif kind == 'load':
                s = 'seen[%d][%d] = __atomic_load_n(&c[%d], __ATOMIC_ACQUIRE);' % (t, o, v)
            elif kind == 'store':
                s = '__atomic_store_n(&c[%d], %d, __ATOMIC_RELEASE);' % (v, r.randint(0, 3))
            else:
                s = 'seen[%d][%d] = __atomic_fetch_add(&c[%d], 1, __ATOMIC_ACQ_REL);' % (t, o, v)
            body.append(s)
        L.append('void *t%d(void *a) { %s return 0; }' % (t, ' '.join(body)))
    L.append('int main(void) { pthread_t h[4]; c[0] = %d; c[1] = %d;' % (r.randint(0, 4), r.randint(0, 4)))
    L += [' pthread_create(&h[%d], 0, t%d, 0);' % (t, t) for t in range(nt)]
    L.append(' for (int i = 0; i < %d; i++) pthread_join(h[i], 0);' % nt)
    L.append(' printf("%ld %ld", c[0], c[1]); for (int i = 0; i < 4; i++) printf(" %d", flag[i]);')
    L.append(' for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) printf(" %ld", seen[i][j]);')
    L.append(' printf("\\n"); return 0; }')
    return '\n'.join(L) + '\n'


def explore(x86smc, binary, model, commute, timeout):
    env = dict(os.environ)
    env.pop('X86SMC_NO_COMMUTE', None)
    if not commute:
        env['X86SMC_NO_COMMUTE'] = '1'
    p = subprocess.run(['timeout', str(timeout), x86smc, '--model', model,
                        '--json', '-', binary], capture_output=True, text=True, env=env)
    try:
        return json.loads(p.stdout)
    except ValueError:
        return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--x86smc', default='./x86smc')
    ap.add_argument('--seeds', default='0..50', help='A..B (B excluded)')
    ap.add_argument('--out', default='/tmp/x86smc-fuzz-commute')
    ap.add_argument('--timeout', type=int, default=30, help='seconds per search')
    ap.add_argument('--cc', default='gcc')
    ap.add_argument('--opt', default='-O2')
    a = ap.parse_args()
    lo, hi = map(int, a.seeds.split('..'))
    os.makedirs(a.out, exist_ok=True)
    findings = 0
    total = {True: 0, False: 0}
    for seed in range(lo, hi):
        src = os.path.join(a.out, 'c%d.c' % seed)
        binary = src[:-2]
        with open(src, 'w') as f:
            f.write(program(seed))
        subprocess.run([a.cc, a.opt, '-o', binary, src, '-lpthread'], check=True)
        for m in MODELS:
            run = {c: explore(a.x86smc, binary, m, c, a.timeout) for c in (True, False)}
            if not run[True] or not run[False]:
                print('%d %s: no result' % (seed, m), flush=True)
                findings += 1
                continue
            y, n = run[True], run[False]
            total[True] += y['executions']
            total[False] += n['executions']
            why = []
            out = lambda d: {o['stdout'] + o['status'] for o in d['outcomes']}
            if y['complete'] and n['complete'] and out(y) != out(n):
                why.append('outcomes: without only %s, with only %s' % (
                    sorted(out(n) - out(y)), sorted(out(y) - out(n))))
            if y['complete'] and n['complete'] and y['executions'] > n['executions']:
                why.append('%d executions, %d without' % (y['executions'], n['executions']))
            # Source-DPOR (pso) may end more executions sleep-set blocked
            # when more events commute; Optimal-DPOR (sc, tso) must not
            if m != 'pso' and (y.get('blocked_executions') or 0) > (n.get('blocked_executions') or 0):
                why.append('%d blocked, %d without' % (y['blocked_executions'],
                                                        n.get('blocked_executions') or 0))
            if why:
                findings += 1
                print('%d %s: %s' % (seed, m, '; '.join(why)), flush=True)
    print('seeds %s: %d findings; executions %d with commuting adds, %d without'
          % (a.seeds, findings, total[True], total[False]))
    return 1 if findings else 0


if __name__ == '__main__':
    sys.exit(main())
