"""Build an SV-COMP task for x86smc: pick the source, define SV-COMP's
__VERIFIER_* functions, compile.  Standard library only; used by
contrib/svcomp/x86smc-svcomp (the BenchExec entry point) and
tests/svcomp/run.py.  See docs/SVCOMP.md."""

import os
import re
import subprocess

# Functions x86smc hooks by symbol (docs/EVENTS.md, "Benchmark conventions").
NONDET_HOOKED = {
    "int": "int", "uint": "unsigned int", "unsigned": "unsigned int",
    "bool": "_Bool", "char": "char", "uchar": "unsigned char",
    "short": "short", "ushort": "unsigned short", "long": "long",
    "ulong": "unsigned long", "longlong": "long long",
    "ulonglong": "unsigned long long", "size_t": "unsigned long",
    "pointer": "void *", "u8": "unsigned char", "u16": "unsigned short",
    "u32": "unsigned int", "s8": "signed char", "s16": "short", "s32": "int",
    "s64": "long", "u64": "unsigned long", "loff_t": "long",
    "sector_t": "unsigned long", "charp": "char *",
}
# Defined so that the program links, but NOT hooked: they return 0.
NONDET_UNHOOKED = {
    "float": "float", "double": "double", "int128": "__int128",
    "uint128": "unsigned __int128", "u128": "unsigned __int128",
}

STUB_HEAD = """\
/* Written by contrib/svcomp/svcomp_build.py.  SV-COMP's __VERIFIER_* functions as real
 * (weak, so a task's own definition wins) functions: x86smc hooks them by
 * symbol (docs/EVENTS.md) and never runs these bodies, except the
 * __VERIFIER_nondet_* kinds it does not know (float, double, ...), which
 * return 0. */
#define W __attribute__((weak, noinline, noipa, used))
W void reach_error(void) { }
W void __VERIFIER_error(void) { }
W void __VERIFIER_assume(int c) { if (!c) for (;;) ; }
W void __VERIFIER_atomic_begin(void) { }
W void __VERIFIER_atomic_end(void) { }
"""

def write_stub(path, used=None):
    """used: the nondet kinds the program calls (None: all).  An unhooked
    kind is defined only when used: x86smc answers unknown for a program
    that defines one (its values are not explored)."""
    lines = [STUB_HEAD]
    for k, t in sorted(NONDET_HOOKED.items()):
        lines.append("W %s __VERIFIER_nondet_%s(void) { return 0; }\n" % (t, k))
    for k, t in sorted(NONDET_UNHOOKED.items()):
        if used is None or k in used:
            lines.append("W %s __VERIFIER_nondet_%s(void) { return 0; }\n" % (t, k))
    text = "".join(lines)
    with open(path, "w") as f:
        f.write(text)


def pick_source(task_dir, input_file):
    """The file to compile, and a note.  A .i is preprocessed for the
    task's data model (ILP32 for most c/pthread* tasks: 32-bit glibc
    headers, pthread_mutex_t of 24 bytes ...), which is wrong on x86-64;
    so the .c next to it is preferred when there is one."""
    path = os.path.join(task_dir, input_file)
    if input_file.endswith(".i"):
        c = path[:-2] + ".c"
        if os.path.exists(c):
            return c, "compiled %s instead of %s" % (os.path.basename(c), input_file)
        if os.path.exists(path):
            return path, "compiled the .i (ILP32 headers on x86-64: layouts may be wrong)"
        return None, "neither %s nor its .c is here" % input_file
    if os.path.exists(path):
        return path, ""
    return None, "%s is not here" % input_file


def nondet_kinds(src_text):
    return sorted(set(re.findall(r"__VERIFIER_nondet_(\w+)\s*\(", src_text)))



def compile_task(src, binary, stub, cc="gcc"):
    """Compile src with the stub (written here for the nondet kinds src
    calls) into binary, at -O0 with DWARF.  Returns (ok, note, message):
    note says what was special (gnu89 inline), message the compiler's
    last line when it failed."""
    try:
        with open(src, errors="replace") as f:
            kinds = nondet_kinds(f.read())
    except OSError as e:
        return False, "", str(e)
    write_stub(stub, set(kinds))
    cmd = [cc, "-O0", "-g", "-pthread", "-w", "-o", binary, src, stub, "-lm"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    note = ""
    if p.returncode != 0 and "undefined reference" in p.stdout:
        # C99 'inline' without 'static' or 'extern' defines no symbol: the
        # tasks are written for gnu89 inline semantics (scull, 03_incdec ...).
        p = subprocess.run(cmd[:5] + ["-fgnu89-inline"] + cmd[5:], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        note = "-fgnu89-inline"
    if p.returncode != 0:
        return False, note, (p.stdout.strip().splitlines() or ["?"])[-1][:200]
    return True, note, ""
