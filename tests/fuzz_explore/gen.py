#!/usr/bin/env python3
"""gen.py -- random small C pthread programs for the differential fuzzer.

    python3 tests/fuzz_explore/gen.py SEED [--class plain|corners|all]
                                           [--no CORNER,...] [--json]

prints one C program, the same for the same seed and options (random.Random
seeded with the seed; no other input).  Each program is main + 2-3 threads
doing a handful of shared operations on 2-4 shared variables of mixed sizes,
and prints what its threads observed in one line at the end (README.md).

The program is kept as a tree (a dict that json can store): the driver's
minimizer deletes statements from it and renders it again (units, delete).
"""
import argparse
import copy
import json
import random
import sys

TYPES = {'char': 1, 'short': 2, 'int': 4, 'long': 8}

# Corner features (class "corners"), each switchable; KNOWN: wrong before 857a208
# (issue 15); the driver labels programs using them.
CORNERS = ['syswrite', 'sysread', 'printf_s', 'escape_local', 'escape_tls',
           'crash_ptr', 'crash_cond', 'exit_thread', 'assert']
KNOWN = {
    'syswrite': 'race through a syscall on user memory (write of a shared buffer)',
    'sysread': 'race through a syscall on user memory (read into a shared buffer; pipe read after fork snapshots)',
    'printf_s': 'printf("%s") of a shared buffer',
}

# How main ends: (name, weight).
ENDS = [('join_all', 6), ('join_some', 1), ('detach_return', 1),
        ('detach_pexit', 1), ('early_return', 1), ('main_pexit', 1)]

PRELUDE = r'''#include <assert.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* An observation, folded to 16 bits (exact below 65521), and four of them
 * packed in a thread's return value. */
#define FOLD(v) ((unsigned long)(v) % 65521UL)
#define PACK(a, b, c, d) ((void *)(FOLD(a) | FOLD(b) << 16 | FOLD(c) << 32 | FOLD(d) << 48))
#define UNP(p, k) (((unsigned long)(p) >> (16 * (k))) & 0xffff)

/* A thread that main does not join prints its own line, formatted on its
 * stack (no shared memory touched) and written with one write(2). */
static __attribute__((noinline, unused)) void report(int t, long a, long b, long c, long d, int n)
{
	char buf[96];
	long v[4] = { a, b, c, d };
	int len = 0;

	buf[len++] = 't';
	buf[len++] = (char)('0' + t);
	buf[len++] = ':';
	for (int i = 0; i < n; i++) {
		unsigned long x = FOLD(v[i]);
		char tmp[8];
		int k = 0;

		do {
			tmp[k++] = (char)('0' + x % 10);
			x /= 10;
		} while (x);
		while (k)
			buf[len++] = tmp[--k];
		if (i + 1 < n)
			buf[len++] = ',';
	}
	buf[len++] = '\n';
	if (write(1, buf, (size_t)len) < 0)
		_exit(97);
}
'''


def pattern(k, size):
    """The value of store number k (1..15) of `size` bytes: byte j is
    k + 16j, so that a load overlapping several stores shows whose bytes
    it got."""
    v = 0
    for j in range(size):
        v |= ((k + 16 * j) & 0x7f) << (8 * j)
    return v


def cval(v, t):
    return '%d' % v if t != 'long' else '%dL' % v


