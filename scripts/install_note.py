#!/usr/bin/env python3
"""install_note.py PKGCONFIG_DIR BINDIR - run by `meson install` last.

Prints what a user must set to use the install, and only that: the
PKG_CONFIG_PATH when pkg-config does not search PKGCONFIG_DIR (where
dlayout.pc went), and the PATH when BINDIR (dl-run, dl-annotate,
dl-bench) is not on it.  The paths are the final ones, without a
DESTDIR.

Meson from 0.57 until 1.2 or so runs install scripts with their output
in a pipe that it drops when they succeed: under `meson install` the note
then goes to the terminal (/dev/tty) as well, where there is one."""
import os
import stat
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


def show(note):
    sys.stdout.write(note)
    sys.stdout.flush()
    if 'MESON_INSTALL_PREFIX' not in os.environ or \
            not stat.S_ISFIFO(os.fstat(sys.stdout.fileno()).st_mode):
        return
    try:
        with open('/dev/tty', 'w') as tty:
            tty.write(note)
    except OSError:
        pass  # no terminal: nobody to tell


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
        show('dlayout: to use this install (README.md, "Install"):\n' +
             ''.join('    %s\n' % line for line in lines))
    return 0


if __name__ == '__main__':
    sys.exit(main())
