#!/usr/bin/env python3
"""install_note.py PKGCONFIG_DIR BINDIR - run by `meson install` last.

Prints what a user must set to use the install, and only that: the
PKG_CONFIG_PATH when pkg-config does not search PKGCONFIG_DIR (where
dlayout.pc went), and the PATH when BINDIR (dl-run, dl-annotate,
dl-bench) is not on it.  The paths are the final ones, without a
DESTDIR."""
import os
import subprocess
import sys


def pkg_config_searches(folder):
    """Whether pkg-config finds .pc files in folder without being told."""
    try:
        out = subprocess.run(['pkg-config', '--variable', 'pc_path',
                              'pkg-config'], capture_output=True, text=True)
    except OSError:
        return False
    searched = out.stdout.strip().split(':')
    searched += os.environ.get('PKG_CONFIG_PATH', '').split(':')
    real = os.path.realpath(folder)
    return any(d and os.path.realpath(d) == real for d in searched)


def on_path(folder):
    real = os.path.realpath(folder)
    return any(d and os.path.realpath(d) == real
               for d in os.environ.get('PATH', '').split(':'))


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    pc_dir, bindir = sys.argv[1], sys.argv[2]
    lines = []
    if not pkg_config_searches(pc_dir):
        lines.append('export PKG_CONFIG_PATH=%s${PKG_CONFIG_PATH:+:'
                     '$PKG_CONFIG_PATH}' % pc_dir)
    if not on_path(bindir):
        lines.append('export PATH=%s:$PATH' % bindir)
    if lines:
        print('dlayout: to use this install (README.md, "Install"):')
        for line in lines:
            print('    ' + line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
