#!/usr/bin/env python3
"""install_api_example.py MESON BUILD_DIR CC SOURCE NOTE_SCRIPT

README's "Install", as a user follows it: `meson install` (into a
temporary DESTDIR, the prefix relocated there), then SOURCE
(docs/api_example.c) built with `CC SOURCE $(pkg-config --cflags --libs
dlayout)` against the installed dlayout.pc and run with no
LD_LIBRARY_PATH.  Checks:

* the PKG_CONFIG_PATH the install prints (or its script, NOTE_SCRIPT,
  where meson drops the script's output) names the folder of dlayout.pc,
  or pkg-config already searches that folder and nothing is printed;
  NOTE_SCRIPT (scripts/install_note.py) given folders that neither
  pkg-config nor PATH holds prints both exports;
* the program builds, finds libdlayout.so.0 through the rpath the .pc
  file gives (outside /usr) and exits 0;
* bin/ holds the tools only: the dl-app-* benchmark programs are in
  libexec/dlayout."""
import os
import re
import shlex
import subprocess
import sys
import tempfile

TOOLS = {'dl-run', 'dl-annotate', 'dl-bench'}
APPS = {'dl-app-lbm', 'dl-app-spmv', 'dl-app-blackscholes',
        'dl-app-empty-launch'}


def find_file(root, name):
    for folder, _, files in os.walk(root):
        if name in files:
            return os.path.join(folder, name)
    return None


def pc_variable(pc_file, name):
    with open(pc_file) as f:
        for line in f:
            if line.startswith(name + '='):
                return line.split('=', 1)[1].strip()
    return None


def check_note(output, pc_dir, script):
    """The install's PKG_CONFIG_PATH line names pc_dir, or pkg-config
    searches pc_dir.  Meson 0.57 to 1.1 drop the output of an install
    script that succeeds: then the script is asked directly."""
    pattern = r'export PKG_CONFIG_PATH=([^$\s]+)'
    m = re.search(pattern, output)
    if not m:
        searched = subprocess.run(
            ['pkg-config', '--variable', 'pc_path', 'pkg-config'],
            capture_output=True, text=True).stdout.strip().split(':')
        if pc_dir in searched:
            return []
        m = re.search(pattern, subprocess.run(
            [sys.executable, script, pc_dir, '/'], capture_output=True,
            text=True).stdout)
    if not m:
        return ['no PKG_CONFIG_PATH printed, and pkg-config does not '
                'search %s' % pc_dir]
    return [] if m.group(1) == pc_dir else [
        'the install says PKG_CONFIG_PATH=%s, dlayout.pc is in %s' %
        (m.group(1), pc_dir)]


def check_note_script(script, tmp):
    pc_dir, bindir = os.path.join(tmp, 'pc'), os.path.join(tmp, 'bin')
    out = subprocess.run([sys.executable, script, pc_dir, bindir],
                         capture_output=True, text=True).stdout
    want = ['export PKG_CONFIG_PATH=%s${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}'
            % pc_dir, 'export PATH=%s:$PATH' % bindir]
    return ['%s does not print %r:\n%s' % (script, w, out)
            for w in want if w not in out]


def check_bindir(dest):
    errors = []
    bindir = os.path.dirname(find_file(dest, 'dl-bench') or '/')
    installed = set(os.listdir(bindir)) if os.path.isdir(bindir) else set()
    if not TOOLS <= installed:
        errors.append('bin/ lacks %s' % sorted(TOOLS - installed))
    if installed & APPS:
        errors.append('bin/ holds %s' % sorted(installed & APPS))
    for app in APPS:
        path = find_file(dest, app)
        if not path or not path.endswith(os.path.join('dlayout', app)):
            errors.append('%s is not in libexec/dlayout: %s' % (app, path))
    return errors


def run_example(exe, env, dest, prefix):
    if prefix == '/usr':  # no rpath there: /usr's lib is the loader's
        env['LD_LIBRARY_PATH'] = os.path.dirname(
            find_file(dest, 'libdlayout.so.0'))
    rc = subprocess.run([exe], env=env).returncode
    return [] if rc == 0 else ['the example exited with %d' % rc]


def main():
    if len(sys.argv) != 6:
        print(__doc__, file=sys.stderr)
        return 2
    meson, build, cc, source, note = sys.argv[1:]
    errors = []
    with tempfile.TemporaryDirectory(prefix='dl-install-api.') as tmp:
        errors += check_note_script(note, tmp)
        dest = os.path.join(tmp, 'dest')
        cmd = [meson, 'install', '-C', build, '--destdir', dest,
               '--no-rebuild']
        print(' '.join(cmd), flush=True)
        # A session of its own: no terminal for the note to go to.
        run = subprocess.run(cmd, capture_output=True, text=True,
                             start_new_session=True)
        print(run.stdout[-2000:] + run.stderr[-2000:])
        if run.returncode != 0:
            print('FAIL: meson install failed', file=sys.stderr)
            return 1
        pc_file = find_file(dest, 'dlayout.pc')
        if not pc_file:
            print('FAIL: no dlayout.pc installed', file=sys.stderr)
            return 1
        pc_dir = os.path.dirname(pc_file)[len(dest):]  # the final folder
        prefix = pc_variable(pc_file, 'prefix')
        errors += check_note(run.stdout, pc_dir, note)
        errors += check_bindir(dest)

        env = dict(os.environ)
        env.pop('LD_LIBRARY_PATH', None)
        env['PKG_CONFIG_PATH'] = dest + pc_dir
        flags = subprocess.run(
            ['pkg-config', '--define-variable=prefix=' + dest + prefix,
             '--cflags', '--libs', 'dlayout'],
            env=env, capture_output=True, text=True)
        if flags.returncode != 0:
            errors.append('pkg-config: ' + flags.stderr.strip())
        else:
            exe = os.path.join(tmp, 'api_example')
            cmd = [cc, source] + shlex.split(flags.stdout) + ['-o', exe]
            print(' '.join(cmd), flush=True)
            if subprocess.run(cmd, env=env).returncode != 0:
                errors.append('the example does not build')
            else:
                errors += run_example(exe, env, dest, prefix)
    for e in errors:
        print('FAIL: ' + e, file=sys.stderr)
    print('install + api_example: %s' % ('FAILED' if errors else 'passed'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
