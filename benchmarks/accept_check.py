#!/usr/bin/env python3
"""accept_check.py DL_BENCH [ACCEPT OPTIONS...]

Test of `dl-bench accept --quick`: runs it into a temporary folder and
checks that it exits 0, that accept.csv is well-formed (the header, 14
fields a row, numbers where numbers belong, every row verified, a plain
and a dl-run row for every case, LBM cold too) and that accept.md has its
tables.  Also checks that a missing --out is a usage error (exit 2).  No
timing is checked: a quick run on a shared host means nothing."""
import csv
import math
import os
import subprocess
import sys
import tempfile

HEADER = ['group', 'case', 'variant', 'iterations', 'wall_ms',
          'wall_ms_min', 'wall_ms_max', 'total_ms', 'marshal_enqueue_ms',
          'ratio_wall', 'ratio_total', 'goal', 'met', 'verified']
NUMBERS = ['wall_ms', 'wall_ms_min', 'wall_ms_max', 'ratio_wall']
MAYBE_NUMBERS = ['total_ms', 'marshal_enqueue_ms', 'ratio_total']
GROUPS = {'apps', 'empty', 'tests', 'lbm-break-even'}


def number(text):
    value = float(text)
    if math.isnan(value) or value < 0:
        raise ValueError(text)
    return value


def check_csv(path, errors):
    with open(path, newline='') as f:
        lines = list(csv.reader(f))
    if not lines or lines[0] != HEADER:
        errors.append('accept.csv: header %s' % (lines[:1],))
        return
    variants = {}
    for n, row in enumerate(lines[1:], 2):
        if len(row) != len(HEADER):
            errors.append('accept.csv:%d: %d fields' % (n, len(row)))
            continue
        r = dict(zip(HEADER, row))
        try:
            for key in NUMBERS:
                number(r[key])
            for key in MAYBE_NUMBERS:
                if r[key] != 'NA':
                    number(r[key])
            int(r['iterations'])
        except ValueError as e:
            errors.append('accept.csv:%d: not a number: %s' % (n, e))
        if r['group'] not in GROUPS:
            errors.append('accept.csv:%d: group %s' % (n, r['group']))
        if r['verified'] != '1':
            errors.append('accept.csv:%d: output differs: %s' % (n, row))
        if r['met'] not in ('0', '1', 'NA'):
            errors.append('accept.csv:%d: met %s' % (n, r['met']))
        if r['variant'] == 'plain' and r['ratio_wall'] != '1.0000':
            errors.append('accept.csv:%d: plain ratio %s' %
                          (n, r['ratio_wall']))
        if r['variant'] != 'plain' and r['marshal_enqueue_ms'] == 'NA':
            errors.append('accept.csv:%d: dl-run without marshal_enqueue_ms'
                          % n)
        variants.setdefault(r['case'], set()).add(r['variant'])
    for case in ['lbm', 'spmv', 'blackscholes', 'empty-launch',
                 'empty-launch-annotated']:
        if case not in variants:
            errors.append('accept.csv: no rows for %s' % case)
    for case, have in variants.items():
        want = {'plain', 'dl-run'} | ({'dl-run-cold'} if case == 'lbm'
                                      else set())
        if have != want:
            errors.append('accept.csv: %s has %s' % (case, sorted(have)))
    print('accept.csv: %d rows, %d cases' % (len(lines) - 1, len(variants)))


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    dl_bench, args = sys.argv[1], sys.argv[2:]
    errors = []
    rc = subprocess.run([dl_bench, 'accept'] + args,
                        stderr=subprocess.DEVNULL).returncode
    if rc != 2:
        errors.append('without --out: exit %d, expected 2' % rc)
    with tempfile.TemporaryDirectory(prefix='dl-bench-accept.') as out:
        cmd = [dl_bench, 'accept', '--quick', '--out', out] + args
        print(' '.join(cmd), flush=True)
        rc = subprocess.run(cmd).returncode
        if rc != 0:
            errors.append('dl-bench accept exited with %d' % rc)
        for name in ['accept.csv', 'accept.md']:
            if not os.path.isfile(os.path.join(out, name)):
                errors.append('missing %s' % name)
        path = os.path.join(out, 'accept.csv')
        if os.path.isfile(path):
            check_csv(path, errors)
        path = os.path.join(out, 'accept.md')
        if os.path.isfile(path):
            with open(path) as f:
                report = f.read()
            print(report)
            for text in ['| case | iterations |', 'LBM break-even',
                         '| lbm |', 'cold binary cache']:
                if text not in report:
                    errors.append('accept.md lacks %r' % text)
    for e in errors:
        print('FAIL: ' + e, file=sys.stderr)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
