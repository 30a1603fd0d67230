#!/usr/bin/env python3
"""Run x86smc on SV-COMP ConcurrencySafety tasks and score the answers.

Standard library only.  See tests/svcomp/README.md.  The tasks themselves
are never part of this repository: point --dir at a copy of the public
sv-benchmarks tree (c/pthread*/..., c/properties/...).
"""

import argparse
import csv
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "contrib", "svcomp"))
from svcomp_build import compile_task, nondet_kinds, pick_source  # noqa: E402

# Score of SV-COMP (since 2018): correct true +2, correct false +1,
# wrong true -32, wrong false -16, unknown 0.
def score_of(expected, answer):
    if answer not in ("true", "false") or expected not in ("true", "false"):
        return 0
    if answer == expected:
        return 2 if answer == "true" else 1
    return -32 if answer == "true" else -16


# --- a small reader for the task .yml files (format_version 1.0 - 2.x) ---
def _unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1]
    return s


def parse_task_yml(path):
    """Returns {'input_files': [...], 'properties': [{'property_file',
    'expected_verdict', 'subproperty'}], 'options': {...}}."""
    task = {"input_files": [], "properties": [], "options": {}}
    section = None
    cur = None
    with open(path) as f:
        lines = f.read().splitlines()
    for raw in lines:
        line = raw.split(" #")[0].rstrip() if not raw.lstrip().startswith("#") else ""
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        s = line.strip()
        if indent == 0:
            cur = None
            key, _, val = s.partition(":")
            key = key.strip()
            val = val.strip()
            section = key
            if key == "input_files" and val:
                if val.startswith("["):
                    task["input_files"] = [_unquote(v) for v in val.strip("[]").split(",") if v.strip()]
                else:
                    task["input_files"] = [_unquote(val)]
            elif key == "format_version":
                task["format_version"] = _unquote(val)
            continue
        if section == "input_files" and s.startswith("- "):
            task["input_files"].append(_unquote(s[2:]))
        elif section == "properties":
            if s.startswith("- "):
                cur = {}
                task["properties"].append(cur)
                s = s[2:]
            if cur is not None and ":" in s:
                k, _, v = s.partition(":")
                cur[k.strip()] = _unquote(v)
        elif section == "options" and ":" in s:
            k, _, v = s.partition(":")
            task["options"][k.strip()] = _unquote(v)
    return task


def prop_name(property_file):
    return os.path.basename(property_file).rsplit(".prp", 1)[0]