class Gen:
    def __init__(self, seed, cls='all', disabled=(), pso_locs=4, size='mixed'):
        self.seed = seed
        self.rng = random.Random(seed * 7919 + 17)
        if cls == 'all':
            cls = 'plain' if self.rng.random() < 0.5 else 'corners'
        self.cls = cls
        # small programs (2 threads x 1-2 operations, all joined): exhaustive
        # can finish on them; drawn apart so other seeds stay the same
        if size == 'mixed':
            self.small = random.Random(seed * 31 + 5).random() < 0.35
        else:
            self.small = size == 'small'
        self.corners = [c for c in CORNERS if c not in disabled]
        self.pso_locs = pso_locs
        self.nid = 0
        self.nstore = 0
        self.globals = []
        self.setup = []
        self.lvs = []          # shared lvalues the ops use
        self.stored = {}       # lvalue expr -> values stored to it
        self.features = set()

    # -- nodes ---------------------------------------------------------
    def node(self, kind, text='', **kw):
        self.nid += 1
        n = {'id': self.nid, 'kind': kind, 'text': text, 'deps': [],
             'pinned': False}
        n.update(kw)
        return n

    # -- shared variables ----------------------------------------------
    def make_vars(self):
        r = self.rng
        nvars = r.randint(2, 4)
        kinds = ['scalar', 'scalar', 'struct', 'union']
        names = iter(['X', 'Y', 'Z', 'W'])
        have = set()
        for _ in range(nvars):
            k = r.choice(kinds)
            if k in have and k != 'scalar':
                k = 'scalar'
            have.add(k)
            if k == 'scalar':
                name = next(names)
                t = r.choice(list(TYPES))
                self.globals.append('static volatile %s %s;' % (t, name))
                self.lvs.append(dict(e=name, t=t, base=name, off=0,
                                     size=TYPES[t]))
                if TYPES[t] > 1 and r.random() < 0.3:
                    off = r.randrange(TYPES[t])
                    self.lvs.append(dict(
                        e='((volatile char *)&%s)[%d]' % (name, off),
                        t='char', base=name, off=off, size=1))
                    self.features.add('charview')
            elif k == 'struct':
                self.globals.append(
                    'static struct { volatile char a; volatile short b; '
                    'volatile int c; volatile long d; } S;')
                fields = [('S.a', 'char', 0), ('S.b', 'short', 2),
                          ('S.c', 'int', 4), ('S.d', 'long', 8)]
                for e, t, off in r.sample(fields, r.randint(2, 3)):
                    self.lvs.append(dict(e=e, t=t, base='S', off=off,
                                         size=TYPES[t]))
                self.features.add('struct')
            else:
                self.globals.append(
                    'static union { volatile long l; volatile int i[2]; '
                    'volatile short s[4]; volatile char c[8]; } U;')
                paths = [('U.l', 'long', 0)]
                paths += [('U.i[%d]' % j, 'int', 4 * j) for j in range(2)]
                paths += [('U.s[%d]' % j, 'short', 2 * j) for j in range(4)]
                paths += [('U.c[%d]' % j, 'char', j) for j in range(8)]
                first = r.choice(paths)
                chosen = [first]
                want = r.randint(2, 3)
                tries = 0
                while len(chosen) < want and tries < 50:
                    tries += 1
                    p = r.choice(paths)
                    if p in chosen:
                        continue
                    ov = (p[2] < first[2] + TYPES[first[1]] and
                          first[2] < p[2] + TYPES[p[1]])
                    if ov or r.random() < 0.2:
                        chosen.append(p)
                for e, t, off in chosen:
                    self.lvs.append(dict(e=e, t=t, base='U', off=off,
                                         size=TYPES[t]))
                self.features.add('union')

    def new_value(self, lv):
        self.nstore = self.nstore % 15 + 1
        v = pattern(self.nstore, lv['size'])
        self.stored.setdefault(lv['e'], []).append(v)
        return v

    def possible(self, lv):
        """Values a load of lv may plausibly give (for branch constants)."""
        vals = [0] + self.stored.get(lv['e'], [])
        for o in self.lvs:     # a wider or narrower overlapping store
            if o['base'] == lv['base'] and o['e'] != lv['e']:
                for v in self.stored.get(o['e'], []):
                    sh = 8 * (lv['off'] - o['off'])
                    if sh >= 0:
                        vals.append((v >> sh) & ((1 << 8 * lv['size']) - 1))
        return vals

    # -- thread bodies -------------------------------------------------
    def store_lv(self, th):
        """An lvalue to store to, keeping the thread's stored locations
        within pso_locs (PSO: one buffer per location)."""
        lv = self.rng.choice(self.lvs)
        key = (lv['base'], lv['off'])
        if key not in th['locs'] and len(th['locs']) >= self.pso_locs:
            cands = [l for l in self.lvs if (l['base'], l['off']) in th['locs']]
            if not cands:
                return None
            lv = self.rng.choice(cands)
            key = (lv['base'], lv['off'])
        th['locs'].add(key)
        return lv

    def reg(self, th, lv):
        if th['nregs'] >= th['maxregs']:
            return None
        k = th['nregs']
        th['nregs'] += 1
        th['reglv'][k] = lv
        return 'r%d' % k

    def ord_(self):
        return self.rng.choice(['__ATOMIC_RELAXED', '__ATOMIC_SEQ_CST'])

    def op(self, th, depth=0, simple=False):
        """One operation node for thread th (None if none fits)."""
        r = self.rng
        kinds = [('load', 3), ('store', 3), ('xchg', 1), ('fadd', 1),
                 ('cas', 1), ('aload', 1), ('astore', 1)]
        if not simple:
            kinds += [('fence', 0.6), ('yield', 0.4)]
            if depth == 0:
                kinds += [('mutex', 0.5), ('branch', 1.2)]
        for _ in range(20):
            kind = r.choices([k for k, _ in kinds],
                             [w for _, w in kinds])[0]
            n = self.make_op(th, kind, depth)
            if n:
                return n
        return None

    def make_op(self, th, kind, depth):
        r = self.rng
        if kind in ('load', 'aload'):
            lv = r.choice(self.lvs)
            reg = self.reg(th, lv)
            if not reg:
                return None
            if kind == 'load':
                return self.node('op', '%s = %s;' % (reg, lv['e']))
            return self.node('op', '%s = __atomic_load_n(&%s, %s);'
                             % (reg, lv['e'], self.ord_()))
        if kind in ('store', 'astore'):
            lv = self.store_lv(th)
            if not lv:
                return None
            v = cval(self.new_value(lv), lv['t'])
            if kind == 'store':
                return self.node('op', '%s = %s;' % (lv['e'], v))
            return self.node('op', '__atomic_store_n(&%s, %s, %s);'
                             % (lv['e'], v, self.ord_()))
        if kind in ('xchg', 'fadd', 'cas'):
            lv = r.choice(self.lvs)
            reg = self.reg(th, lv)
            if not reg:
                return None
            o = self.ord_()
            self.features.add('atomic')
            if kind == 'xchg':
                v = cval(self.new_value(lv), lv['t'])
                return self.node('op', '%s = __atomic_exchange_n(&%s, %s, %s);'
                                 % (reg, lv['e'], v, o))
            if kind == 'fadd':
                return self.node('op', '%s = __atomic_fetch_add(&%s, %d, %s);'
                                 % (reg, lv['e'], r.randint(1, 2), o))
            exp = r.choice(self.possible(lv))
            v = cval(self.new_value(lv), lv['t'])
            return self.node(
                'op', '{ %s e = %s; int ok = __atomic_compare_exchange_n'
                '(&%s, &e, %s, 0, %s, %s); %s = (long)e * 2 + ok; }'
                % (lv['t'], cval(exp, lv['t']), lv['e'], v, o, o, reg))
        if kind == 'fence':
            self.features.add('fence')
            return self.node('op', '__atomic_thread_fence(__ATOMIC_SEQ_CST);')
        if kind == 'yield':
            self.features.add('yield')
            return self.node('op', 'sched_yield();')
        if kind == 'mutex':
            body = [b for b in (self.op(th, depth + 1, simple=True)
                                for _ in range(r.randint(1, 2))) if b]
            if not body:
                return None
            self.features.add('mutex')
            if 'static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;' \
                    not in self.globals:
                self.globals.append(
                    'static pthread_mutex_t M = PTHREAD_MUTEX_INITIALIZER;')
            return self.node('mutex', body=body)
        if kind == 'branch':
            regs = list(th['reglv'])
            if not regs:
                return None
            k = r.choice(regs)
            c = r.choice(self.possible(th['reglv'][k]))
            body = [b for b in [self.op(th, depth + 1, simple=True)] if b]
            els = [b for b in ([self.op(th, depth + 1, simple=True)]
                               if r.random() < 0.5 else []) if b]
            if not body and not els:
                return None
            self.features.add('branch')
            return self.node('if', cond='r%d == %s' % (k, c), body=body,
                             els=els)
        raise ValueError(kind)

    # -- program -------------------------------------------------------
    def gen(self):
        r = self.rng
        self.make_vars()
        nthreads = r.choice([2, 2, 3])
        sizes = [1, 2, 2, 3, 3, 4] if nthreads == 2 else [1, 1, 2]
        if self.small:
            nthreads, sizes = 2, [1, 2, 2]
        threads = []
        for i in range(1, nthreads + 1):
            th = dict(idx=i, stmts=[], nregs=0, maxregs=4, reglv={},
                      locs=set(), report='join')
            for _ in range(r.choice(sizes)):
                n = self.op(th)
                if n:
                    th['stmts'].append(n)
            threads.append(th)
        main = dict(stmts=[], nregs=0, maxregs=2, reglv={}, locs=set(),
                    idx=0)
        if r.random() < 0.25 and not self.small:
            for _ in range(r.choice([1, 1, 2])):
                n = self.op(main, simple=True)
                if n:
                    main['stmts'].append(n)
        # flags: a setter's sets come before its own waits (no cycles)
        self.sets = {}   # thread idx -> [set nodes]
        self.waits = {}  # thread idx -> [wait nodes]
        if r.random() < 0.2 and not self.small:
            self.add_spin(threads, main)
        if self.cls == 'corners' and self.corners:
            for c in r.sample(self.corners, min(len(self.corners),
                                                1 if self.small else
                                                r.choice([1, 1, 2]))):
                getattr(self, 'corner_' + c)(threads, main)
        for th in threads + [main]:
            self.place(th)
        # how main ends
        end = r.choices([e for e, _ in ENDS], [w for _, w in ENDS])[0]
        if self.small:
            end = 'join_all'
        idxs = [t['idx'] for t in threads]
        join, detach = [], []
        if end == 'join_all':
            join = r.sample(idxs, len(idxs))
        elif end == 'join_some':
            join = r.sample(idxs, r.randint(1, len(idxs) - 1))
        elif end in ('detach_return', 'detach_pexit'):
            detach = r.sample(idxs, r.randint(1, len(idxs)))
            join = [i for i in idxs if i not in detach and r.random() < 0.5]
        for th in threads:
            if th['idx'] not in join:
                th['report'] = 'self'
        # pthread_exit in a thread: after its last set (it must not keep a
        # waiter from its flag)
        for th in threads:
            if r.random() < 0.15:
                self.add_pexit(th)
        self.features.add('end_' + end)
        if self.small:
            self.features.add('small')
        prog = dict(seed=self.seed, cls=self.cls, globals=self.globals,
                    setup=self.setup, features=sorted(self.features),
                    end=end, join=join, detach=detach,
                    main=dict(stmts=main['stmts'], nregs=main['nregs']),
                    threads=[dict(idx=t['idx'], stmts=t['stmts'],
                                  nregs=t['nregs'], report=t['report'])
                             for t in threads])
        return prog

    def place(self, th):
        """Insert th's pending set nodes before its first wait, and its
        wait nodes after its last set, at random top-level positions."""
        r = self.rng
        st = th['stmts']
        for s in self.sets.get(th['idx'], []):
            first_wait = next((i for i, n in enumerate(st)
                               if n.get('wait')), len(st))
            st.insert(r.randint(0, first_wait), s)
        for w in self.waits.get(th['idx'], []):
            last_set = max([i for i, n in enumerate(st) if n.get('set')],
                           default=-1)
            lo = last_set + 1
            if w.get('at_end'):
                lo = len(st)
            st.insert(r.randint(lo, len(st)), w)

    def add_set(self, who, n):
        n['set'] = True
        self.sets.setdefault(who['idx'], []).append(n)

    def add_wait(self, who, n):
        n['wait'] = True
        self.waits.setdefault(who['idx'], []).append(n)

    def add_spin(self, threads, main):
        r = self.rng
        waiter = r.choice(threads)
        setters = [t for t in threads if t is not waiter] + [main]
        setter = r.choice(setters)
        f = 'F%d' % len([g for g in self.globals if g.startswith('static volatile int F')])
        self.globals.append('static volatile int %s;' % f)
        s = self.node('op', '%s = 1;' % f)
        self.add_set(setter, s)
        form = r.choice(['while (!%s)\n\t\t;', 'while (!%s)\n\t\tsched_yield();',
                         'while (__atomic_load_n(&%s, __ATOMIC_ACQUIRE) == 0)\n\t\t;'])
        w = self.node('op', form % f, deps=[s['id']])
        self.add_wait(waiter, w)
        self.features.add('spin')

    def add_pexit(self, th):
        st = th['stmts']
        last_set = max([i for i, n in enumerate(st) if n.get('set')],
                       default=-1)
        pos = self.rng.randint(last_set + 1, len(st))
        regs = list(th['reglv'])
        if regs and (self.rng.random() < 0.7 or pos < len(st)):
            k = self.rng.choice(regs)
            c = self.rng.choice(self.possible(th['reglv'][k]))
            pos = max(pos, self.after_regs(th, k))
            n = self.node('if', cond='r%d == %s' % (k, c),
                          body=[self.node('pexit')], els=[])
        else:
            n = self.node('pexit')
        # after the waits that must keep a stack alive, too
        waits_pinned = [i for i, x in enumerate(st) if x.get('pinned')]
        if waits_pinned and pos <= max(waits_pinned):
            pos = max(waits_pinned) + 1
        st.insert(pos, n)
        self.features.add('pexit')

    # -- corners -------------------------------------------------------
    def gbuf(self):
        g = 'static volatile char G[8] = "abcdefg";'
        if g not in self.globals:
            self.globals.append(g)

    def g_store(self, th):
        """A store to G[0..3] by thread th (the writer of a buffer race)."""
        k = self.rng.randrange(4)
        th['stmts'].insert(self.rng.randint(0, len(th['stmts'])),
                           self.node('op', "G[%d] = '%s';"
                                     % (k, 'XYZW'[k])))

    def two(self, threads):
        return self.rng.sample(threads, 2)

    def corner_syswrite(self, threads, main):
        self.gbuf()
        a, b = self.two(threads)
        a['stmts'].insert(self.rng.randint(0, len(a['stmts'])),
                          self.node('op', 'if (write(1, (const char *)G, 4) < 0)\n\t\t_exit(98);'))
        self.g_store(b)
        self.features.add('syswrite')

    def corner_sysread(self, threads, main):
        self.gbuf()
        r = self.rng
        if r.random() < 0.7:
            self.globals.append('static int PFD[2];')
            self.setup.append('if (pipe(PFD) != 0 || write(PFD[1], "pqrstu", 6) != 6)\n\t\treturn 96;')
            src = 'PFD[0]'
        else:
            self.globals.append('static int ZFD;')
            self.setup.append('if ((ZFD = open("/dev/zero", O_RDONLY)) < 0)\n\t\treturn 96;')
            src = 'ZFD'
        a, b = self.two(threads)
        a['stmts'].insert(r.randint(0, len(a['stmts'])),
                          self.node('op', 'if (read(%s, (char *)G + %d, 2) != 2)\n\t\t_exit(98);'
                                    % (src, r.randrange(3))))
        lv = dict(e='G[%d]' % r.randrange(4), t='char', base='G', off=0,
                  size=1)
        reg = self.reg(b, lv)
        if reg:
            b['stmts'].insert(r.randint(0, len(b['stmts'])),
                              self.node('op', '%s = %s;' % (reg, lv['e'])))
        else:
            self.g_store(b)
        self.features.add('sysread')

    def corner_printf_s(self, threads, main):
        self.gbuf()
        a, b = self.two(threads)
        a['stmts'].insert(self.rng.randint(0, len(a['stmts'])),
                          self.node('op', 'printf("%s\\n", (const char *)G);'))
        self.g_store(b)
        self.features.add('printf_s')

    def escape(self, threads, main, tls):
        r = self.rng
        E = 'E%d' % len([g for g in self.globals if '*volatile E' in g])
        self.globals.append('static volatile long *volatile %s;' % E)
        if tls:
            self.globals.append('static __thread volatile long TL%s;' % E[1:])
        owner, user = self.two(threads)
        if r.random() < 0.25:
            owner = main
            user = r.choice(threads)
        var = 'TL' + E[1:] if tls else 'loc[%d]' % (512 + 128 * int(E[1:]))
        pub = self.node('op', '%s = 5; %s = &%s;' % (var, E, var))
        self.add_set(owner, pub)
        lv = dict(e=var, t='long', base='esc', off=0, size=8)
        reg = self.reg(owner, lv)
        if reg:
            rd = self.node('op', '%s = %s;' % (reg, var))
            owner['stmts'].append(rd)
        # the user: through the pointer if it is there yet, then ACK
        if r.random() < 0.5:
            use = '*p = 6;'
        else:
            ureg = self.reg(user, lv)
            use = '%s = *p;' % ureg if ureg else '*p = 6;'
        need_ack = owner is not main and (not tls or r.random() < 0.5)
        text = '{ volatile long *p = %s; if (p) %s }' % (E, use)
        ack = 'ACK' + E[1:]
        if need_ack:
            self.globals.append('static volatile int %s;' % ack)
            text += ' %s = 1;' % ack
        u = self.node('op', text, deps=[pub['id']])
        self.add_set(user, u)
        if need_ack:
            # the owner keeps its stack alive until the user is done
            w = self.node('op', 'while (!%s)\n\t\t;' % ack, deps=[u['id']],
                          pinned=True, at_end=True)
            self.add_wait(owner, w)
        if owner is main and not tls:
            self.features.add('escape_main')
        self.features.add('escape_tls' if tls else 'escape_local')

    def corner_escape_local(self, threads, main):
        self.escape(threads, main, False)

    def corner_escape_tls(self, threads, main):
        self.escape(threads, main, True)

    def corner_crash_ptr(self, threads, main):
        self.globals.append('static volatile int PT = 7;')
        self.globals.append('static volatile int *volatile P;')
        a, b = self.two(threads)
        s = self.node('op', 'P = &PT;')
        self.add_set(a, s)
        lv = dict(e='*P', t='int', base='PT', off=0, size=4)
        reg = self.reg(b, lv)
        text = '%s = *P;' % reg if reg else '*P = 8;'
        b['stmts'].insert(self.rng.randint(0, len(b['stmts'])),
                          self.node('op', text))
        self.features.add('crash_ptr')

    def cond_on_reg(self, th):
        regs = list(th['reglv'])
        if not regs:
            lv = self.rng.choice(self.lvs)
            reg = self.reg(th, lv)
            if not reg:
                return None
            th['stmts'].append(self.node('op', '%s = %s;' % (reg, lv['e'])))
            regs = [int(reg[1:])]
        k = self.rng.choice(regs)
        vals = self.possible(th['reglv'][k])
        c = self.rng.choice(vals[1:] if len(vals) > 1 else vals)
        return k, c

    def after_regs(self, th, k):
        """A position after the load of register k."""
        st = th['stmts']
        pos = [i for i, n in enumerate(st) if ('r%d ' % k) in n['text']]
        return self.rng.randint(max(pos) + 1 if pos else 0, len(st))

    def corner_crash_cond(self, threads, main):
        th = self.rng.choice(threads)
        kc = self.cond_on_reg(th)
        if not kc:
            return
        k, c = kc
        self.globals.append('static int *volatile NULLP;')
        th['stmts'].insert(self.after_regs(th, k), self.node(
            'if', cond='r%d == %s' % (k, c),
            body=[self.node('op', '*NULLP = 1;')], els=[]))
        self.features.add('crash_cond')

    def corner_exit_thread(self, threads, main):
        th = self.rng.choice(threads)
        if self.rng.random() < 0.4:
            th['stmts'].append(self.node('op', 'exit(3);'))
        else:
            kc = self.cond_on_reg(th)
            if not kc:
                return
            k, c = kc
            th['stmts'].insert(self.after_regs(th, k), self.node(
                'if', cond='r%d == %s' % (k, c),
                body=[self.node('op', 'exit(3);')], els=[]))
        self.features.add('exit_thread')

    def corner_assert(self, threads, main):
        th = self.rng.choice(threads)
        kc = self.cond_on_reg(th)
        if not kc:
            return
        k, c = kc
        th['stmts'].insert(self.after_regs(th, k), self.node(
            'op', 'assert(r%d != %s);' % (k, c)))
        self.features.add('assert')


