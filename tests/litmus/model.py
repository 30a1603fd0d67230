#!/usr/bin/env python3
"""Reference enumerator of the outcomes of the x86 litmus tests of
samples/litmus/ (described in tests.py) under SC, x86-TSO and PSO.

    python3 tests/litmus/model.py                 print every test's sets
    python3 tests/litmus/model.py sb n6           only these tests
    python3 tests/litmus/model.py --write         regenerate expected/
    python3 tests/litmus/model.py --check         exit 1 if expected/ is stale

Operational semantics (exhaustive search over the machine states):

  SC   every instruction is one atomic step on memory.
  TSO  each thread has one FIFO store buffer.  A store appends to it; a load
       takes each byte from the newest buffered store of its own thread that
       covers that byte, else from memory (so a 4-byte load can mix bytes of
       a buffered 1-byte store with memory bytes); an update step (enabled
       whenever a buffer is non-empty, interleaved freely with everything
       else) writes the oldest buffered store to memory.  MFENCE, XCHG and
       LOCK-prefixed instructions are enabled only when the thread's buffer
       is empty, and the read-modify-write acts on memory in one step.
  PSO  as TSO, but one FIFO per (thread, shared variable): stores of one
       thread to different variables may reach memory in either order.
       MFENCE / locked instructions need all of the thread's FIFOs empty.

An execution ends when every thread has run all its instructions and all
buffers are empty (thread exit and pthread_join drain them); its outcome is
the test's `out` line formatted with the registers and the final values of
the shared variables: exactly what the C program prints.

`axiomatic()` is a second, independent definition (herd-style: candidate
executions rf/co, checked for uniproc, RMW atomicity and acyclic global
happens-before, with ppo = po minus W->R (TSO) and minus W->W to different
variables (PSO), locked instructions and MFENCE restoring order).  It covers
tests without partial-width accesses; test_model.py checks that the two
definitions agree on them.
"""

import os
import sys
from itertools import permutations, product

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tests import TESTS, St, Ld, Mfence, Rmw  # noqa: E402

MODELS = ("sc", "tso", "pso")
EXPECTED = os.path.join(HERE, "expected")
VARSIZE = 4
STRIDE = 16  # byte distance between variables in the model's memory
MASK = 0xFFFFFFFF


def _regs(test):
    names = []
    for th in test.threads:
        for ins in th:
            r = getattr(ins, "reg", None)
            if r is not None and r not in names:
                names.append(r)
    return names


def _span(test, ins):
    """(first byte address, size) of a memory instruction."""
    size = ins.size if getattr(ins, "size", None) else VARSIZE
    off = getattr(ins, "off", 0) or 0
    assert 0 <= off and off + size <= VARSIZE, ins
    return test.vars.index(ins.var) * STRIDE + off, size


def _bytes(val, size):
    return tuple((val >> (8 * i)) & 0xFF for i in range(size))


def _value(bs):
    return sum(b << (8 * i) for i, b in enumerate(bs))


def _format(test, regs, mem):
    vals = dict(zip(_regs(test), regs))
    for i, v in enumerate(test.vars):
        vals[v] = _value(mem[i * STRIDE:i * STRIDE + VARSIZE])
    return test.out.format(**vals)


