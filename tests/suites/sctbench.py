#!/usr/bin/env python3
"""SCTBench (github.com/mc-imperial/sctbench): build its 49 buggy programs
outside the tree and run x86smc on each; results as a Markdown table for
docs/SUITES.md.

    python3 tests/suites/sctbench.py extract      # sources -> $SCT/src
    python3 tests/suites/sctbench.py build        # binaries -> $SCT/bin
    python3 tests/suites/sctbench.py run [NAME...]  (one x86smc at a time)
    python3 tests/suites/sctbench.py table        # Markdown from $SCT/results
    python3 tests/suites/sctbench.py all          # the four in turn

$SCT is /work/.cache/sctbench unless SCTBENCH_DIR says otherwise; the
x86smc run is $X86SMC (default ./x86smc).  The sources come from a git
directory of the public repository: $SCTBENCH_GIT, else
/work/.mirror/mc-imperial+sctbench/repo, else $SCT/sctbench.git, which
`extract` clones from https://github.com/mc-imperial/sctbench when it is
missing and the network allows.  Nothing here is committed to x86smc.

Each benchmark is compiled with gcc/g++ -O0 -g -pthread (as the authors'
build scripts do) and run with the arguments of the authors' run scripts
(benchmarks/*/run.py, run.sh, "args:" first lines, num_threads = 2 as in
scripts/run_many.py).  The run: first the default search with --model sc
(SCTBench's setting: sequential consistency), --timeout 60 and
--max-executions 100000; for the programs it does not find, --strategy pct
(same budget), then --strategy icb.  Each x86smc runs under nice -n 15, one
at a time.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import time

SCT = os.environ.get('SCTBENCH_DIR', '/work/.cache/sctbench')
SRC = os.path.join(SCT, 'src')
BIN = os.path.join(SCT, 'bin')
RES = os.path.join(SCT, 'results')
X86SMC = os.path.abspath(os.environ.get('X86SMC', './x86smc'))
TIMEOUT = int(os.environ.get('SCT_TIMEOUT', '60'))
MAXEXEC = int(os.environ.get('SCT_MAX_EXECUTIONS', '100000'))
NTHREADS = '2'          # scripts/run_many.py --numthreads default
URL = 'https://github.com/mc-imperial/sctbench'

CFLAGS = ['-O0', '-g', '-pthread']
CSB = 'concurrent-software-benchmarks'


def git_dir():
    for g in (os.environ.get('SCTBENCH_GIT'),
              '/work/.mirror/mc-imperial+sctbench/repo',
              os.path.join(SCT, 'sctbench.git')):
        if g and os.path.isdir(g):
            return g
    return None


# ---------------------------------------------------------------- extract
# Only what the 49 programs need: not pin/, maple/ (the authors' tools),
# benchmarks/chess-m (C#) nor the PARSEC packages other than the four.
PARSEC_KEEP = ('kernels/streamcluster/', 'kernels/streamcluster2/',
               'kernels/streamcluster3/', 'apps/ferret/')


def wanted(path):
    top = path.split('/')[0]
    if top in ('pin', 'maple') or path.startswith('benchmarks/chess-m/'):
        return False
    if path.startswith('benchmarks/parsec-2.0/pkgs/'):
        rest = path[len('benchmarks/parsec-2.0/pkgs/'):]
        return any(rest.startswith(k) for k in PARSEC_KEEP)
    return True


def extract():
    g = git_dir()
    if g is None:
        g = os.path.join(SCT, 'sctbench.git')
        print('no SCTBench git directory: cloning', URL, 'into', g)
        os.makedirs(SCT, exist_ok=True)
        r = subprocess.run(['git', 'clone', '--bare', URL, g])
        if r.returncode:
            sys.exit('cannot fetch SCTBench: clone %s (bare) into %s, or set '
                     'SCTBENCH_GIT to a git directory of it' % (URL, g))
    head = subprocess.run(['git', '--git-dir', g, 'rev-parse', 'HEAD'],
                          capture_output=True, text=True,
                          check=True).stdout.strip()
    out = subprocess.run(['git', '--git-dir', g, 'ls-tree', '-r', 'HEAD'],
                         capture_output=True, text=True, check=True).stdout
    ents = []
    for line in out.splitlines():
        meta, path = line.split('\t', 1)
        mode, typ, sha = meta.split()
        if typ == 'blob' and wanted(path):
            ents.append((mode, sha, path))
    if os.path.isdir(SRC):
        shutil.rmtree(SRC)
    os.makedirs(SRC)
    cat = subprocess.Popen(['git', '--git-dir', g, 'cat-file', '--batch'],
                           stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    missing = []
    for mode, sha, path in ents:
        cat.stdin.write((sha + '\n').encode())
        cat.stdin.flush()
        hdr = cat.stdout.readline().decode().split()
        if len(hdr) < 3 or hdr[1] == 'missing':
            missing.append(path)      # a large file the mirror lacks
            continue
        data = cat.stdout.read(int(hdr[2]))
        cat.stdout.read(1)
        f = os.path.join(SRC, path)
        os.makedirs(os.path.dirname(f), exist_ok=True)
        if mode == '120000':
            os.symlink(data.decode(), f)
        else:
            with open(f, 'wb') as fp:
                fp.write(data)
            if mode == '100755':
                os.chmod(f, 0o755)
    cat.stdin.close()
    cat.wait()
    with open(os.path.join(SRC, 'COMMIT'), 'w') as fp:
        fp.write(head + '\n')
    print('extracted %d files of %s at %s into %s' % (len(ents), g, head[:12],
                                                      SRC))
    for m in missing:
        print('  missing in the git directory:', m)


# ------------------------------------------------------------- benchmarks
def B(suite, name, threads, build, argv, files=(), note='', fixed=(),
      tuned=()):
    """tuned: options for this program (with the default strategy) tried
    last when no strategy found its bug, e.g. a library call made one
    step."""
    return dict(suite=suite, name=name, threads=threads, build=build,
                argv=argv, files=files, note=note, fixed=list(fixed),
                tuned=list(tuned))


def cc(*srcs, cxx=False, flags=()):
    """A build: one compiler line, sources relative to benchmarks/."""
    return ('cxx' if cxx else 'cc', list(srcs), list(flags))


def bench_list():
    L = []
    for w in ('InterlockedWorkStealQueue',
              'InterlockedWorkStealQueueWithState', 'StateWorkStealQueue',
              'WorkStealQueue'):
        # chess/build.py: g++ -std=c++0x -pthread -g -O0; args: {NUMTHREADS}
        L.append(B('chess', w, 3, cc('chess/%s.cpp' % w, cxx=True,
                                     flags=['-std=c++0x']), [NTHREADS]))
    L.append(B('conc-bugs', 'aget-bug2', 4,
               ('make', 'conc-bugs/aget-bug2/aget-devel', 'aget'),
               ['-l', 'dl.txt', 'http://www.gnu.org/licenses/gpl.txt'],
               files=['conc-bugs/aget-bug2/aget-devel/0',
                      'conc-bugs/aget-bug2/aget-devel/17573']))
    L.append(B('conc-bugs', 'pbzip2-0.9.4', 4, ('pbzip2',),
               ['-k', '-f', '-p' + NTHREADS, '-1', '-b1', 'test.tar'],
               files=['conc-bugs/pbzip2-0.9.4/test.tar'],
               # a block's compression: millions of accesses to its buffers
               tuned=['--atomic-call', 'BZ2_bzBuffToBuffCompress']))
    L.append(B('conc-bugs', 'stringbuffer-jdk1.4', 2,
               cc('conc-bugs/stringbuffer-jdk1.4/main.cpp',
                  'conc-bugs/stringbuffer-jdk1.4/stringbuffer.cpp', cxx=True),
               []))
    for name, t in (('account_bad', 4), ('arithmetic_prog_bad', 3),
                    ('bluetooth_driver_bad', 2), ('carter01_bad', 5),
                    ('circular_buffer_bad', 3), ('deadlock01_bad', 3),
                    ('din_phil2_sat', 3), ('din_phil3_sat', 4),
                    ('din_phil4_sat', 5), ('din_phil5_sat', 6),
                    ('din_phil6_sat', 7), ('din_phil7_sat', 8),
                    ('fsbench_bad', 28), ('lazy01_bad', 4), ('phase01_bad', 3),
                    ('queue_bad', 3), ('reorder_10_bad', 11),
                    ('reorder_20_bad', 21), ('reorder_3_bad', 4),
                    ('reorder_4_bad', 5), ('reorder_5_bad', 6),
                    ('stack_bad', 3), ('sync01_bad', 3), ('sync02_bad', 3),
                    ('token_ring_bad', 5), ('twostage_100_bad', 101),
                    ('twostage_bad', 3), ('wronglock_3_bad', 5),
                    ('wronglock_bad', 9)):
        # concurrent-software-benchmarks/build.py: gcc -pthread -g -O0
        L.append(B(CSB, name, t, cc('%s/%s.c' % (CSB, name)), []))
    P = 'parsec-2.0/pkgs/kernels/'
    for sc, t in (('streamcluster', 5), ('streamcluster2', 7),
                  ('streamcluster3', 5)):
        # parsec: version=pthreads (-DENABLE_THREADS), test.runconf args
        L.append(B('parsec-2.0', sc, t,
                   cc(P + sc + '/src/streamcluster.cpp',
                      P + sc + '/src/parsec_barrier.cpp', cxx=True,
                      flags=['-DENABLE_THREADS']),
                   ['2', '5', '1', '10', '10', '5', 'none', 'output.txt',
                    NTHREADS],
                   fixed=['-DFIX_BUG_1', '-DFIX_BUG_2', '-DFIX_BUG_3']))
    L.append(B('parsec-2.0', 'ferret', 11, ('ferret',),
               ['corel', 'lsh', 'queries', '1', '1', NTHREADS, 'output.txt'],
               # the pipeline's stages (ImageMagick's JPEG decoding, image
               # segmentation, LSH queries) each as one step
               tuned=['--atomic-call', 'image_read_rgb_hsv',
                      '--atomic-call', 'image_segment',
                      '--atomic-call', 'image_extract_helper',
                      '--atomic-call', 'cass_table_query']))
    # inspect_examples/run.py: "//args:2"
    L.append(B('inspect_examples', 'ctrace-test', 3,
               cc('inspect_examples/ctrace-test.c'), ['2']))
    # inspect_benchmarks/qsort_mt.c: "//args:-n 32 -f 4 -h {NUMTHREADS} -v"
    L.append(B('inspect_benchmarks', 'qsort_mt', 3,
               cc('inspect_benchmarks/qsort_mt.c'),
               ['-n', '32', '-f', '4', '-h', NTHREADS, '-v']))
    L.append(B('radbench', 'bug1', 4, ('radbench-bug1',), []))
    L.append(B('radbench', 'bug2', 2, ('radbench-bug2',), []))
    L.append(B('radbench', 'bug6', 3, ('radbench-bug6',), []))
    # safestack/build.sh: g++ -std=c++0x -g -O0 SafeStack.cpp -pthread
    L.append(B('safestack', 'bug1', 4,
               cc('safestack/SafeStack.cpp', cxx=True, flags=['-std=c++0x']),
               []))
    # splash2: m4 with null_macros/c.m4.null, cc -O0 ... -lm -pthread
    L.append(B('splash2', 'barnes', 2, ('splash2', 'apps/barnes', 'BARNES'),
               [], files=['splash2/apps/barnes/input']))
    L.append(B('splash2', 'fft', 2, ('splash2', 'kernels/fft', 'FFT'),
               ['-p2', '-m2', '-n4', '-l4']))
    L.append(B('splash2', 'lu', 2,
               ('splash2', 'kernels/lu/non_contiguous_blocks', 'LU'),
               ['-p2', '-n2', '-b1']))
    return L


def key(b):
    return '%s--%s' % (b['suite'], b['name'])


# ------------------------------------------------------------------ build
def work_dir(name, copy_of=None):
    """SCT/work/NAME, emptied: a copy of the tree copy_of, or a new folder."""
    d = os.path.join(SCT, 'work', name)
    if os.path.isdir(d):
        shutil.rmtree(d)
    if copy_of:
        shutil.copytree(copy_of, d)
    else:
        os.makedirs(d)
    return d


def sh(cmd, cwd, log):
    log.write('$ (cd %s && %s)\n' % (cwd, ' '.join(cmd)))
    log.flush()
    r = subprocess.run(cmd, cwd=cwd, stdout=log, stderr=subprocess.STDOUT)
    if r.returncode:
        raise RuntimeError('%s: exit %d' % (' '.join(cmd[:3]), r.returncode))


def nspr(n, log):
    """Configure and make NSPR in n/target (64-bit: the authors' machine
    was too; no optimisation, debug symbols); return its dist/."""
    t = os.path.join(n, 'target')
    os.makedirs(t)
    sh(['../mozilla/nsprpub/configure', '--enable-64bit',
        '--disable-optimize', '--enable-debug-symbols'], t, log)
    sh(['make'], t, log)
    return os.path.join(t, 'dist')


def build_one(b, log):
    """Build b into BIN/suite/name/prog (plus its input files); return None
    or the reason it cannot be built."""
    src = os.path.join(SRC, 'benchmarks')
    out = os.path.join(BIN, b['suite'], b['name'])
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(out)
    prog = os.path.join(out, 'prog')
    how = b['build']
    if how[0] in ('cc', 'cxx'):
        comp = 'g++' if how[0] == 'cxx' else 'gcc'
        sh([comp] + CFLAGS + how[2] + ['-o', prog] +
           [os.path.join(src, s) for s in how[1]], src, log)
    elif how[0] == 'make':        # aget: its Makefile, CFLAGS -O0 -g
        d = work_dir(b['name'], os.path.join(src, how[1]))
        sh(['make', 'clean'], d, log)
        sh(['make', 'CFLAGS=-O0 -g', 'LDFLAGS=-pthread'], d, log)
        shutil.copy2(os.path.join(d, how[2]), prog)
    elif how[0] == 'pbzip2':      # build.sh: libbz2.a, then pbzip2.cpp
        d = work_dir('pbzip2', os.path.join(src, 'conc-bugs/pbzip2-0.9.4'))
        bz = os.path.join(d, 'bzip2-1.0.6')
        sh(['make', 'CFLAGS=-O0 -g -D_FILE_OFFSET_BITS=64', 'libbz2.a'], bz,
           log)
        sh(['g++'] + CFLAGS + ['-I', bz, '-D_LARGEFILE64_SOURCE',
                               '-D_FILE_OFFSET_BITS=64', '-o', prog,
                               os.path.join(d, 'pbzip2-0.9.4/pbzip2.cpp'),
                               '-L', bz, '-lbz2'], d, log)
    elif how[0] == 'splash2':     # makefile: m4 c.m4.null, then cc
        d = work_dir('splash2-' + b['name'], os.path.join(src, 'splash2', how[1]))
        macros = os.path.join(src, 'splash2/null_macros/c.m4.null')
        cs = []
        for f in sorted(os.listdir(d)):
            if f.endswith('.C') or f.endswith('.H'):
                with open(os.path.join(d, f[:-1] + f[-1].lower()), 'w') as o:
                    r = subprocess.run(['m4', '-s', '-Ulen', '-Uindex', macros,
                                        f], cwd=d, stdout=o, stderr=log)
                    if r.returncode:
                        raise RuntimeError('m4 %s: exit %d' % (f,
                                                              r.returncode))
                if f.endswith('.C'):
                    cs.append(f[:-2] + '.c')
        # -no-pie: SPLASH-2 calls malloc with no prototype in scope (an
        # implicit int): Debian's default PIE puts the heap above 4 GiB and
        # the truncated pointers crash (FFT at once, natively too)
        sh(['gcc'] + CFLAGS + ['-w', '-no-pie', '-o', prog] + cs + ['-lm'],
           d, log)
    elif how[0] == 'ferret':
        # parsec gcc-pthreads.bldconf: version=pthreads (ferret-parallel.c),
        # libcass + libcassimage, GSL and ImageMagick (Debian's libgsl-dev
        # and libmagickcore-6.q16-dev for PARSEC's own copies).  HUGE, a
        # macro glibc's math.h no longer has, is given its old value.
        for h in ('/usr/include/gsl/gsl_rng.h',
                  '/usr/include/ImageMagick-6/magick/ImageMagick.h'):
            if not os.path.exists(h):
                return ('needs %s: apt-get install libgsl-dev '
                        'libmagickcore-6.q16-dev' % h)
        f = os.path.join(src, 'parsec-2.0/pkgs/apps/ferret/src')
        mc = subprocess.run(['pkg-config', '--cflags', 'MagickCore'],
                            capture_output=True, text=True).stdout.split()
        mc = [x for x in mc if x != '-fopenmp']
        cs = (sorted(glob.glob(f + '/src/*.c')) +
              sorted(glob.glob(f + '/src/lsh/*.c')) +
              [f + '/image/' + x for x in ('image.c', 'extract.c', 'edge.c',
                                          'srm.c')] +
              [f + '/benchmark/ferret-parallel.c'])
        sh(['gcc'] + CFLAGS + ['-w', '-DHUGE=3.40282347e+38F',
                               '-I', f + '/include'] + mc +
           ['-o', prog] + cs + ['-lgsl', '-lgslcblas', '-lMagickCore-6.Q16',
                                '-lm', '-lrt'], out, log)
        sh(['tar', 'xf', os.path.join(src, 'parsec-2.0/pkgs/apps/ferret/'
                                      'inputs/input_test.tar')], out, log)
    elif how[0] == 'radbench-bug1':
        t = os.path.join(src, 'radbench/Benchmarks/bug1/src/'
                         'firefox-src-2009-09-09.tar.bz2')
        if not os.path.exists(t):
            return ('needs firefox-src-2009-09-09.tar.bz2 (SpiderMonkey of '
                    '2009, patched by bug1/src/my-mods): the git directory '
                    'extracted lacks that large file')
        return 'no recipe: build Firefox 2009 with bug1/scripts/build-ff.sh'
    elif how[0] == 'radbench-bug2':
        # scripts/build-js.sh: NSPR 4.6.7, then SpiderMonkey 1.7.0
        # (Makefile.ref, JS_THREADSAFE=1), then test-ctxt.cpp against both
        d = work_dir('radbench2')
        s2 = os.path.join(src, 'radbench/Benchmarks/bug2/src')
        sh(['tar', 'xzf', os.path.join(s2, 'nspr-4.6.7.tar.gz')], d, log)
        sh(['tar', 'xzf', os.path.join(s2, 'js-1.7.0.tar.gz')], d, log)
        ni = nspr(os.path.join(d, 'nspr-4.6.7'), log)
        js = os.path.join(d, 'js/src')
        sh(['make', '-f', 'Makefile.ref', 'XCFLAGS=-I %s/include/nspr' % ni,
            'XLDFLAGS=-L%s/lib -lplc4 -lplds4 -lnspr4' % ni,
            'JS_THREADSAFE=1'], js, log)
        obj = os.path.join(js, 'Linux_All_DBG.OBJ')
        sh(['g++'] + CFLAGS + ['-o', prog, os.path.join(s2, 'test-ctxt.cpp'),
                               '-I', js, '-I', obj, '-I',
                               ni + '/include/nspr', '-L', ni + '/lib',
                               '-L', obj, '-Wl,-rpath,%s:%s/lib' % (obj, ni),
                               '-ljs', '-lnspr4'], d, log)
    elif how[0] == 'radbench-bug6':
        # scripts/build-nspr.sh, build-testharness.sh: NSPR 4.8, test-rw
        d = work_dir('radbench6')
        s6 = os.path.join(src, 'radbench/Benchmarks/bug6/src')
        sh(['tar', 'xzf', os.path.join(s6, 'nspr-4.8.tar.gz')], d, log)
        n = os.path.join(d, 'nspr-4.8')
        ni = nspr(n, log)
        pr = os.path.join(n, 'mozilla/nsprpub/pr/include')
        sh(['gcc'] + CFLAGS + [
            '-fno-inline', '-UNDEBUG', '-DDEBUG=1', '-DXP_UNIX=1',
            '-D_GNU_SOURCE=1', '-DHAVE_FCNTL_FILE_LOCKING=1', '-DLINUX=1',
            '-DHAVE_LCHOWN=1', '-DHAVE_STRERROR=1', '-D_REENTRANT=1',
            '-DFORCE_PR_LOG', '-D_PR_PTHREADS', '-UHAVE_CVAR_BUILT_ON_SEM',
            '-I', ni + '/include/nspr', '-I', pr, '-I', pr + '/private',
            '-o', prog, os.path.join(s6, 'rwlock-test.c'),
            '-L', ni + '/lib', '-Wl,-rpath,%s/lib' % ni, '-lplc4', '-lnspr4'],
           d, log)
    else:
        return 'no recipe for %s' % how[0]
    for f in b['files']:
        shutil.copy2(os.path.join(src, f), out)
    if 'output.txt' in b['argv']:
        # SCTBench's runner takes the output file of the first execution as
        # the expected one; here a plain run (no x86smc) of the program with
        # its bugs fixed writes it (the buggy one can hang natively)
        fixed = prog
        if how[0] in ('cc', 'cxx'):
            fixed = os.path.join(out, 'fixed')
            sh([comp] + CFLAGS + how[2] + b['fixed'] + ['-o', fixed] +
               [os.path.join(src, s) for s in how[1]], src, log)
        try:
            r = subprocess.run([fixed] + b['argv'], cwd=out, stdout=log,
                               stderr=subprocess.STDOUT, timeout=120)
        except subprocess.TimeoutExpired:
            raise RuntimeError('plain run for the golden output: timed out')
        g = os.path.join(out, 'output.txt')
        if r.returncode or not os.path.exists(g):
            raise RuntimeError('plain run for the golden output: exit %d'
                               % r.returncode)
        os.rename(g, os.path.join(out, 'golden.txt'))
    return None


def build(names=()):
    os.makedirs(BIN, exist_ok=True)
    os.makedirs(RES, exist_ok=True)
    status = {}
    with open(os.path.join(SCT, 'build.log'), 'w') as log:
        for b in bench_list():
            if names and b['name'] not in names and key(b) not in names:
                continue
            log.write('\n==== %s\n' % key(b))
            try:
                why = build_one(b, log)
            except (RuntimeError, OSError) as e:
                why = 'build failed: %s' % e
            status[key(b)] = why
            print('%-50s %s' % (key(b), why or 'built'))
    old = {}
    p = os.path.join(SCT, 'build.json')
    if os.path.exists(p):
        with open(p) as fp:
            old = json.load(fp)
    old.update(status)
    with open(p, 'w') as fp:
        json.dump(old, fp, indent=1)


# -------------------------------------------------------------------- run
PHASES = {
    # name: (x86smc options, --timeout)
    'sc': (['--model', 'sc'], TIMEOUT),
    'pct': (['--model', 'sc', '--strategy', 'pct'], TIMEOUT),
    'icb': (['--model', 'sc', '--strategy', 'icb'], TIMEOUT),
    'tso': ([], int(os.environ.get('SCT_TSO_TIMEOUT', '30'))),
    'tuned': (['--model', 'sc'], TIMEOUT),      # + the program's tuned
}


def oracle(b):
    """Options that say what a correct run of b is (not search options):
    ctrace-test returns 6 from main by design; the PARSEC programs are
    checked, as SCTBench's runner does, by their output file against the
    one a plain run wrote (golden.txt, made at build time)."""
    o = []
    if b['name'] == 'ctrace-test':
        o += ['--expect-exit', '6']
    if os.path.exists(os.path.join(BIN, b['suite'], b['name'], 'golden.txt')):
        o += ['--expect-file', 'output.txt=golden.txt']
    return o


def command(b, phase):
    opts, tmo = PHASES[phase]
    j = os.path.join(RES, '%s.%s.json' % (key(b), phase))
    if phase == 'tuned':
        opts = opts + b['tuned']
    return ([X86SMC] + opts + oracle(b) +
            ['--timeout', str(tmo), '--max-executions', str(MAXEXEC),
             '--json', j, '--', './prog'] + b['argv']), j


def parse(log, j, rc, wall):
    r = dict(rc=rc, wall=round(wall, 1), found=False, kind='', execs=None,
             secs=None, said='', complete=False)
    if j and os.path.exists(j):
        try:
            with open(j) as fp:
                d = json.load(fp)
        except ValueError:
            d = None
        if d:
            r['complete'] = bool(d.get('complete'))
            r['secs'] = d.get('elapsed_s')
            r['execs'] = d.get('executions', 0) + d.get('blocked_executions',
                                                        0)
            r['samples'] = d.get('pct_samples', 0)
            if d.get('errors'):
                e = d['errors'][0]
                r['found'] = True
                r['kind'] = e.get('kind', '')
                r['found_by'] = d.get('found_by', '')
                r['msg'] = e.get('message', '')[:160]
            r['coverage'] = d.get('coverage', '') or ''
    m = re.search(r'in execution (\d+)', log)
    if r['found'] and m:
        r['execs'] = int(m.group(1))
    lines = [l for l in log.splitlines() if l.strip()]
    said = [l[len('x86smc:'):].strip() for l in lines
            if l.startswith('x86smc:')]
    cut = re.search(r'(\d+) of (\d+) executions were cut (at --max-steps|'
                    r'when the program created more than \d+ threads)', log)
    if cut:
        said.append('%s of %s executions cut %s' % cut.groups())
    if not said and not r['found']:
        said = [r.get('coverage') or (lines[-1] if lines else '')]
    r['said'] = '; '.join(said)
    r['said'] = r['said'][:240]
    return r


def run_one(b, phase):
    cmd, j = command(b, phase)
    if os.path.exists(j):
        os.remove(j)
    cwd = os.path.join(BIN, b['suite'], b['name'])
    for f in ('output.txt',):
        if os.path.exists(os.path.join(cwd, f)):
            os.remove(os.path.join(cwd, f))
    t0 = time.time()
    p = subprocess.Popen(['nice', '-n', '15'] + cmd, cwd=cwd,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=PHASES[phase][1] + 120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 15)          # our own x86smc and its targets
        try:
            out, _ = p.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            out, _ = p.communicate()
        out = (out or b'') + (b'\nx86smc: did not stop within its '
                              b'--timeout + 120 s: killed\n')
    wall = time.time() - t0
    log = out.decode(errors='replace')
    with open(os.path.join(RES, '%s.%s.log' % (key(b), phase)), 'w') as fp:
        fp.write(' '.join(cmd) + '\n' + log)
    r = parse(log, j, p.returncode, wall)
    r['cmd'] = ' '.join(['x86smc'] + cmd[1:]).replace(' --json ' + j, '')
    r['date'] = time.strftime('%Y-%m-%d %H:%M:%S', time.gmtime())
    with open(os.path.join(RES, '%s.%s.result' % (key(b), phase)), 'w') as fp:
        json.dump(r, fp, indent=1)
    print('%-50s %-4s rc=%s found=%s %s execs=%s secs=%s %s' % (
        key(b), phase, r['rc'], r['found'], r['kind'], r['execs'], r['secs'],
        '' if r['found'] else r['said'][:80]), flush=True)
    return r


def result(b, phase):
    p = os.path.join(RES, '%s.%s.result' % (key(b), phase))
    if not os.path.exists(p):
        return None
    with open(p) as fp:
        r = json.load(fp)
    # parsed again: the table reads what this version of parse() finds
    lp = os.path.join(RES, '%s.%s.log' % (key(b), phase))
    if os.path.exists(lp):
        with open(lp) as fp:
            log = fp.read().split('\n', 1)[-1]
        r.update(parse(log, os.path.join(RES, '%s.%s.json' % (key(b), phase)),
                       r['rc'], r['wall']))
    return r


def built(b):
    return os.path.exists(os.path.join(BIN, b['suite'], b['name'], 'prog'))


def run(names=(), phases=('sc', 'pct', 'icb', 'tuned', 'tso')):
    os.makedirs(RES, exist_ok=True)
    sel = [b for b in bench_list()
           if built(b) and (not names or b['name'] in names or
                            key(b) in names)]
    for ph in phases:
        for b in sel:
            if ph in ('pct', 'icb', 'tuned'):
                # only for the programs the searches before did not find
                prev = ('sc', 'pct', 'icb')[:('pct', 'icb', 'tuned').index(ph)
                                             + 1]
                if any(r and r['found'] for r in map(lambda q: result(b, q),
                                                     prev)):
                    continue
                if ph == 'tuned' and not b['tuned']:
                    continue
            run_one(b, ph)


# ------------------------------------------------------------------ table
def cell(r):
    if r is None:
        return 'not run'
    if r['found']:
        by = (' + pct sample %s' % r['samples']
              if r.get('found_by') == 'pct-sample' else '')
        return '**%s** in %s exec%s, %.1f s' % (r['kind'], r['execs'], by,
                                                 r['secs'] or 0)
    if r['rc'] == 0 and r['complete']:
        return 'no (complete, %s exec)' % r['execs']
    if r['rc'] == 3:
        return 'no (limit: %s exec, %.0f s)' % (r['execs'], r['secs'] or 0)
    return 'no (exit %s)' % r['rc']


def table(out=sys.stdout):
    with open(os.path.join(SCT, 'build.json')) as fp:
        bstat = json.load(fp)
    rows = []
    n = dict(default=0, some=0, notfound=0, notrun=0, tso=0)
    rows.append('| # | suite | program | thr | default (sc) | pct | icb | '
                'own options | default (tso) | x86smc said (sc) |')
    rows.append('|---|---|---|---|---|---|---|---|---|---|')
    for i, b in enumerate(bench_list(), 1):
        why = bstat.get(key(b), 'not built')
        rs = {ph: result(b, ph) for ph in PHASES}
        if why or not rs['sc']:
            n['notrun'] += 1
            rows.append('| %d | %s | %s | %d | not run | | | | | %s |' % (
                i, b['suite'], b['name'], b['threads'],
                why or 'not run yet'))
            continue
        if rs['tso'] and rs['tso']['found']:
            n['tso'] += 1
        if rs['sc']['found']:
            n['default'] += 1
        elif any(rs[p] and rs[p]['found'] for p in ('pct', 'icb', 'tuned')):
            n['some'] += 1
        else:
            n['notfound'] += 1
        said = b['note'] or ('' if rs['sc']['found'] else rs['sc']['said'])
        rows.append('| %d | %s | %s | %d | %s | %s | %s | %s | %s | %s |' % (
            i, b['suite'], b['name'], b['threads'], cell(rs['sc']),
            cell(rs['pct']) if not rs['sc']['found'] else '',
            cell(rs['icb']) if rs['icb'] else '',
            cell(rs['tuned']) if rs['tuned'] else '', cell(rs['tso']),
            said.replace('|', '/')))
    out.write('\n'.join(rows) + '\n\n')
    out.write('Found with the default search (sc): %d; found only with '
              'another strategy: %d; not found: %d; not run: %d (of %d)\n'
              % (n['default'], n['some'], n['notfound'], n['notrun'],
                 len(bench_list())))
    out.write('With the default options as typed (tso): %d found\n' % n['tso'])


def main(argv):
    if not argv:
        print(__doc__)
        return 2
    what, names = argv[0], argv[1:]
    if what in ('extract', 'all'):
        extract()
    if what in ('build', 'all'):
        build(names)
    if what in ('run', 'all'):
        run(names)
    if what in PHASES:
        run(names, phases=(what,))
    if what in ('table', 'all'):
        table()
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