def run_task(args, x86smc, build, task_path, prop, expected, rel):
    safe = rel.replace("/", "__") + "." + prop
    res = {
        "task": rel, "property": prop, "expected": expected, "source": "",
        "note": "", "executions": None, "seconds": None, "complete": None,
        "errors": "", "exit": None, "answer": "unknown", "why": "",
        "nondet": "", "score": 0,
    }
    yml = parse_task_yml(task_path)
    task_dir = os.path.dirname(task_path)
    if len(yml["input_files"]) != 1:
        res["why"] = "input_files: %d files" % len(yml["input_files"])
        return res
    src, note = pick_source(task_dir, yml["input_files"][0])
    res["note"] = note
    if src is None:
        res["why"] = note
        return res
    res["source"] = os.path.relpath(src, args.dir)
    try:
        with open(src, errors="replace") as f:
            kinds = nondet_kinds(f.read())
    except OSError:
        kinds = []
    res["nondet"] = ",".join(kinds)
    binary = os.path.join(build, "bin", rel.replace("/", "__"))
    os.makedirs(os.path.dirname(binary), exist_ok=True)
    stub = os.path.join(build, "stub", rel.replace("/", "__") + ".c")
    os.makedirs(os.path.dirname(stub), exist_ok=True)
    ok, cnote, msg = compile_task(src, binary, stub)
    if cnote:
        res["note"] = (res["note"] + "; " if res["note"] else "") + cnote
    if not ok:
        res["why"] = "compile error: " + msg
        return res
    jpath = os.path.join(build, "json", safe + ".json")
    os.makedirs(os.path.dirname(jpath), exist_ok=True)
    if os.path.exists(jpath):
        os.unlink(jpath)
    prp = os.path.join(args.dir, "c", "properties", prop + ".prp")
    cmd = [x86smc, "--property", prp, "--timeout", str(args.timeout),
           "--jobs", str(args.jobs), "--json", jpath]
    if args.model:
        cmd += ["--model", args.model]
    if args.nondet_domain:
        cmd += ["--nondet-domain", args.nondet_domain]
    if args.witness:
        wpath = os.path.join(build, "witness", safe + ".yml")
        os.makedirs(os.path.dirname(wpath), exist_ok=True)
        cmd += ["--witness", wpath]
    cmd += args.extra
    cmd.append(binary)
    res["x86smc_options"] = " ".join(c for c in cmd[1:-1] if c not in (jpath, "--json", prp))
    t0 = time.time()
    logpath = os.path.join(build, "log", safe + ".txt")
    os.makedirs(os.path.dirname(logpath), exist_ok=True)
    rc = None
    with open(logpath, "w") as log:
        try:
            q = subprocess.run(cmd, stdout=log, stderr=subprocess.STDOUT,
                               timeout=args.timeout + 60, cwd=build)
            rc = q.returncode
        except subprocess.TimeoutExpired:
            rc = None
    res["seconds"] = round(time.time() - t0, 2)
    res["exit"] = rc
    js = {}
    if os.path.exists(jpath):
        try:
            with open(jpath) as f:
                js = json.load(f)
        except ValueError:
            js = {}
    with open(logpath, errors="replace") as f:
        tail = [l.strip() for l in f.read().splitlines() if l.strip()]
    res["executions"] = js.get("executions")
    res["complete"] = js.get("complete")
    res["errors"] = "+".join(e.get("kind", "?") for e in js.get("errors") or [])
    if rc is None:
        res["why"] = "hung past the timeout (killed by run.py)"
    elif not js.get("answer"):
        last = tail[-1] if tail else "exit %s, no output" % rc
        res["why"] = "x86smc: " + (last[len("x86smc: "):] if last.startswith("x86smc: ") else last)[:200]
    else:
        res["answer"] = js["answer"]
        res["why"] = js.get("answer_reason", "")
        if rc == 3 and "not complete" in res["why"] and res["seconds"] >= args.timeout - 1:
            res["why"] = "timeout (%ss): %s" % (args.timeout, res["why"])
    res["score"] = score_of(expected, res["answer"])
    return res


def print_line(w, r):
    print("%-*s  %-12s  %-5s  %-7s  %9s  %7s  %s" % (
        w, r["task"], r["property"], r["expected"], r["answer"],
        "" if r.get("executions") is None else r["executions"],
        "" if r.get("seconds") is None else r["seconds"],
        r.get("why") or ""), flush=True)


def print_header(w):
    print("%-*s  %-12s  %-5s  %-7s  %9s  %7s  %s" % (w, "task", "property", "exp", "answer",
                                                    "execs", "secs", "why unknown"))


SUPPORTED = ("unreach-call", "no-data-race")


