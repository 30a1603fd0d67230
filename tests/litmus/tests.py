"""The x86 litmus tests of samples/litmus/, described for the reference
enumerator (model.py).  One entry per samples/litmus/NAME.c; the description
must say exactly what the C program's inline asm does, and `out` must be the
line the C program prints (without the newline), as a str.format template
over the registers and the final values of the shared variables.

Instructions (one per x86 instruction of the litmus code):

    St(var, val)            movl $val, var            (store)
    St(var, val, size=1, off=1)   movb $val, var+1    (partial store)
    Ld(reg, var)            movl var, reg             (load)
    Ld(reg, var, size=1, off=1)   movzbl var+1, reg   (partial load)
    Mfence()                mfence
    Xchg(reg, var, val)     xchgl with memory (implicitly locked); old -> reg
    Xadd(reg, var, val)     lock xaddl; old -> reg (reg None: discarded)
    Inc(var)                lock incl

Shared variables are 4-byte, little-endian, initially 0, and do not overlap.
Every test also records which outcome is the interesting one and whether
the published models allow it (`verdict`); test_model.py checks those.
"""

from collections import namedtuple

St = namedtuple("St", "var val size off", defaults=(None, 0))
Ld = namedtuple("Ld", "reg var size off", defaults=(None, 0))
Mfence = namedtuple("Mfence", "")
Rmw = namedtuple("Rmw", "kind reg var val")  # kind: "xchg" | "xadd" | "inc"


def Xchg(reg, var, val):
    return Rmw("xchg", reg, var, val)


def Xadd(reg, var, val):
    return Rmw("xadd", reg, var, val)


def Inc(var):
    return Rmw("inc", None, var, 1)


Test = namedtuple("Test", "vars threads out interesting verdict source")

A, F = "allow", "forbid"


def T(threads, out, interesting, sc, tso, pso, source, vars=("x", "y")):
    return Test(tuple(vars), tuple(tuple(t) for t in threads), out,
                interesting, {"sc": sc, "tso": tso, "pso": pso}, source)