# -- rendering ---------------------------------------------------------
def render_stmts(stmts, th, ind):
    out = []
    tab = '\t' * ind
    for n in stmts:
        k = n['kind']
        if k == 'op':
            text = n['text'].replace('\n\t\t', '\n' + tab + '\t')
            out.append(tab + text)
        elif k == 'pexit':
            if th is None:
                out.append(tab + 'pthread_exit(NULL);')
            elif th['report'] == 'join':
                out.append(tab + 'pthread_exit(PACK(r0, r1, r2, r3));')
            else:
                out.append(tab + '{ report(%d, r0, r1, r2, r3, %d); '
                           'pthread_exit(NULL); }' % (th['idx'], th['nregs']))
        elif k == 'mutex':
            out.append(tab + 'pthread_mutex_lock(&M);')
            out += render_stmts(n['body'], th, ind)
            out.append(tab + 'pthread_mutex_unlock(&M);')
        elif k == 'if':
            out.append(tab + 'if (%s) {' % n['cond'])
            out += render_stmts(n['body'], th, ind + 1)
            if n['els']:
                out.append(tab + '} else {')
                out += render_stmts(n['els'], th, ind + 1)
            out.append(tab + '}')
    return out


def walk(stmts):
    for n in stmts:
        yield n
        for sub in ('body', 'els'):
            if n.get(sub):
                yield from walk(n[sub])