def operational(test, model):
    """The set of outcome lines of `test` under `model` ("sc"|"tso"|"pso")."""
    assert model in MODELS
    regnames = _regs(test)
    nth = len(test.threads)
    nch = len(test.vars) if model == "pso" else 1  # buffers per thread
    start = ((0,) * nth, (0,) * len(regnames),
             (0,) * (STRIDE * len(test.vars)),
             tuple(((),) * nch for _ in range(nth)))
    seen, stack, outcomes = {start}, [start], set()

    def channel(ins):
        return test.vars.index(ins.var) if model == "pso" else 0

    def step(state, t):
        """Successor after thread t's next instruction, or None if blocked."""
        pcs, regs, mem, bufs = state
        ins = test.threads[t][pcs[t]]
        regs, mem, buf = list(regs), list(mem), list(bufs[t])
        empty = all(not c for c in buf)
        if isinstance(ins, St):
            addr, size = _span(test, ins)
            if model == "sc":
                mem[addr:addr + size] = _bytes(ins.val, size)
            else:
                c = channel(ins)
                buf[c] = buf[c] + ((addr, _bytes(ins.val, size)),)
        elif isinstance(ins, Ld):
            addr, size = _span(test, ins)
            got = []
            for a in range(addr, addr + size):
                src = [bs[a - base] for ch in buf for base, bs in ch
                       if base <= a < base + len(bs)]
                got.append(src[-1] if src else mem[a])  # newest own store
            regs[regnames.index(ins.reg)] = _value(got)
        elif isinstance(ins, Mfence):
            if not empty:
                return None
        elif isinstance(ins, Rmw):
            if not empty:
                return None
            addr, size = _span(test, ins)
            old = _value(mem[addr:addr + size])
            new = ins.val if ins.kind == "xchg" else (old + ins.val) & MASK
            mem[addr:addr + size] = _bytes(new, size)
            if ins.reg is not None:
                regs[regnames.index(ins.reg)] = old
        else:
            raise TypeError(ins)
        pcs = pcs[:t] + (pcs[t] + 1,) + pcs[t + 1:]
        bufs = bufs[:t] + (tuple(buf),) + bufs[t + 1:]
        return pcs, tuple(regs), tuple(mem), bufs

    def update(state, t, c):
        """Successor after the oldest store of buffer (t, c) reaches memory."""
        pcs, regs, mem, bufs = state
        (addr, bs), rest = bufs[t][c][0], bufs[t][c][1:]
        mem = mem[:addr] + bs + mem[addr + len(bs):]
        buf = bufs[t][:c] + (rest,) + bufs[t][c + 1:]
        return pcs, regs, mem, bufs[:t] + (buf,) + bufs[t + 1:]

    while stack:
        state = stack.pop()
        pcs, regs, mem, bufs = state
        succ = []
        for t in range(nth):
            if pcs[t] < len(test.threads[t]):
                succ.append(step(state, t))
            for c in range(nch):
                if bufs[t][c]:
                    succ.append(update(state, t, c))
        succ = [s for s in succ if s is not None]
        if not succ:
            done = all(pcs[t] == len(test.threads[t]) for t in range(nth))
            assert done, "stuck state %r" % (state,)
            outcomes.add(_format(test, regs, mem))
        for s in succ:
            if s not in seen:
                seen.add(s)
                stack.append(s)
    return outcomes


# ---------------------------------------------------------------- axiomatic

def axiomatic(test, model):
    """Independent herd-style definition; whole-variable accesses only."""
    regnames = _regs(test)
    ev = []  # dicts: id, t, i (po index), k ("R"|"W"|"F"), var, lock, ...
    for t, th in enumerate(test.threads):
        for i, ins in enumerate(th):
            if getattr(ins, "size", None) or getattr(ins, "off", 0):
                raise ValueError("axiomatic: partial-width access")
            if isinstance(ins, St):
                ev.append(dict(t=t, i=i, k="W", var=ins.var, lock=False,
                               val=("const", ins.val)))
            elif isinstance(ins, Ld):
                ev.append(dict(t=t, i=i, k="R", var=ins.var, lock=False,
                               reg=ins.reg))
            elif isinstance(ins, Mfence):
                ev.append(dict(t=t, i=i, k="F", var=None, lock=False))
            elif isinstance(ins, Rmw):
                r = dict(t=t, i=i, k="R", var=ins.var, lock=True,
                         reg=ins.reg)
                ev.append(r)
                ev.append(dict(t=t, i=i, k="W", var=ins.var, lock=True,
                               val=(ins.kind, len(ev) - 1, ins.val)))
    for v in test.vars:  # initial writes
        ev.append(dict(t=None, i=-1, k="W", var=v, lock=False,
                       val=("const", 0)))
    n = len(ev)
    for j, e in enumerate(ev):
        e["id"] = j
    R = [e["id"] for e in ev if e["k"] == "R"]
    W = {v: [e["id"] for e in ev if e["k"] == "W" and e["var"] == v]
         for v in test.vars}
    init = {v: [w for w in W[v] if ev[w]["t"] is None][0] for v in test.vars}

    def po(a, b):  # a strictly po-before b (same instruction: R before W)
        ea, eb = ev[a], ev[b]
        if ea["t"] is None or ea["t"] != eb["t"]:
            return False
        return (ea["i"], a) < (eb["i"], b)

    mem_ev = [e["id"] for e in ev if e["k"] in "RW" and e["t"] is not None]
    fences = [e["id"] for e in ev if e["k"] == "F" or e["lock"]]

    def fenced(a, b):
        if ev[a]["lock"] or ev[b]["lock"]:
            return True
        return any(po(a, f) and po(f, b) for f in fences)

    def preserved(a, b):
        ka, kb = ev[a]["k"], ev[b]["k"]
        if model == "sc":
            return True
        if ka == "W" and kb == "R":
            return fenced(a, b)
        if model == "pso" and ka == "W" and kb == "W" \
                and ev[a]["var"] != ev[b]["var"]:
            return fenced(a, b)
        return True

    ppo = [(a, b) for a in mem_ev for b in mem_ev if po(a, b)
           and preserved(a, b)]
    poloc = [(a, b) for a in mem_ev for b in mem_ev if po(a, b)
             and ev[a]["var"] == ev[b]["var"]]
    init_po = [(init[v], b) for v in test.vars for b in mem_ev]

    def acyclic(edges):
        succ = [[] for _ in range(n)]
        for a, b in edges:
            succ[a].append(b)
        color = [0] * n

        def dfs(u):
            color[u] = 1
            for w in succ[u]:
                if color[w] == 1 or (color[w] == 0 and not dfs(w)):
                    return False
            color[u] = 2
            return True
        return all(color[u] or dfs(u) for u in range(n))

    outcomes = set()
    rf_choices = [W[ev[r]["var"]] for r in R]
    co_choices = [[(init[v],) + p for p in
                   permutations([w for w in W[v] if w != init[v]])]
                  for v in test.vars]
    for rfs in product(*rf_choices):
        rf = dict(zip(R, rfs))
        vals = {}

        def value(w, busy=()):
            if w in vals:
                return vals[w]
            if w in busy:
                raise RecursionError
            spec = ev[w]["val"]
            if spec[0] == "const":
                x = spec[1]
            else:
                old = value(rf[spec[1]], busy + (w,))
                x = spec[2] if spec[0] == "xchg" else (old + spec[2]) & MASK
            vals[w] = x
            return x
        try:
            for w in range(n):
                if ev[w]["k"] == "W":
                    value(w)
        except RecursionError:
            continue
        rfe = [(w, r) for r, w in rf.items() if ev[w]["t"] != ev[r]["t"]]
        rfall = [(w, r) for r, w in rf.items()]
        for cos in product(*co_choices):
            pos = {w: k for order in cos for k, w in enumerate(order)}
            co = [(a, b) for order in cos for k, a in enumerate(order)
                  for b in order[k + 1:]]
            fr = [(r, w) for r, src in rf.items()
                  for w in W[ev[r]["var"]] if pos[w] > pos[src]]
            # RMW atomicity: the write directly follows the read's source.
            if any(e["k"] == "W" and e["lock"]
                   and pos[e["id"]] != pos[rf[e["val"][1]]] + 1
                   for e in ev):
                continue
            if not acyclic(poloc + rfall + co + fr + init_po):
                continue
            rel = rfall if model == "sc" else rfe
            if not acyclic(ppo + rel + co + fr + init_po):
                continue
            regs = [0] * len(regnames)
            for r, w in rf.items():
                if ev[r]["reg"] is not None:
                    regs[regnames.index(ev[r]["reg"])] = vals[w]
            final = {v: vals[cos[k][-1]] for k, v in enumerate(test.vars)}
            outcomes.add(test.out.format(
                **dict(zip(regnames, regs)), **final))
    return outcomes


