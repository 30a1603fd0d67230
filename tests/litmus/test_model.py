#!/usr/bin/env python3
"""Self-tests of the litmus reference model (python3, standard library only).

    python3 tests/litmus/test_model.py      prints one line per failure, then
                                            litmus-model: N passed, N failed

Checks: the published allowed/forbidden facts (written out here by hand,
independently of the `verdict` column of tests.py); the verdict column;
SC <= TSO <= PSO; the operational model against the independent axiomatic
one; small semantic corner cases (forwarding, per-address FIFO); that
expected/ is what model.py generates; and that every samples/litmus/*.c
does what its tests.py entry says (its inline asm, operand bindings and
printf line), so the expected sets really are those of the C programs.
"""

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import model  # noqa: E402
from model import MODELS, operational, axiomatic  # noqa: E402
from tests import TESTS, Test, St, Ld, Mfence, Xchg, Xadd, Inc  # noqa: E402

SAMPLES = os.path.join(ROOT, "samples", "litmus")
passed, failed = 0, 0
_cache = {}


def outcomes(name, m):
    if (name, m) not in _cache:
        _cache[name, m] = operational(TESTS[name], m)
    return _cache[name, m]


def check(what, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL %s%s" % (what, ": " + detail if detail else ""))


# ------------------------------------------------ published facts, by hand
# (test, outcome line, {model: allowed?}); sources in tests.py / README.md.
FACTS = [
    ("sb", "r0=0 r1=0", dict(sc=False, tso=True, pso=True)),
    ("sb_mfences", "r0=0 r1=0", dict(sc=False, tso=False, pso=False)),
    ("sb_mfence_one", "r0=0 r1=0", dict(sc=False, tso=True, pso=True)),
    ("sb_xchg", "r0=0 r1=0", dict(sc=False, tso=False, pso=False)),
    ("sb_lock", "r0=0 r1=0", dict(sc=False, tso=False, pso=False)),
    ("sb_own_reads", "r0=1 r1=0 r2=1 r3=0",
     dict(sc=False, tso=True, pso=True)),
    ("mp", "r0=1 r1=0", dict(sc=False, tso=False, pso=True)),
    ("mp_mfence", "r0=1 r1=0", dict(sc=False, tso=False, pso=False)),
    ("mp_xchg", "r0=1 r1=0", dict(sc=False, tso=False, pso=False)),
    ("lb", "r0=1 r1=1", dict(sc=False, tso=False, pso=False)),
    ("iriw", "r0=1 r1=0 r2=1 r3=0", dict(sc=False, tso=False, pso=False)),
    ("iriw_xchgs", "r0=1 r1=0 r2=1 r3=0",
     dict(sc=False, tso=False, pso=False)),
    ("wrc", "r0=1 r1=1 r2=0", dict(sc=False, tso=False, pso=False)),
    ("rwc", "r0=1 r1=0 r2=0", dict(sc=False, tso=True, pso=True)),
    ("isa2", "r0=1 r1=1 r2=0", dict(sc=False, tso=False, pso=True)),
    ("2plus2w", "x=1 y=1", dict(sc=False, tso=False, pso=True)),
    ("r", "r0=0 y=2", dict(sc=False, tso=True, pso=True)),
    ("s", "r0=1 x=2", dict(sc=False, tso=False, pso=True)),
    ("n1", "r0=0 r1=1 r2=2", dict(sc=False, tso=True, pso=True)),
    ("ww_rr_ww_rr", "r0=1 r1=2 r2=1 r3=0",
     dict(sc=False, tso=False, pso=True)),
    ("iriw_xchg", "r0=1 r1=0 r2=1 r3=1 r4=0 r5=1",
     dict(sc=False, tso=False, pso=False)),
    ("n4", "r0=2 r1=1 r2=1 r3=2", dict(sc=False, tso=False, pso=False)),
    ("n4b", "r0=2 r1=1", dict(sc=False, tso=False, pso=False)),
    ("n5", "r0=2 r1=1", dict(sc=False, tso=False, pso=False)),
    ("n6", "r0=1 r1=0 x=1", dict(sc=False, tso=True, pso=True)),
    ("n7", "r0=1 r1=0 r2=1 r3=0", dict(sc=False, tso=True, pso=True)),
    ("n8", "r0=0 r1=0", dict(sc=False, tso=True, pso=True)),
    ("mp_pso_fifo", "r0=1 r1=0 r2=0", dict(sc=False, tso=False, pso=True)),
    ("mixed_forward", "r0=0x00001100 r1=0x22 x=0x22221122",
     dict(sc=False, tso=True, pso=True)),
]

# Whole sets, worked out by hand for the classic two-thread tests.
EXACT = {
    ("sb", "sc"): {"r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"},
    ("sb", "tso"): {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"},
    ("mp", "tso"): {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=1"},
    ("mp", "pso"): {"r0=0 r1=0", "r0=0 r1=1", "r0=1 r1=0", "r0=1 r1=1"},
    ("2plus2w", "tso"): {"x=1 y=2", "x=2 y=1", "x=2 y=2"},
    ("n5", "pso"): {"r0=1 r1=1", "r0=1 r1=2", "r0=2 r1=2"},
    ("mixed_forward", "sc"): {
        "r0=0x00001100 r1=0x22 x=0x22222222",
        "r0=0x22221122 r1=0x11 x=0x22221122",
        "r0=0x22221122 r1=0x22 x=0x22221122",
        "r0=0x22222222 r1=0x22 x=0x22222222"},
    ("mixed_forward", "tso"): {
        "r0=0x00001100 r1=0x11 x=0x22221122",
        "r0=0x00001100 r1=0x22 x=0x22221122",
        "r0=0x00001100 r1=0x22 x=0x22222222",
        "r0=0x22221122 r1=0x11 x=0x22221122",
        "r0=0x22221122 r1=0x22 x=0x22221122",
        "r0=0x22222222 r1=0x22 x=0x22222222"},
}


def test_facts():
    check("every test has a hand-written fact",
          {f[0] for f in FACTS} == set(TESTS),
          "missing %s" % sorted(set(TESTS) - {f[0] for f in FACTS}))
    for name, line, allowed in FACTS:
        for m in MODELS:
            got = line in outcomes(name, m)
            check("%s/%s: %r %s" % (name, m, line,
                                    "allowed" if allowed[m] else "forbidden"),
                  got == allowed[m])
    for (name, m), want in sorted(EXACT.items()):
        got = outcomes(name, m)
        check("%s/%s exact set" % (name, m), got == want,
              "extra %s missing %s" % (sorted(got - want), sorted(want - got)))
    # coherence in mp_pso_fifo: x's two stores are seen in order everywhere
    for m in MODELS:
        bad = [o for o in outcomes("mp_pso_fifo", m)
               if int(o.split()[1][3:]) > int(o.split()[2][3:])]
        check("mp_pso_fifo/%s: no r1 > r2 (per-address FIFO)" % m, not bad,
              str(bad))
    tso_r0 = {o for o in outcomes("mp_pso_fifo", "tso")
              if o.startswith("r0=1")}
    check("mp_pso_fifo/tso: r0=1 implies r1=r2=2",
          tso_r0 == {"r0=1 r1=2 r2=2"}, str(sorted(tso_r0)))


def test_table():
    for name, t in sorted(TESTS.items()):
        sets = [outcomes(name, m) for m in MODELS]
        check("%s: outcome sets non-empty" % name, all(sets))
        check("%s: sc <= tso <= pso" % name,
              sets[0] <= sets[1] <= sets[2])
        for m in MODELS:
            got = "allow" if t.interesting in outcomes(name, m) else "forbid"
            check("%s/%s: verdict column says %s" % (name, m, t.verdict[m]),
                  got == t.verdict[m], "model says %s" % got)


def test_axiomatic():
    n = 0
    for name, t in sorted(TESTS.items()):
        for m in MODELS:
            try:
                ax = axiomatic(t, m)
            except ValueError:  # partial-width accesses: operational only
                continue
            op = outcomes(name, m)
            n += 1
            check("%s/%s: operational == axiomatic" % (name, m), op == ax,
                  "op-only %s ax-only %s" % (sorted(op - ax), sorted(ax - op)))
    check("axiomatic cross-check covers most tests", n >= 3 * (len(TESTS) - 1))


def small(threads, out, vars=("x", "y")):
    return Test(tuple(vars), tuple(tuple(t) for t in threads), out, None,
                None, None)


def test_semantics():
    # forwarding takes the newest of several buffered stores
    t = small([[St("x", 1), St("x", 2), Ld("r0", "x")], [St("x", 3)]],
              "r0={r0} x={x}", vars=("x",))
    for m in MODELS:
        got = operational(t, m)
        check("newest-store forwarding/%s" % m, "r0=1 x=2" not in got
              and "r0=2 x=2" in got, str(sorted(got)))
    # forwarding from two partial buffered stores plus memory
    t = small([[St("x", 0xAA, size=1, off=0), St("x", 0xBB, size=1, off=2),
                Ld("r0", "x")], [St("x", 0x01010101)]],
              "r0=0x{r0:08x} x=0x{x:08x}", vars=("x",))
    sc = {"r0=0x01bb01aa x=0x01bb01aa", "r0=0x01bb0101 x=0x01bb0101",
          "r0=0x00bb00aa x=0x01010101", "r0=0x01010101 x=0x01010101"}
    tso = sc | {"r0=0x00bb00aa x=0x01bb01aa", "r0=0x00bb00aa x=0x01bb0101"}
    for m, want in (("sc", sc), ("tso", tso), ("pso", tso)):
        got = operational(t, m)
        check("byte forwarding from two entries + memory/%s" % m,
              got == want, "extra %s missing %s" % (sorted(got - want),
                                                    sorted(want - got)))
    # a locked RMW waits for the buffer: it never reads below its own store
    t = small([[St("x", 5), Xadd("r0", "x", 1)]], "r0={r0} x={x}",
              vars=("x",))
    for m in MODELS:
        check("xadd after own store/%s" % m,
              operational(t, m) == {"r0=5 x=6"})
    # xchg returns the old value
    t = small([[Xchg("r0", "x", 7)], [St("x", 3)]], "r0={r0} x={x}",
              vars=("x",))
    check("xchg old value", operational(t, "tso") ==
          {"r0=0 x=3", "r0=3 x=7"}, str(operational(t, "tso")))
    # lock inc is atomic: no lost update, unlike a load + store
    t = small([[Inc("x")], [Inc("x")]], "x={x}", vars=("x",))
    check("lock inc atomic", all(operational(t, m) == {"x=2"}
                                 for m in MODELS))
    t = small([[Ld("r0", "x"), St("x", 1)], [Ld("r1", "x"), St("x", 1)]],
              "r0={r0} r1={r1}", vars=("x",))
    check("plain load/store race sees r0=r1=0",
          "r0=0 r1=0" in operational(t, "sc"))
    # PSO reorders stores to different variables, not to the same one
    t = small([[St("x", 1), St("y", 1)]], "x={x} y={y}")
    check("final memory has every store", all(operational(t, m) ==
                                              {"x=1 y=1"} for m in MODELS))
    # an mfence with a non-empty buffer blocks rather than deadlocks
    t = small([[St("x", 1), Mfence(), Mfence(), Ld("r0", "x")]],
              "r0={r0}", vars=("x",))
    check("mfence", all(operational(t, m) == {"r0=1"} for m in MODELS))


def test_expected_files():
    for name in sorted(TESTS):
        for m in MODELS:
            path = model.expected_path(name, m)
            want = model.render(outcomes(name, m))
            have = open(path).read() if os.path.exists(path) else None
            check("expected/%s.%s is current" % (name, m), have == want,
                  "run python3 tests/litmus/model.py --write")
    extra = sorted(set(os.listdir(model.EXPECTED)) -
                   {"%s.%s" % (n, m) for n in TESTS for m in MODELS})
    check("no stray files in expected/", not extra, str(extra))


# ------------------------------------------------ C programs vs tests.py

def c_threads(src):
    """[(asm text, operand text, rest of function body)] per tN."""
    out = []
    for k in range(8):
        m = re.search(r"static void \*t%d\(void \*arg\)\n\{(.*?)\n\}" % k,
                      src, re.S)
        if not m:
            break
        body = m.group(1)
        a = re.search(r'__asm__ volatile\((.*?)\);', body, re.S)
        if not a:
            out.append(("", "", body))
            continue
        inner = a.group(1)
        strings = re.match(r'((?:\s*"(?:[^"\\]|\\.)*")+)\s*:(.*)$',
                           inner, re.S)
        asm = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', strings.group(1)))
        out.append((asm.replace("\\n\\t", "\n"), strings.group(2),
                    body[a.end():]))
    return out


def c_operands(text):
    """{name: (constraint, C expression)} of an asm operand list."""
    ops = {}
    for m in re.finditer(r'\[(\w+)\]\s*"([^"]*)"\(', text):
        depth, i = 1, m.end()
        while depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        ops[m.group(1)] = (m.group(2), text[m.end():i - 1])
    return ops


def decode_c_thread(asm, opers, rest, test):
    """The thread as tests.py instructions, or raise ValueError."""
    ops = c_operands(opers)

    def mem(name):
        con, expr = ops[name]
        if "m" not in con:
            raise ValueError("operand %s is not memory" % name)
        if expr in test.vars:
            return expr, None, 0
        m = re.fullmatch(r"\(\(unsigned char \*\)&(\w+)\)\[(\d)\]", expr)
        if m and m.group(1) in test.vars:
            return m.group(1), 1, int(m.group(2))
        raise ValueError("operand %s = %s" % (name, expr))

    def reg(name):
        con, expr = ops[name]
        if "r" not in con or not re.search(r"\b%s = %s;" % (name, expr),
                                           rest):
            raise ValueError("register operand %s not stored to %s"
                             % (name, name))
        return name

    out, tmp = [], None
    for line in asm.split("\n"):
        words = line.replace(",", " ").split()
        if words == ["mfence"]:
            out.append(Mfence())
            continue
        names = re.findall(r"%\[(\w+)\]", line)
        imm = re.match(r"mov[lb] \$(0x[0-9a-f]+|\d+), %\[(\w+)\]$", line)
        if imm and names[0] == "tmp":
            tmp = int(imm.group(1), 0)
        elif imm:
            var, size, off = mem(names[0])
            if (size == 1) != line.startswith("movb"):
                raise ValueError("size mismatch: " + line)
            out.append(St(var, int(imm.group(1), 0), size, off))
        elif re.match(r"(movl|movzbl) %\[\w+\], %\[\w+\]$", line):
            var, size, off = mem(names[0])
            if (size == 1) != line.startswith("movzbl"):
                raise ValueError("size mismatch: " + line)
            out.append(Ld(reg(names[1]), var, size, off))
        elif re.match(r"xchgl %\[tmp\], %\[\w+\]$", line) and tmp is not None:
            out.append(Xchg(None, mem(names[1])[0], tmp))
        elif re.match(r"lock xaddl %\[tmp\], %\[\w+\]$", line) \
                and tmp is not None:
            out.append(Xadd(None, mem(names[1])[0], tmp))
        elif re.match(r"lock incl %\[\w+\]$", line):
            out.append(Inc(mem(names[0])[0]))
        else:
            raise ValueError("unknown line %r" % line)
    return tuple(out)


def c_format(out):
    """tests.py `out` template -> (printf format, argument names)."""
    fmt = re.sub(r"\{\w+:0?(\d+)x\}", r"%0\1x", out)
    fmt = re.sub(r"\{\w+\}", "%d", fmt)
    return fmt, re.findall(r"\{(\w+)", out)


def test_c_programs():
    files = {f[:-2] for f in os.listdir(SAMPLES) if f.endswith(".c")}
    check("samples/litmus/*.c == tests.py entries", files == set(TESTS),
          "only C: %s, only table: %s" % (sorted(files - set(TESTS)),
                                          sorted(set(TESTS) - files)))
    for name in sorted(files & set(TESTS)):
        test = TESTS[name]
        src = open(os.path.join(SAMPLES, name + ".c")).read()
        for m in MODELS:
            check("%s.c: // expect %s: ok" % (name, m),
                  re.search(r"^// expect %s: ok$" % m, src, re.M))
        check("%s.c: includes common.h" % name,
              '#include "../common.h"' in src)
        threads = c_threads(src)
        try:
            got = tuple(decode_c_thread(a, o, r, test)
                        for a, o, r in threads)
            norm = tuple(tuple(i._replace(size=i.size or None)
                               if isinstance(i, (St, Ld)) else i
                               for i in th) for th in test.threads)
            check("%s.c: asm == tests.py" % name, got == norm,
                  "C %s != table %s" % (got, norm))
        except (ValueError, KeyError) as e:
            check("%s.c: asm decodes" % name, False, str(e))
        fmt, args = c_format(test.out)
        pf = re.search(r'printf\("(.*?)\\n",\s*(.*?)\);', src, re.S)
        check("%s.c: printf matches tests.py out" % name,
              pf and pf.group(1) == fmt
              and [a.strip() for a in pf.group(2).split(",")] == args,
              "C %s, want printf(\"%s\\n\", %s)" % (
                  pf and pf.groups(), fmt, ", ".join(args)))
        check("%s.c: main creates %d threads" % (name, len(test.threads)),
              len(re.findall(r"xcreate\(", src)) == len(test.threads))


def main():
    test_facts()
    test_table()
    test_axiomatic()
    test_semantics()
    test_expected_files()
    test_c_programs()
    print("litmus-model: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