def find_tasks(args):
    """(yml, task, property, expected) for every task with one of the
    properties asked for."""
    out = []
    for dirpath, dirnames, filenames in os.walk(args.dir):
        dirnames.sort()
        for fn in sorted(filenames):
            if not fn.endswith(".yml"):
                continue
            full = os.path.join(dirpath, fn)
            rel = os.path.relpath(full, args.dir)[:-4]
            if args.tasks and not any(fnmatch.fnmatch(rel, g) or fnmatch.fnmatch(os.path.basename(rel), g)
                                      for g in args.tasks):
                continue
            try:
                yml = parse_task_yml(full)
            except (OSError, UnicodeDecodeError):
                continue
            for p in yml["properties"]:
                name = prop_name(p.get("property_file", ""))
                if name in args.property:
                    out.append((full, rel, name, str(p.get("expected_verdict", "")).lower()))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", default="/work/.cache/sv-benchmarks",
                    help="task tree (default %(default)s)")
    ap.add_argument("--property", action="append", default=[],
                    help="property name, as in ../properties/NAME.prp (repeatable; "
                         "default unreach-call and no-data-race)")
    ap.add_argument("--tasks", action="append", default=[],
                    help="glob over 'c/DIR/TASK' or 'TASK' (repeatable)")
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--model", default=None,
                    help="passed to x86smc (default: its own under --property, sc)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--x86smc", default=os.path.join(ROOT, "x86smc"),
                    help="the binary (copied to /tmp first; default %(default)s)")
    ap.add_argument("--nondet-domain", default=None,
                    help="passed to x86smc (default: x86smc's own, 0..1)")
    ap.add_argument("--witness", action="store_true",
                    help="pass --witness (build/svcomp/witness/TASK.PROP.yml)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build", "svcomp"))
    ap.add_argument("--out", default="results",
                    help="basename of the tables in --build (default %(default)s)")
    ap.add_argument("--merge", nargs="+", metavar="JSON",
                    help="run nothing: merge tables of earlier runs (a later file "
                         "wins for a task), print them and their scores, write --out")
    ap.add_argument("--markdown", action="store_true",
                    help="also print the table as Markdown (for docs/SVCOMP.md)")
    ap.add_argument("extra", nargs="*", help="after --: more x86smc options")
    args = ap.parse_args()
    args.dir = os.path.abspath(args.dir)
    args.property = args.property or list(SUPPORTED)

    if args.merge:
        byname = {}
        for path in args.merge:
            with open(path) as f:
                for r in json.load(f)["results"]:
                    byname[(r["task"], r["property"])] = r       # a later file wins
        results = [byname[k] for k in sorted(byname)]
        if args.tasks:
            results = [r for r in results if any(
                fnmatch.fnmatch(r["task"], g) or fnmatch.fnmatch(os.path.basename(r["task"]), g)
                for g in args.tasks)]
        w = max(len(r["task"]) for r in results)
        print_header(w)
        for r in results:
            print_line(w, r)
        return report(args, results)

    tasks = find_tasks(args)
    if not tasks:
        print("no task with property %s under %s" % (args.property, args.dir), file=sys.stderr)
        return 2
    os.makedirs(args.build, exist_ok=True)
    if not os.path.exists(args.x86smc):
        print("no x86smc at %s (make first)" % args.x86smc, file=sys.stderr)
        return 2
    tmpd = tempfile.mkdtemp(prefix="x86smc-svcomp.")
    x86smc = os.path.join(tmpd, "x86smc")
    shutil.copy2(args.x86smc, x86smc)

    results = []
    w = max(len(t[1]) for t in tasks)
    print_header(w)
    try:
        for full, rel, prop, expected in tasks:
            if prop not in SUPPORTED:
                r = {"task": rel, "property": prop, "expected": expected,
                     "answer": "unknown", "why": "property not supported by x86smc",
                     "score": 0}
            else:
                r = run_task(args, x86smc, args.build, full, prop, expected, rel)
            results.append(r)
            print_line(w, r)
    finally:
        shutil.rmtree(tmpd, ignore_errors=True)
    return report(args, results)


def tally(results):
    t = {"correct_true": 0, "correct_false": 0, "wrong_true": 0,
         "wrong_false": 0, "unknown": 0}
    for r in results:
        a = r["answer"]
        if a not in ("true", "false"):
            t["unknown"] += 1
        elif a == r["expected"]:
            t["correct_" + a] += 1
        else:
            t["wrong_" + a] += 1
    t["score"] = sum(r["score"] for r in results)
    return t


def markdown(results):
    print("| task | property | expected | answer | time (s) | score | why unknown / note |")
    print("| --- | --- | --- | --- | ---: | ---: | --- |")
    for r in results:
        why = (r.get("why") or "").replace("|", "\\|")
        if len(why) > 110:
            why = why[:107] + "..."
        print("| %s | %s | %s | %s | %s | %d | %s |" % (
            r["task"], r["property"], r["expected"], r["answer"],
            "" if r.get("seconds") is None else r["seconds"], r["score"], why))


def report(args, results):
    t = tally(results)
    print()
    print("%d tasks x properties, model %s, timeout %ss" % (
        len(results), args.model or "sc (x86smc's default under --property)", args.timeout))
    print("score %d: correct true %d, correct false %d, wrong true %d, wrong false %d, "
          "unknown %d" % (t["score"], t["correct_true"], t["correct_false"],
                          t["wrong_true"], t["wrong_false"], t["unknown"]))
    if args.markdown:
        print()
        markdown(results)
    out = {"properties": args.property, "model": args.model, "timeout": args.timeout,
           "score": t, "results": results}
    jout = os.path.join(args.build, args.out + ".json")
    with open(jout, "w") as f:
        json.dump(out, f, indent=1)
    cout = os.path.join(args.build, args.out + ".csv")
    cols = ["task", "property", "expected", "answer", "score", "executions", "seconds",
            "complete", "errors", "exit", "why", "nondet", "source", "note",
            "x86smc_options"]
    with open(cout, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        wr.writeheader()
        for r in results:
            wr.writerow(r)
    print("tables: %s, %s" % (jout, cout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