def render(prog, comment=None):
    L = []
    if comment:
        L.append('/*')
        for line in comment.rstrip('\n').split('\n'):
            L.append(' * ' + line if line else ' *')
        L.append(' */')
    L.append('/* x86smc fuzz_explore program: seed %d, class %s, features: %s */'
             % (prog['seed'], prog['cls'], ' '.join(prog['features'])))
    L.append(PRELUDE)
    L += prog['globals']
    L.append('')
    for th in prog['threads']:
        L.append('static void *t%d(void *arg)' % th['idx'])
        L.append('{')
        L.append('\tlong r0 = 0, r1 = 0, r2 = 0, r3 = 0;')
        locs = sorted({int(x.split(']')[0]) for s in walk(th['stmts'])
                       for x in s.get('text', '').split('loc[')[1:]})
        if locs:
            L.append('\tvolatile long loc[1024];')
            L.append('')
            for i in locs:
                L.append('\tloc[%d] = 0;' % i)
        else:
            L.append('')
        L.append('\t(void)arg;')
        L += render_stmts(th['stmts'], th, 1)
        if th['report'] == 'join':
            L.append('\treturn PACK(r0, r1, r2, r3);')
        else:
            L.append('\treport(%d, r0, r1, r2, r3, %d);' % (th['idx'], th['nregs']))
            L.append('\treturn NULL;')
        L.append('}')
        L.append('')
    L.append('int main(void)')
    L.append('{')
    L.append('\tpthread_t th[4];')
    L.append('\tvoid *ret[4] = { 0 };')
    L.append('\tlong r0 = 0, r1 = 0;')
    locs = sorted({int(x.split(']')[0]) for s in walk(prog['main']['stmts'])
                   for x in s.get('text', '').split('loc[')[1:]})
    if locs:
        L.append('\tvolatile long loc[1024];')
        L.append('')
        for i in locs:
            L.append('\tloc[%d] = 0;' % i)
    else:
        L.append('')
    for s in prog['setup']:
        L.append('\t' + s.replace('\n\t\t', '\n\t\t'))
    for th in prog['threads']:
        L.append('\tif (pthread_create(&th[%d], NULL, t%d, NULL) != 0)'
                 % (th['idx'], th['idx']))
        L.append('\t\treturn 95;')
    L += render_stmts(prog['main']['stmts'], None, 1)
    present = {t['idx']: t for t in prog['threads']}
    for i in prog['detach']:
        if i in present:
            L.append('\tpthread_detach(th[%d]);' % i)
    fmt = ['m:' + ','.join(['%lu'] * prog['main']['nregs'])]
    args = ['FOLD(r%d)' % k for k in range(prog['main']['nregs'])]
    for i in prog['join']:
        if i not in present:
            continue
        L.append('\tpthread_join(th[%d], &ret[%d]);' % (i, i))
        n = present[i]['nregs']
        fmt.append('t%d:' % i + ','.join(['%lu'] * n))
        args += ['UNP(ret[%d], %d)' % (i, k) for k in range(n)]
    L.append('\tprintf("%s\\n"%s);' % (' '.join(fmt),
                                       ''.join(', ' + a for a in args)))
    L.append('\t(void)r0;')
    L.append('\t(void)r1;')
    L.append('\t(void)ret;')
    if prog['end'] in ('detach_pexit', 'main_pexit'):
        L.append('\tpthread_exit(NULL);')
    else:
        L.append('\treturn 0;')
    L.append('}')
    return '\n'.join(L) + '\n'