# ---------------------------------------------------------------- CLI

def expected_path(name, model):
    return os.path.join(EXPECTED, "%s.%s" % (name, model))


def render(outcomes):
    return "".join(line + "\n" for line in sorted(outcomes))


def main(argv):
    args = [a for a in argv if not a.startswith("-")]
    opts = [a for a in argv if a.startswith("-")]
    bad = [a for a in opts if a not in ("--write", "--check")] + \
        [a for a in args if a not in TESTS]
    if bad or len(opts) > 1:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        print("model.py: bad argument(s): %s" % " ".join(bad or opts),
              file=sys.stderr)
        return 2
    names = args or sorted(TESTS)
    stale = 0
    for name in names:
        for model in MODELS:
            text = render(operational(TESTS[name], model))
            path = expected_path(name, model)
            if "--write" in opts:
                os.makedirs(EXPECTED, exist_ok=True)
                old = open(path).read() if os.path.exists(path) else None
                if old != text:
                    with open(path, "w") as f:
                        f.write(text)
                    print("wrote %s" % os.path.relpath(path))
            elif "--check" in opts:
                old = open(path).read() if os.path.exists(path) else None
                if old != text:
                    stale += 1
                    print("STALE %s" % os.path.relpath(path))
            else:
                print("%s.%s (%d):" % (name, model, text.count("\n")))
                sys.stdout.write("".join("  " + l + "\n"
                                         for l in text.splitlines()))
    if "--check" in opts:
        if not args and os.path.isdir(EXPECTED):
            known = {expected_path(t, m) for t in TESTS for m in MODELS}
            for f in sorted(os.listdir(EXPECTED)):
                if os.path.join(EXPECTED, f) not in known:
                    stale += 1
                    print("EXTRA %s" % os.path.relpath(
                        os.path.join(EXPECTED, f)))
        print("litmus expected: %s" % ("%d stale" % stale if stale
                                       else "up to date"))
        return 1 if stale else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
