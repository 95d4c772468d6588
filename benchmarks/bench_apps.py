"""bench_apps.py: the application programs at the sizes of `dl-bench
suite` (suite_apps.py) and `dl-bench accept` (bench_accept.py), and their
kernels annotated by dl-annotate."""
import os

from bench_common import run


class App:
    """One application program at the suite's and accept's sizes."""

    def __init__(self, name, kernel, iter_opt, quick, full, defs_quick,
                 defs_full, user_quick, user_full):
        self.name, self.kernel, self.iter_opt = name, kernel, iter_opt
        self.prog = 'dl-app-' + name
        self.args = {True: quick, False: full}
        self.defines = {True: defs_quick, False: defs_full}
        # The user's `//DL:` lines of scalar arrays (docs/annotations.md),
        # added before the kernel when its file has none; None for struct
        # pointers, which dl-annotate finds by itself.
        self.user = {True: user_quick, False: user_full}


APPS = [
    App('lbm', 'lbm.cl', '--steps', ['--nx', '24', '--ny', '16', '--nz', '20'],
        ['--nx', '120', '--ny', '120', '--nz', '150'],
        '-DNX=24 -DNY=16 -DNZ=20 -DOMEGA=1.5f',
        '-DNX=120 -DNY=120 -DNZ=150 -DOMEGA=1.5f',
        '//DL: AoS: src[7680][20]\n//DL: AoS: dst[7680][20]\n',
        '//DL: AoS: src[2160000][20]\n//DL: AoS: dst[2160000][20]\n'),
    App('spmv', 'spmv.cl', '--iters', ['--rows', '3000', '--k', '40'],
        ['--shape', 'bcsstk31'], '-DROWS=3000 -DK=40', '-DROWS=35588 -DK=197',
        '//DL: AoS: val[3000][40]\n//DL: AoS: col[3000][40]\n',
        '//DL: AoS: val[35588][197]\n//DL: AoS: col[35588][197]\n'),
    App('blackscholes', 'blackscholes.cl', '--iters', ['--options', '16384'],
        ['--options', '4194304'], '-DNOPT=16384', '-DNOPT=4194304', None,
        None),
]


def annotate(tools, app, quick, layout, work_dir):
    """dl-annotate -D... --layout L on the app's kernel (with the user's
    `//DL:` lines first); returns (path, None) or (None, why)."""
    src = os.path.join(tools.kernels, app.kernel)
    try:
        with open(src) as f:
            text = f.read()
    except OSError as e:
        return None, 'kernel source %s: %s' % (src, e.strerror)
    user = app.user[quick]
    if user and '//DL:' not in text and '// DL:' not in text:
        at = text.find('__kernel')
        if at < 0:
            return None, 'no __kernel in %s' % src
        src = os.path.join(work_dir, '%s.user.cl' % app.name)
        with open(src, 'w') as f:
            f.write(text[:at] + user + text[at:])
    out = os.path.join(work_dir, '%s.%s.cl' % (app.name, layout))
    r = run([tools.dl_annotate] + app.defines[quick].split() +
            ['--layout', layout, src, '-o', out])
    if r.rc != 0:
        return None, 'dl-annotate --layout %s exited with %d: %s' % (
            layout, r.rc, r.err[:300])
    return out, None