# -- minimisation support ------------------------------------------------
def units(prog):
    """Deletable units: ('thread', idx) and ('stmt', id); pinned
    statements go only with what they depend on."""
    u = [('thread', t['idx']) for t in prog['threads']]
    for t in prog['threads'] + [prog['main']]:
        for n in walk(t['stmts']):
            if not n.get('pinned'):
                u.append(('stmt', n['id']))
    return u


def delete(prog, dels):
    """A copy of prog without the units in dels (and whatever depends on
    them); None if nothing would remain to delete of them."""
    p = copy.deepcopy(prog)
    gone = set()
    tgone = {i for k, i in dels if k == 'thread'}
    if len(tgone) >= len(p['threads']):
        return None
    for t in p['threads']:
        if t['idx'] in tgone:
            gone |= {n['id'] for n in walk(t['stmts'])}
    gone |= {i for k, i in dels if k == 'stmt'}
    allst = [n for t in p['threads'] + [p['main']] for n in walk(t['stmts'])]
    changed = True
    while changed:
        changed = False
        for n in allst:
            if n['id'] not in gone and any(d in gone for d in n['deps']):
                gone.add(n['id'])
                changed = True

    def prune(stmts):
        out = []
        for n in stmts:
            if n['id'] in gone:
                continue
            for sub in ('body', 'els'):
                if n.get(sub) is not None:
                    n[sub] = prune(n[sub])
            if n['kind'] in ('if', 'mutex') and not n['body'] and \
                    not n.get('els'):
                continue
            out.append(n)
        return out
    p['threads'] = [t for t in p['threads'] if t['idx'] not in tgone]
    for t in p['threads'] + [p['main']]:
        t['stmts'] = prune(t['stmts'])
    return p


