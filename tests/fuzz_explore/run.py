#!/usr/bin/env python3
"""run.py -- differential fuzzer of x86smc's exploration (issue 15).

For each seed, gen.py writes a small random pthread program; it is compiled
(gcc -O0 -g -pthread, every fourth seed -O2) and, for each memory model,
explored by dpor (the default strategy), exhaustive (bounded), random
(sampled) and sometimes dpor with --jobs 2.  The outcome sets (stdout +
status) and the summaries must agree; README.md lists the checks.

    python3 tests/fuzz_explore/run.py --seeds 0..99
    python3 tests/fuzz_explore/run.py --quick            # make check
    python3 tests/fuzz_explore/run.py --minimize 17 [--model tso] [--kind K]
"""
import argparse
import concurrent.futures
import json
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True   # no __pycache__ in the tree
import gen  # noqa: E402

MODELS = ['sc', 'tso', 'pso']
# Findings that fail the run; LESSER ones are reported but do not.
LESSER = {'not-optimal', 'not-optimal-early-end', 'jobs-count', 'native-hang', 'dpor-incomplete'}
# The fixed set `--quick` (make check) runs: plain and corner programs
# without the corners known to be wrong, about one minute in all.
QUICK_SEEDS = [2, 5, 6, 8, 9, 12, 14, 19, 21, 24, 28, 33, 40, 49, 53, 57, 64, 73]
# and these, class corners with every corner on: small programs that reach
# the three corners once known wrong (gen.KNOWN: syscalls and printf on a
# shared buffer)
QUICK_KNOWN = [1, 17, 110]
SIGKIND = {'SIGABRT': 'assertion', 'SIGSEGV': 'crash', 'SIGBUS': 'crash',
           'SIGFPE': 'crash', 'SIGILL': 'crash', 'SIGTRAP': 'crash'}
IGNORED_STATUS = {'max-steps', 'assume-blocked'}


def status_kind(status):
    """The error kind an outcome status implies (None: no error)."""
    if status == 'exit 0':
        return None
    if status.startswith('exit '):
        return 'exit-code'
    if status.startswith('signal '):
        return SIGKIND.get(status[7:], 'signal')
    if status in ('deadlock', 'livelock', 'verifier-error'):
        return status
    return None


def oset(js):
    return {(o['stdout'], o['status']) for o in js.get('outcomes', [])
            if o['status'] not in IGNORED_STATUS}


def end_tag(missing):
    """':end' when every outcome in `missing` ends in an error (the
    family of an execution's end racing with other threads' output)."""
    return ':end' if missing and all(status_kind(st) for _, st in missing) else ''


def fmt_set(s):
    return '{' + ', '.join('%r/%s' % (o, st) for o, st in sorted(s)) + '}'


ACTIVE = set()   # process groups of running x86smc's (killed on SIGTERM/^C)


def on_signal(sig, frame):
    for pg in list(ACTIVE):
        try:
            os.killpg(pg, signal.SIGKILL)
        except OSError:
            pass
    sys.stderr.write('run.py: stopped by signal %d\n' % sig)
    os._exit(130)