TESTS = {
    # ------------------------------------------------ store buffering (W->R)
    "sb": T([[St("x", 1), Ld("r0", "y")],
             [St("y", 1), Ld("r1", "x")]],
            "r0={r0} r1={r1}", "r0=0 r1=0", F, A, A,
            "Intel SDM 8.2.3.4 (iwp2.3.a), AMD amd4; the x86-TSO "
            "papers' first example"),
    "sb_mfences": T([[St("x", 1), Mfence(), Ld("r0", "y")],
                     [St("y", 1), Mfence(), Ld("r1", "x")]],
                    "r0={r0} r1={r1}", "r0=0 r1=0", F, F, F,
                    "SB+mfences (herd/diy naming); AMD manual test amd5"),
    "sb_mfence_one": T([[St("x", 1), Mfence(), Ld("r0", "y")],
                        [St("y", 1), Ld("r1", "x")]],
                       "r0={r0} r1={r1}", "r0=0 r1=0", F, A, A,
                       "SB+mfence+po (herd/diy naming)"),
    "sb_xchg": T([[Xchg(None, "x", 1), Ld("r0", "y")],
                  [Xchg(None, "y", 1), Ld("r1", "x")]],
                 "r0={r0} r1={r1}", "r0=0 r1=0", F, F, F,
                 "Intel SDM 8.2.3.9, loads and stores are not reordered "
                 "with locked instructions (iwp2.8.a)"),
    "sb_lock": T([[Xadd(None, "x", 1), Ld("r0", "y")],
                  [Inc("y"), Ld("r1", "x")]],
                 "r0={r0} r1={r1}", "r0=0 r1=0", F, F, F,
                 "written for x86smc (SB with other locked "
                 "read-modify-writes)"),
    "sb_own_reads": T([[St("x", 1), Ld("r0", "x"), Ld("r1", "y")],
                       [St("y", 1), Ld("r2", "y"), Ld("r3", "x")]],
                      "r0={r0} r1={r1} r2={r2} r3={r3}",
                      "r0=1 r1=0 r2=1 r3=0", F, A, A,
                      "Intel SDM 8.2.3.5, intra-processor forwarding "
                      "(iwp2.4), AMD amd9"),
    # ------------------------------------------------ message passing (W->W)
    "mp": T([[St("x", 1), St("y", 1)],
             [Ld("r0", "y"), Ld("r1", "x")]],
            "r0={r0} r1={r1}", "r0=1 r1=0", F, F, A,
            "Intel SDM 8.2.3.2 (iwp2.1), AMD amd1"),
    "mp_mfence": T([[St("x", 1), Mfence(), St("y", 1)],
                    [Ld("r0", "y"), Mfence(), Ld("r1", "x")]],
                   "r0={r0} r1={r1}", "r0=1 r1=0", F, F, F,
                   "MP+mfences (herd/diy naming)"),
    "mp_xchg": T([[St("x", 1), Xchg(None, "y", 1)],
                  [Ld("r0", "y"), Ld("r1", "x")]],
                 "r0={r0} r1={r1}", "r0=1 r1=0", F, F, F,
                 "written for x86smc (a locked store orders earlier "
                 "stores, also on PSO)"),
    "mp_pso_fifo": T([[St("x", 1), St("x", 2), St("y", 1)],
                      [Ld("r0", "y"), Ld("r1", "x"), Ld("r2", "x")]],
                     "r0={r0} r1={r1} r2={r2}", "r0=1 r1=0 r2=0", F, F, A,
                     "written for x86smc (PSO W->W reordering, "
                     "per-address FIFO)"),
    "s": T([[St("x", 2), St("y", 1)],
            [Ld("r0", "y"), St("x", 1)]],
           "r0={r0} x={x}", "r0=1 x=2", F, F, A, "S (herd/diy naming)"),
    "2plus2w": T([[St("x", 1), St("y", 2)],
                  [St("y", 1), St("x", 2)]],
                 "x={x} y={y}", "x=1 y=1", F, F, A, "2+2W (herd/diy naming)"),
    "isa2": T([[St("x", 1), St("y", 1)],
               [Ld("r0", "y"), St("z", 1)],
               [Ld("r1", "z"), Ld("r2", "x")]],
              "r0={r0} r1={r1} r2={r2}", "r0=1 r1=1 r2=0", F, F, A,
              "ISA2 (herd/diy naming)",
              vars=("x", "y", "z")),
    # ------------------------------------------------ R->W, R->R, causality
    "r": T([[St("x", 1), St("y", 1)],
            [St("y", 2), Ld("r0", "x")]],
           "r0={r0} y={y}", "r0=0 y=2", F, A, A, "R (herd/diy naming)"),
    "lb": T([[Ld("r0", "x"), St("y", 1)],
             [Ld("r1", "y"), St("x", 1)]],
            "r0={r0} r1={r1}", "r0=1 r1=1", F, F, F,
            "Intel SDM 8.2.3.3 (iwp2.2), AMD amd2"),
    "iriw": T([[St("x", 1)],
               [St("y", 1)],
               [Ld("r0", "x"), Ld("r1", "y")],
               [Ld("r2", "y"), Ld("r3", "x")]],
              "r0={r0} r1={r1} r2={r2} r3={r3}", "r0=1 r1=0 r2=1 r3=0",
              F, F, F, "Intel SDM 8.2.3.7, AMD amd6"),
    "iriw_xchgs": T([[Xchg(None, "x", 1)],
                     [Xchg(None, "y", 1)],
                     [Ld("r0", "x"), Ld("r1", "y")],
                     [Ld("r2", "y"), Ld("r3", "x")]],
                    "r0={r0} r1={r1} r2={r2} r3={r3}",
                    "r0=1 r1=0 r2=1 r3=0", F, F, F,
                    "Intel SDM 8.2.3.8, locked instructions have a total "
                    "order (iwp2.7), AMD amd7"),
    "wrc": T([[St("x", 1)],
              [Ld("r0", "x"), St("y", 1)],
              [Ld("r1", "y"), Ld("r2", "x")]],
             "r0={r0} r1={r1} r2={r2}", "r0=1 r1=1 r2=0", F, F, F,
             "Intel SDM 8.2.3.6, stores are transitively visible "
             "(iwp2.5), AMD amd8"),
    "rwc": T([[St("x", 1)],
              [Ld("r0", "x"), Ld("r1", "y")],
              [St("y", 1), Ld("r2", "x")]],
             "r0={r0} r1={r1} r2={r2}", "r0=1 r1=0 r2=0", F, A, A,
             "RWC (herd/diy naming)"),
    # ------------------------------------------------ x86-TSO paper n1..n8
    "n1": T([[St("x", 2), Ld("r0", "y")],
             [St("y", 1), St("x", 1)],
             [Ld("r1", "x"), Ld("r2", "x")]],
            "r0={r0} r1={r1} r2={r2}", "r0=0 r1=1 r2=2", F, A, A,
            "n1, x86-TSO paper (Owens/Sarkar/Sewell, TPHOLs 2009)"),
    "ww_rr_ww_rr": T([[St("y", 1), St("x", 1)],
                      [Ld("r0", "x"), Ld("r1", "x")],
                      [St("x", 2), St("z", 1)],
                      [Ld("r2", "z"), Ld("r3", "y")]],
                     "r0={r0} r1={r1} r2={r2} r3={r3}",
                     "r0=1 r1=2 r2=1 r3=0", F, F, A,
                     "believed to be n2 of the x86-TSO paper (shape taken "
                     "from a RISC-V Ztso adaptation; not confirmed)",
                     vars=("x", "y", "z")),
    "iriw_xchg": T([[Xchg(None, "x", 1)],
                    [St("y", 1)],
                    [Ld("r0", "y"), Ld("r1", "x"), Ld("r2", "x")],
                    [Ld("r3", "x"), Ld("r4", "y"), Ld("r5", "y")]],
                   "r0={r0} r1={r1} r2={r2} r3={r3} r4={r4} r5={r5}",
                   "r0=1 r1=0 r2=1 r3=1 r4=0 r5=1", F, F, F,
                   "believed to be n3 of the x86-TSO paper (IRIW with a "
                   "locked write; shape not confirmed)"),
    "n4": T([[Ld("r0", "x"), St("x", 1), Ld("r1", "x")],
             [Ld("r2", "x"), St("x", 2), Ld("r3", "x")]],
            "r0={r0} r1={r1} r2={r2} r3={r3}", "r0=2 r1=1 r2=1 r3=2",
            F, F, F, "n4, x86-TSO paper", vars=("x",)),
    "n4b": T([[Ld("r0", "x"), St("x", 1)],
              [Ld("r1", "x"), St("x", 2)]],
             "r0={r0} r1={r1}", "r0=2 r1=1", F, F, F,
             "n4b, x86-TSO CACM paper (Sewell et al. 2010)", vars=("x",)),
    "n5": T([[St("x", 1), Ld("r0", "x")],
             [St("x", 2), Ld("r1", "x")]],
            "r0={r0} r1={r1}", "r0=2 r1=1", F, F, F,
            "n5, x86-TSO papers", vars=("x",)),
    "n6": T([[St("x", 1), Ld("r0", "x"), Ld("r1", "y")],
             [St("y", 2), St("x", 2)]],
            "r0={r0} r1={r1} x={x}", "r0=1 r1=0 x=1", F, A, A,
            "n6, x86-TSO papers"),
    "n7": T([[St("x", 1), Ld("r0", "x"), Ld("r1", "y")],
             [St("y", 1)],
             [Ld("r2", "y"), Ld("r3", "x")]],
            "r0={r0} r1={r1} r2={r2} r3={r3}", "r0=1 r1=0 r2=1 r3=0",
            F, A, A, "n7, x86-TSO paper"),
    "n8": T([[Xchg(None, "x", 1), Ld("r0", "y")],
             [St("y", 1), Ld("r1", "x")]],
            "r0={r0} r1={r1}", "r0=0 r1=0", F, A, A,
            "n8, x86-TSO paper (XCHG on one side only)"),
    # ------------------------------------------------ mixed-size forwarding
    "mixed_forward": T([[St("x", 0x11, size=1, off=1), Ld("r0", "x")],
                        [St("x", 0x22222222), Ld("r1", "x", size=1, off=1)]],
                       "r0=0x{r0:08x} r1=0x{r1:02x} x=0x{x:08x}",
                       "r0=0x00001100 r1=0x22 x=0x22221122", F, A, A,
                       "written for x86smc (byte-granular forwarding)",
                       vars=("x",)),
}