def generate(seed, cls='all', disabled=(), pso_locs=4, size='mixed'):
    g = Gen(seed, cls, disabled, pso_locs, size)
    prog = g.gen()
    # drop generator-only keys from nodes (set/wait/at_end) but keep
    # them harmless: json-able
    return json.loads(json.dumps(prog))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('seed', type=int)
    ap.add_argument('--class', dest='cls', default='all',
                    choices=['plain', 'corners', 'all'])
    ap.add_argument('--no', default='',
                    help='corners to leave out, comma-separated (%s)'
                    % ','.join(CORNERS))
    ap.add_argument('--pso-locs', type=int, default=4,
                    help='stored locations per thread at most (default 4)')
    ap.add_argument('--size', default='mixed', choices=['small', 'normal', 'mixed'],
                    help='small: 2 threads x 1-2 operations, joined; mixed '
                    '(default): small for about a third of the seeds')
    ap.add_argument('--json', action='store_true',
                    help='print the program tree instead of C')
    a = ap.parse_args()
    dis = [c for c in a.no.split(',') if c]
    for c in dis:
        if c not in CORNERS:
            ap.error('unknown corner %s' % c)
    prog = generate(a.seed, a.cls, dis, a.pso_locs, a.size)
    if a.json:
        json.dump(prog, sys.stdout, indent=1)
        print()
    else:
        sys.stdout.write(render(prog))


if __name__ == '__main__':
    main()