class Runner:
    def __init__(self, a):
        self.a = a
        self.out = a.out
        os.makedirs(os.path.join(self.out, 'work'), exist_ok=True)
        # our own copy: the tree's ./x86smc is rebuilt often
        src = a.x86smc
        self.x86 = os.path.join(self.out, 'work', 'x86smc')
        tmp = self.x86 + '.tmp%d' % os.getpid()
        shutil.copy2(src, tmp)
        os.replace(tmp, self.x86)

    # -- processes ---------------------------------------------------------
    def run(self, args, jpath, timeout):
        """Run x86smc; returns a dict: rc, js (JSON or None), err, elapsed,
        hang, leftover."""
        if os.path.exists(jpath):
            os.unlink(jpath)
        cmd = [self.x86] + args
        t0 = time.time()
        res = dict(cmd=cmd, hang=False, leftover=[])
        with open(jpath + '.out', 'wb') as fo, open(jpath + '.err', 'wb') as fe:
            p = subprocess.Popen(cmd, stdout=fo, stderr=fe,
                                 stdin=subprocess.DEVNULL,
                                 start_new_session=True)
            ACTIVE.add(p.pid)
            try:
                res['rc'] = p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                res['hang'] = True
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                res['rc'] = p.wait()
            finally:
                ACTIVE.discard(p.pid)
        res['elapsed'] = time.time() - t0
        res['leftover'] = self.leftovers(p.pid)
        with open(jpath + '.err', 'rb') as f:
            res['err'] = f.read()[-3000:].decode('utf-8', 'replace')
        try:
            with open(jpath) as f:
                res['js'] = json.load(f)
        except (OSError, ValueError):
            res['js'] = None
        return res

    def leftovers(self, sid):
        """Processes still in the session of x86smc (pid sid) after it
        ended: reported, then killed (they are ours)."""
        found = []
        for _ in range(10):
            found = []
            for d in os.listdir('/proc'):
                if not d.isdigit():
                    continue
                try:
                    with open('/proc/%s/stat' % d) as f:
                        st = f.read()
                    fields = st[st.rindex(')') + 2:].split()
                    if int(fields[3]) == sid and fields[0] != 'Z':
                        found.append(int(d))
                except (OSError, ValueError, IndexError):
                    pass
            if not found:
                return []
            time.sleep(0.1)
        desc = []
        for pid in found:
            try:
                with open('/proc/%d/cmdline' % pid, 'rb') as f:
                    desc.append('%d %s' % (pid, f.read().replace(b'\0', b' ')
                                           .decode('utf-8', 'replace')[:80]))
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        return desc

    def native(self, binary, n):
        outs = set()
        hang = False
        for _ in range(n):
            try:
                p = subprocess.run([binary], stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL,
                                   stdin=subprocess.DEVNULL, timeout=10,
                                   start_new_session=True)
            except subprocess.TimeoutExpired:
                hang = True
                continue
            try:
                o = p.stdout.decode('utf-8')
            except UnicodeDecodeError:
                o = p.stdout.decode('latin-1')
            rc = p.returncode
            st = 'exit %d' % rc if rc >= 0 else \
                'signal ' + signal.Signals(-rc).name
            outs.add((o, st))
        return outs, hang

    # -- one program ---------------------------------------------------------
    def build(self, prog, opt, tag):
        d = os.path.join(self.out, 'work')
        src = os.path.join(d, tag + '.c')
        binary = os.path.join(d, tag)
        with open(src, 'w') as f:
            f.write(gen.render(prog))
        r = subprocess.run(['gcc', opt, '-g', '-pthread', '-o', binary, src],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise RuntimeError('gcc failed on %s:\n%s' % (src, r.stdout.decode()))
        return src, binary

    def runs_for(self, seed, model, binary, tag, which, jobs2):
        """Run the strategies `which` (subset of dpor exh rand jobs2)."""
        a = self.a
        d = os.path.join(self.out, 'work')
        base = ['--model', model, '--keep-going']
        R = {}
        grace = 30
        if 'dpor' in which:
            j = os.path.join(d, '%s-%s-dpor.json' % (tag, model))
            R['dpor'] = self.run(base + ['--json', j, '--timeout',
                                         str(a.timeout), binary], j,
                                 a.timeout + grace)
        if 'exh' in which:
            # dpor's count predicts whether exhaustive can finish: if not,
            # a short run still checks that what it reaches is in dpor's set
            n = a.exh_max
            dj = R.get('dpor', {}).get('js')
            if dj and (not dj['complete'] or dj['executions'] > a.exh_max // 80):
                n = a.exh_short
            j = os.path.join(d, '%s-%s-exh.json' % (tag, model))
            R['exh'] = self.run(base + ['--json', j, '--strategy', 'exhaustive',
                                        '--max-executions', str(n),
                                        '--timeout', str(a.exh_timeout),
                                        binary], j, a.exh_timeout + grace)
        if 'rand' in which:
            j = os.path.join(d, '%s-%s-rand.json' % (tag, model))
            R['rand'] = self.run(base + ['--json', j, '--strategy', 'random',
                                         '--seed', str(seed),
                                         '--max-executions', str(a.rand_max),
                                         '--timeout', str(a.exh_timeout),
                                         binary], j, a.exh_timeout + grace)
        if 'jobs2' in which and jobs2:
            j = os.path.join(d, '%s-%s-jobs2.json' % (tag, model))
            R['jobs2'] = self.run(base + ['--json', j, '--jobs', '2',
                                          '--timeout', str(a.timeout),
                                          binary], j, a.timeout + grace)
        return R

    def check_model(self, R, native, model):
        """Findings [(kind, detail)] of one model's runs."""
        F = []
        for name, r in R.items():
            if r['hang']:
                F.append(('hang', '%s: no exit 30 s after its --timeout'
                          % name))
                continue
            if r['leftover']:
                F.append(('leftover', '%s: %s' % (name, '; '.join(r['leftover']))))
            if r['rc'] < 0 or r['rc'] > 3:
                F.append(('x86smc-crash', '%s: exit status %d: %s'
                          % (name, r['rc'], r['err'][-300:])))
                continue
            if r['rc'] == 2:
                F.append(('status2', '%s: %s' % (name, r['err'].strip()[-300:])))
                continue
            js = r['js']
            if js is None:
                F.append(('json', '%s: no JSON summary (exit %d)' % (name, r['rc'])))
                continue
            ek = {e['kind'] for e in js['errors']}
            ok = {status_kind(st) for _, st in oset(js)} - {None}
            if ek != ok:
                F.append(('errors-vs-outcomes', '%s: error kinds %s, outcome '
                          'statuses imply %s' % (name, sorted(ek), sorted(ok))))
            want = 1 if js['errors'] else (0 if js['complete'] else 3)
            if r['rc'] != want:
                F.append(('exit-status', '%s: exit %d, complete %s, %d errors'
                          % (name, r['rc'], js['complete'], len(js['errors']))))
        ok = {n: r['js'] for n, r in R.items()
              if r['js'] is not None and not r['hang'] and r['rc'] in (0, 1, 3)}
        d = ok.get('dpor')
        e = ok.get('exh')
        if d and e and d['complete'] and e['complete']:
            if oset(d) != oset(e):
                F.append(('dpor-vs-exhaustive' + end_tag(oset(e) ^ oset(d)), 'exhaustive only: %s; dpor only: %s'
                          % (fmt_set(oset(e) - oset(d)), fmt_set(oset(d) - oset(e)))))
            if d['executions'] != e.get('hb_classes'):
                early = any(status_kind(st) for _, st in oset(e))
                F.append(('not-optimal-early-end' if early else 'not-optimal', 'dpor %d executions, exhaustive %s '
                          'happens-before classes' % (d['executions'],
                                                      e.get('hb_classes'))))
        if d and d['complete']:
            for n in ('exh', 'rand'):
                if n == 'exh' and e and e['complete']:
                    continue    # compared above
                if ok.get(n) and oset(ok[n]) - oset(d):
                    F.append(('dpor-missing' + end_tag(oset(ok[n]) - oset(d)), '%s reached %s, not in complete dpor'
                              % (n, fmt_set(oset(ok[n]) - oset(d)))))
        if d and e and e['complete'] and not d['complete']:
            F.append(('dpor-incomplete', 'exhaustive completed (%d executions), '
                      'dpor did not' % e['executions']))
        if d and d['complete'] and model in ('tso', 'pso') and native - oset(d):
            F.append(('native-outside' + end_tag(native - oset(d)), 'native runs gave %s, not in complete dpor'
                      % fmt_set(native - oset(d))))
        j = ok.get('jobs2')
        if d and j:
            if d['complete'] and not j['complete']:
                F.append(('jobs', '--jobs 2 incomplete, --jobs 1 complete'))
            elif d['complete'] and j['complete']:
                if oset(d) != oset(j):
                    F.append(('jobs', '--jobs 1 only: %s; --jobs 2 only: %s'
                              % (fmt_set(oset(d) - oset(j)), fmt_set(oset(j) - oset(d)))))
                if d['executions'] != j['executions']:
                    F.append(('jobs-count', '--jobs 1 %d executions, --jobs 2 %d'
                              % (d['executions'], j['executions'])))
            elif not d['complete'] and j['complete'] and oset(d) - oset(j):
                F.append(('jobs', 'complete --jobs 2 lacks %s that --jobs 1 reached'
                          % fmt_set(oset(d) - oset(j))))
        return F

    def check_inclusion(self, per_model):
        """sc outcomes within tso's, tso's within pso's (complete dpor)."""
        F = []
        for lo, hi in (('sc', 'tso'), ('tso', 'pso'), ('sc', 'pso')):
            a = per_model.get(lo)
            b = per_model.get(hi)
            if not a or not b:
                continue
            ja = a.get('dpor', {}).get('js')
            jb = b.get('dpor', {}).get('js')
            if ja and jb and ja['complete'] and jb['complete'] and \
                    oset(ja) - oset(jb):
                F.append((hi, 'model-inclusion' + end_tag(oset(ja) - oset(jb)), '%s outcomes %s missing under %s'
                          % (lo, fmt_set(oset(ja) - oset(jb)), hi)))
        return F

    def program(self, seed, cls, models, prog=None, which=None, quiet=False):
        a = self.a
        if prog is None:
            prog = gen.generate(seed, cls, a.disabled, a.pso_locs, a.size)
        opt = a.opt or ('-O2' if seed % 4 == 3 else '-O0')
        tag = 's%d%s' % (seed, opt)
        src, binary = self.build(prog, opt, tag)
        # every Nth seed; always when asked for explicitly (--minimize)
        jobs2 = (which is not None and 'jobs2' in which) or \
            (a.jobs2_every > 0 and seed % a.jobs2_every == 0)
        which = which or {'dpor', 'exh', 'rand', 'jobs2', 'native'}
        native, nhang = (self.native(binary, a.native_runs)
                         if 'native' in which else (set(), False))
        per = {}
        findings = []
        for m in models:
            R = self.runs_for(seed, m, binary, tag, which, jobs2)
            per[m] = R
            for k, det in self.check_model(R, native, m):
                findings.append((m, k, det))
        for m, k, det in self.check_inclusion(per):
            findings.append((m, k, det))
        if nhang:
            findings.append(('-', 'native-hang', 'a native run did not end in 10 s'))
        return dict(seed=seed, prog=prog, opt=opt, src=src, binary=binary,
                    per=per, findings=findings, native=native)

    # -- reporting -------------------------------------------------------------
    def short(self, res, m):
        R = res['per'].get(m, {})
        parts = []
        for n in ('dpor', 'exh', 'rand', 'jobs2'):
            r = R.get(n)
            if not r:
                continue
            js = r['js']
            if js is None:
                parts.append('%s=rc%d' % (n, r['rc']))
                continue
            s = '%s=%d%s' % (n, js['executions'], 'c' if js['complete'] else '')
            if n == 'exh' and js['complete']:
                s += '/hb%s' % js.get('hb_classes')
            parts.append(s)
        ks = sorted({k for mm, k, _ in res['findings'] if mm == m})
        return '%s %s [%s]' % (m, ','.join(ks) if ks else 'ok', ' '.join(parts))

    def save(self, res, models):
        d = os.path.join(self.out, 'seed%d%s' % (res['seed'], res['opt']))
        os.makedirs(d, exist_ok=True)
        shutil.copy2(res['src'], os.path.join(d, 'prog.c'))
        with open(os.path.join(d, 'prog.json'), 'w') as f:
            json.dump(res['prog'], f, indent=1)
        with open(os.path.join(d, 'findings.txt'), 'w') as f:
            f.write('seed %d class %s %s\n' % (res['seed'], res['prog']['cls'],
                                               res['opt']))
            f.write('gcc %s -g -pthread -o prog prog.c\n\n' % res['opt'])
            for m, k, det in res['findings']:
                f.write('%s %s: %s\n' % (m, k, det))
            f.write('\nnative outcomes: %s\n' % fmt_set(res['native']))
            for m in models:
                for n, r in res['per'].get(m, {}).items():
                    f.write('\n== %s %s: exit %d%s, %.1f s\n%s\n' % (
                        m, n, r['rc'], ' (HANG)' if r['hang'] else '',
                        r['elapsed'], ' '.join(r['cmd'])))
                    if r['err'].strip():
                        f.write('stderr tail: %s\n' % r['err'][-600:])
                    if r['js'] is not None:
                        with open(os.path.join(d, '%s-%s.json' % (m, n)), 'w') as g:
                            json.dump(r['js'], g, indent=1)
        return d


def parse_seeds(s):
    if '..' in s:
        a, b = s.split('..')
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in s.split(',')]


def fuzz(a, rn):
    if a.quick:
        seeds = QUICK_SEEDS + QUICK_KNOWN
    elif a.count is not None:
        seeds = list(range(a.start, a.start + a.count))
    else:
        seeds = parse_seeds(a.seeds)
    counts = {}
    agree = {m: 0 for m in a.models}
    nprog = 0
    bad_seeds = []
    t0 = time.time()
    stats = dict(dpor_complete={m: 0 for m in a.models},
                 exh_complete={m: 0 for m in a.models})

    def one(seed):
        cls = a.cls if a.cls != 'all' or not a.quick else \
            ('plain' if seed % 2 == 0 else 'corners')
        prog = None
        if a.quick and seed in QUICK_KNOWN:
            cls = 'corners'
            prog = gen.generate(seed, cls, (), a.pso_locs, a.size)
        try:
            return rn.program(seed, cls, a.models, prog=prog)
        except RuntimeError as ex:
            return dict(seed=seed, error=str(ex))

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as ex:
        for res in ex.map(one, seeds):
            if 'error' in res:
                print('seed %d: %s' % (res['seed'], res['error']), flush=True)
                counts['generator'] = counts.get('generator', 0) + 1
                continue
            nprog += 1
            for m in a.models:
                if not any(mm == m and k not in LESSER
                           for mm, k, _ in res['findings']):
                    agree[m] += 1
                js = res['per'][m].get('dpor', {}).get('js')
                if js and js['complete']:
                    stats['dpor_complete'][m] += 1
                js = res['per'][m].get('exh', {}).get('js')
                if js and js['complete']:
                    stats['exh_complete'][m] += 1
            for m, k, _ in res['findings']:
                counts[k] = counts.get(k, 0) + 1
            known = sorted(set(res['prog']['features']) & set(gen.KNOWN))
            line = 'seed %d %s %s %dthr%s: %s' % (
                res['seed'], res['prog']['cls'], res['opt'],
                len(res['prog']['threads']),
                ' known:' + ','.join(known) if known else '',
                ' | '.join(rn.short(res, m) for m in a.models))
            print(line, flush=True)
            if res['findings']:
                d = rn.save(res, a.models)
                serious = [f for f in res['findings'] if f[1] not in LESSER]
                if serious:
                    bad_seeds.append(res['seed'])
                for m, k, det in res['findings']:
                    print('    %s %s: %s' % (m, k, det[:300]), flush=True)
                print('    -> %s' % d, flush=True)
    print('summary: %d programs x %d models (%s), %.0f s' % (
        nprog, len(a.models), ','.join(a.models), time.time() - t0))
    print('  agreements (no finding but lesser ones): %s' % ', '.join(
        '%s %d/%d' % (m, agree[m], nprog) for m in a.models))
    print('  dpor complete: %s; exhaustive complete: %s' % (
        ', '.join('%s %d' % kv for kv in stats['dpor_complete'].items()),
        ', '.join('%s %d' % kv for kv in stats['exh_complete'].items())))
    serious = {k: v for k, v in counts.items() if k not in LESSER}
    lesser = {k: v for k, v in counts.items() if k in LESSER}
    print('  mismatches by kind (model-runs): %s' % (
        ', '.join('%s %d' % kv for kv in sorted(serious.items())) or 'none'))
    print('  lesser (not failures): %s' % (
        ', '.join('%s %d' % kv for kv in sorted(lesser.items())) or 'none'))
    if bad_seeds:
        print('  seeds with mismatches: %s  (details under %s)' % (
            ' '.join(map(str, bad_seeds)), a.out))
    return 1 if bad_seeds else 0


# -- minimisation ------------------------------------------------------------
NEEDS = {'dpor-vs-exhaustive': {'dpor', 'exh'}, 'not-optimal': {'dpor', 'exh'},
         'dpor-missing': {'dpor', 'exh', 'rand'}, 'jobs': {'dpor', 'jobs2'},
         'jobs-count': {'dpor', 'jobs2'}, 'native-outside': {'dpor', 'native'},
         'model-inclusion': {'dpor'}}


def minimize(a, rn):
    seed = a.minimize
    if a.prog:
        with open(a.prog) as f:
            prog = json.load(f)
        seed = prog['seed']
    else:
        prog = gen.generate(seed, a.cls, a.disabled, a.pso_locs, a.size)
    models = [a.model] if a.model else a.models
    res = rn.program(seed, prog['cls'], models if a.kind != 'model-inclusion'
                     else MODELS, prog=prog)
    found = [(m, k) for m, k, _ in res['findings']]
    print('seed %d: findings %s' % (seed, found or 'none'))
    target = None
    for m, k in found:
        if (a.kind is None or k == a.kind) and (a.model is None or m == a.model):
            if target is None or (target[1] in LESSER and k not in LESSER):
                target = (m, k)
    if not target:
        print('nothing to minimise')
        return 1
    m, k = target
    which = NEEDS.get(k.split(':')[0], {'dpor', 'exh', 'rand', 'jobs2', 'native'})
    ms = MODELS if k.startswith('model-inclusion') else [m]
    print('minimising %s under %s (runs: %s)' % (k, m, ' '.join(sorted(which))))
    tries = [0]

    def still(p):
        tries[0] += 1
        try:
            r = rn.program(seed, p['cls'], ms, prog=p, which=which)
        except RuntimeError:
            return None
        hit = [f for f in r['findings'] if f[0] == m and f[1] == k]
        return r if hit else None

    best = prog
    last = res
    changed = True
    while changed:
        changed = False
        us = gen.units(best)
        # big chunks first, then one by one
        chunk = max(1, len(us) // 2)
        while chunk >= 1:
            i = 0
            us = gen.units(best)
            while i < len(us):
                part = us[i:i + chunk]
                cand = gen.delete(best, part)
                r = still(cand) if cand is not None else None
                if r:
                    best, last = cand, r
                    us = gen.units(best)
                    changed = True
                    print('  %d units left (try %d)' % (len(us), tries[0]),
                          flush=True)
                else:
                    i += chunk
            chunk //= 2
    det = [d for mm, kk, d in last['findings'] if mm == m and kk == k]
    note = ('seed %d (class %s, %s), minimised by run.py --minimize\n'
            '%s under %s: %s\n' % (seed, prog['cls'], last['opt'], k, m,
                                   det[0] if det else ''))
    text = gen.render(best, comment=note)
    path = os.path.join(a.out, 'min-seed%d-%s-%s.c' % (seed, m, k))
    os.makedirs(a.out, exist_ok=True)
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
    ap.add_argument('--seeds', default='0..49', help='A..B or A,B,C (default 0..49)')
    ap.add_argument('--count', type=int, metavar='N',
                    help='N programs: seeds START..START+N-1 (instead of --seeds)')
    ap.add_argument('--start', type=int, default=0, help='first seed with --count (default 0)')
    ap.add_argument('--models', default='sc,tso,pso')
    ap.add_argument('--class', dest='cls', default='all',
                    choices=['plain', 'corners', 'all'])
    ap.add_argument('--no', default='',
                    help='corners to leave out (gen.py CORNERS), comma-separated; '
                    '"known" = the ones known to be wrong (%s)' % ','.join(gen.KNOWN))
    ap.add_argument('--timeout', type=int, default=40,
                    help='x86smc --timeout of dpor and --jobs 2 runs (default 40)')
    ap.add_argument('--exh-timeout', type=int, default=20,
                    help='--timeout of exhaustive and random runs (default 20)')
    ap.add_argument('--exh-max', type=int, default=2000,
                    help='exhaustive --max-executions (default 2000)')
    ap.add_argument('--exh-short', type=int, default=300,
                    help='exhaustive --max-executions when dpor needed more than '
                    'exh-max/80 executions or did not finish (default 300)')
    ap.add_argument('--rand-max', type=int, default=100,
                    help='random --max-executions (default 100)')
    ap.add_argument('--jobs2-every', type=int, default=4,
                    help='run --jobs 2 on every Nth seed (0: never; default 4)')
    ap.add_argument('--native-runs', type=int, default=3,
                    help='native runs per program (outcomes must be in tso/pso sets)')
    ap.add_argument('--opt', choices=['-O0', '-O2'],
                    help='always this (default: -O2 for seeds = 3 mod 4)')
    ap.add_argument('--pso-locs', type=int, default=4,
                    help='stored locations per thread at most (default 4)')
    ap.add_argument('-j', type=int, default=1, help='programs in parallel (default 1)')
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'fuzz-explore'))
    ap.add_argument('--x86smc', default=os.environ.get('X86SMC',
                                                       os.path.join(ROOT, 'x86smc')))
    ap.add_argument('--quick', action='store_true',
                    help='the fixed seeds make check runs (known-wrong corners left out)')
    ap.add_argument('--size', default='mixed', choices=['small', 'normal', 'mixed'],
                    help='program size (gen.py --size; default mixed)')
    ap.add_argument('--minimize', type=int, metavar='SEED')
    ap.add_argument('--prog', metavar='PROG.JSON',
                    help='with --minimize: start from this saved tree (OUT/seedN-O0/prog.json) '
                    'instead of generating the seed again')
    ap.add_argument('--model', help='with --minimize: the model (default: first found)')
    ap.add_argument('--kind', help='with --minimize: the finding kind to keep')
    a = ap.parse_args()
    a.models = [m for m in a.models.split(',') if m]
    for m in a.models:
        if m not in MODELS:
            ap.error('unknown model %s' % m)
    dis = [c for c in a.no.split(',') if c]
    if 'known' in dis or a.quick:
        dis = [c for c in dis if c != 'known'] + list(gen.KNOWN)
    for c in dis:
        if c not in gen.CORNERS:
            ap.error('unknown corner %s' % c)
    a.disabled = dis
    if a.quick:
        a.exh_max = min(a.exh_max, 250)
        a.exh_short = min(a.exh_short, 150)
        a.rand_max = min(a.rand_max, 40)
        a.timeout = min(a.timeout, 30)
        a.exh_timeout = min(a.exh_timeout, 10)
        a.native_runs = min(a.native_runs, 2)
    if not os.access(a.x86smc, os.X_OK):
        ap.error('%s: not found (make first, or --x86smc PATH)' % a.x86smc)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    rn = Runner(a)
    if a.minimize is not None or a.prog:
        return minimize(a, rn)
    return fuzz(a, rn)


if __name__ == '__main__':
    sys.exit(main())
