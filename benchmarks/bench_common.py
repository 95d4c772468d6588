"""bench_common.py: what `dl-bench suite` and `dl-bench accept`
(dl_bench_suite.py) share: the tools located from dl-bench, child
processes and the numbers read from their output, the exit codes and the
progress line."""
import math
import os
import re
import statistics
import subprocess
import sys
import time

OK, FAIL, USAGE, NA, UNVERIFIED = 0, 1, 2, 3, 4


# ----------------------------------------------------------------- tools

def first_existing(candidates, test=os.path.isfile):
    for path in candidates:
        if path and test(path):
            return os.path.normpath(path)
    return None


def is_exe(path):
    return os.path.isfile(path) and os.access(path, os.X_OK)


class Tools:
    """The programs and data the commands need, located from dl-bench."""

    def __init__(self, dl_bench, args):
        self.dl_bench = os.path.realpath(dl_bench)
        bindir = os.path.dirname(self.dl_bench)
        here = os.path.dirname(os.path.realpath(__file__))
        self.plot_dir = here
        self.apps = args.apps_dir or first_existing(
            [os.path.join(bindir, 'apps'), bindir,
             os.path.join(bindir, '..', 'libexec', 'dlayout')],
            lambda d: is_exe(os.path.join(d, 'dl-app-lbm')))
        # Kernel sources: the build tree has copies next to the apps; an
        # install has them in share/dlayout/apps.
        self.kernels = first_existing(
            [self.apps, os.path.join(bindir, '..', 'share', 'dlayout',
                                     'apps')],
            lambda d: os.path.isfile(os.path.join(d, 'lbm.cl')))
        self.dl_run = args.dl_run or first_existing(
            [os.path.join(bindir, 'dl-run'),
             os.path.join(bindir, '..', 'interpose', 'dl-run')], is_exe)
        self.dl_annotate = args.dl_annotate or first_existing(
            [os.path.join(bindir, 'dl-annotate'),
             os.path.join(bindir, '..', 'annotate', 'dl-annotate')], is_exe)
        self.it_app = getattr(args, 'it_app', None) or first_existing(
            [os.path.join(bindir, '..', 'tests', 'integration',
                          'dl-it-app')], is_exe)
        self.commit = describe(here)

    def app(self, name):
        return os.path.join(self.apps, name)

    def kernel(self, name):
        """The kernel source an app builds, named explicitly: an app finds
        its own only next to itself or in the prefix it was built for,
        not in a relocated (DESTDIR) install."""
        return os.path.join(self.kernels, name)


def describe(folder):
    """`git describe` of the checkout the tools were built from, if any."""
    try:
        r = subprocess.run(['git', '-C', folder, 'describe', '--always',
                            '--dirty', '--tags'], capture_output=True,
                           text=True, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return 'unknown'
    return r.stdout.strip() if r.returncode == 0 and r.stdout.strip() \
        else 'unknown'


def device_name(tools, index):
    r = run([tools.dl_bench, 'devices'])
    for line in r.out.splitlines():
        number, _, name = line.partition('\t')
        if number.strip() == str(index):
            return name.strip()
    return 'device %d (not listed by dl-bench devices)' % index


# ------------------------------------------------------- child processes

class Child:
    def __init__(self, rc, out, err, seconds):
        self.rc, self.out, self.err, self.seconds = rc, out, err, seconds


def run(argv, env=None, cwd=None):
    """Runs argv to completion with stdout and stderr captured."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, env=env, cwd=cwd)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except OSError as e:
        rc, out, err = 127, b'', ('cannot run %s: %s' % (argv[0], e)).encode()
    seconds = time.monotonic() - t0
    return Child(rc if rc >= 0 else 128 - rc,
                 out.decode(errors='replace'), err.decode(errors='replace'),
                 seconds)


def field(text, key):
    """The number of `key=value` in a line of text; NaN if absent."""
    m = re.search(r'(?:^|[ :])%s=([-+0-9.eEinfa]+)' % re.escape(key), text,
                  re.M)
    try:
        return float(m.group(1)) if m else math.nan
    except ValueError:
        return math.nan


def stats_line(text):
    m = re.search(r'dlayout-stats:[^\n]*', text)
    return m.group(0) if m else ''


def spread(values):
    """(median, min, max) of a non-empty list."""
    return statistics.median(values), min(values), max(values)


def num(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan


class Progress:
    """`[part 3/7 AoS->ASTA bs vs pttwac] conf6 ...` on stderr."""

    def __init__(self, total):
        self.total, self.part, self.name = total, 0, ''
        self.tty = sys.stderr.isatty()

    def start(self, part, name):
        self.part, self.name = part, name

    def say(self, text):
        prefix = '\r\033[K' if self.tty else ''
        end = '' if self.tty else '\n'
        sys.stderr.write('%s[part %d/%d %s] %s%s' % (
            prefix, self.part, self.total, self.name, text, end))
        sys.stderr.flush()

    def done(self):
        if self.tty:
            sys.stderr.write('\r\033[K')
