#!/usr/bin/env python3
"""coalesce_check.py DL_BENCH [--no-metis]

Smoke test of `dl-bench coalesce`: writes index arrays (raw int32, raw
int64, text) into a temporary folder and checks the counted transactions
against the ones worked out by hand (docs/irregular.md), the presets'
lines, an OpenCL device's line, the exit codes of bad input, and
`--remap` (graph-partitioned remapping with METIS) on a case whose best
layout is obvious; with --no-metis (a build without METIS), that
--remap fails with exit 1 and says why."""
import os
import struct
import subprocess
import sys
import tempfile

# Figure 4 of Wu et al.: layout a c e g | b d f h, 4 threads per warp and
# 4 objects (floats) per 16-byte segment: 11 transactions, 6 after.
NAMES = dict(a=0, c=1, e=2, g=3, b=4, d=5, f=6, h=7)
FIGURE4 = [NAMES[x] for x in 'aabbccddeeaabbccddefghaa']
W4S16 = ['--simd-width', '4', '--segment-bytes', '16']
# Eight warp-accesses of 4 lanes, each reading a column of a 4x4 array of
# floats (4 segments); remapped, each column is a segment: 32 -> 8.
COLUMNS = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
           12, 8, 4, 0, 13, 1, 9, 5, 6, 14, 2, 10, 11, 15, 7, 3]


def run(bench, args):
    p = subprocess.run([bench, 'coalesce'] + args, capture_output=True,
                       text=True)
    return p.returncode, p.stdout


def expect(errors, bench, args, code, *parts):
    rc, out = run(bench, args)
    if rc != code:
        errors.append('%s: exit %d, want %d' % (args, rc, code))
    for part in parts:
        if part not in out:
            errors.append('%s: no %r in %r' % (args, part, out))


def write_files(d):
    paths = {k: os.path.join(d, 'p.' + k) for k in ('i32', 'i64', 'txt',
                                                    'ell', 'odd', 'cols')}
    with open(paths['cols'], 'wb') as f:
        f.write(struct.pack('<%di' % len(COLUMNS), *COLUMNS))
    with open(paths['i32'], 'wb') as f:
        f.write(struct.pack('<%di' % len(FIGURE4), *FIGURE4))
    with open(paths['i64'], 'wb') as f:
        f.write(struct.pack('<%dq' % len(FIGURE4), *FIGURE4))
    with open(paths['txt'], 'w') as f:
        f.write('# figure 4\n' + '\n'.join(map(str, FIGURE4)) + '\n')
    # ELL, 4 rows of 2 entries column-major: step 0 reads elements 0-3
    # (1 segment), step 1 reads 9 5 13 1 (4 segments); after: 1 + 1.
    with open(paths['ell'], 'wb') as f:
        f.write(struct.pack('<8i', 0, 1, 2, 3, 9, 5, 13, 1))
    with open(paths['odd'], 'wb') as f:
        f.write(b'\0' * 6)
    return paths


def check_remap(errors, bench, p, metis):
    args = [p['cols'], '--device-class', 'gpu'] + W4S16
    if not metis:
        r = subprocess.run([bench, 'coalesce'] + args + ['--remap', 'clique'],
                           capture_output=True, text=True)
        if r.returncode != 1 or 'METIS' not in r.stderr:
            errors.append('--remap without METIS: exit %d, %r' %
                          (r.returncode, r.stderr))
        return
    for form in ('clique', 'hypergraph'):
        expect(errors, bench, args + ['--remap', form], 0,
               'gpu remap (%s): 32 -> 8 transactions (75.0%% fewer), 0 '
               'extra bytes beyond P\'; sample 1.00: 8 of 8 warp-accesses, '
               '4 patterns; 4 parts of 4 elements, 0 moved' % form)
    expect(errors, bench, args + ['--remap', 'clique', '--sample', '0.5'],
           0, 'sample 0.50: ')
    expect(errors, bench, args + ['--remap', 'clique', '--min-pattern',
                                  '5'], 0, '0 of 8 warp-accesses')
    for bad in (['--remap', 'tree'], ['--remap', 'clique', '--sample', '0'],
                ['--remap', 'clique', '--sample', '2']):
        expect(errors, bench, args + bad, 2)


def check(bench, p, metis):
    errors = []
    check_remap(errors, bench, p, metis)
    fig4 = '1.8 -> 1.0 transactions per warp-access (45.5% fewer); ' \
           '6 warp-accesses, 11 -> 6 transactions'
    expect(errors, bench, [p['i32']] + W4S16 + ['--device-class', 'gpu'],
           0, 'gpu: W=4 S=16: ' + fig4)
    expect(errors, bench, [p['i64'], '--index-bytes', '8'] + W4S16, 0,
           'gpu: W=4 S=16: ' + fig4, 'cpu: W=4 S=16: ' + fig4)
    expect(errors, bench, ['--text', p['txt']] + W4S16, 0, fig4)
    # The presets: 24 floats are one GPU warp in one 128-byte segment,
    # three 8-lane CPU accesses (32-byte SIMD) of one 64-byte line each.
    expect(errors, bench, [p['i32']], 0,
           'gpu: W=32 S=128: 1.0 -> 1.0', '; 1 warp-accesses, 1 -> 1',
           'cpu: W=8 S=64: 1.0 -> 1.0', '; 3 warp-accesses, 3 -> 3')
    expect(errors, bench, [p['ell'], '--threads', '4', '--steps', '2',
                           '--j-stride', '4'] + W4S16, 0,
           '2 warp-accesses, 5 -> 2 transactions')
    expect(errors, bench, [p['i32'], '--device', '0'], 0, "device '")
    for bad in (['--index-bytes', '2', p['i32']], ['--device-class', 'tpu',
                p['i32']], ['--field', '4', p['i32']], ['--offset', 'x',
                p['i32']], ['--fast', p['i32']], [], [p['i32'], p['i64']]):
        expect(errors, bench, bad, 2)
    for bad in ([p['odd']], [os.path.join(os.path.dirname(p['odd']), 'no')],
                [p['i32'], '--field', '2:4'], ['--text', p['i32']]):
        expect(errors, bench, bad, 1)
    return errors


def main():
    if len(sys.argv) not in (2, 3) or sys.argv[2:] not in ([],
                                                          ['--no-metis']):
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as d:
        errors = check(sys.argv[1], write_files(d), len(sys.argv) == 2)
    for e in errors:
        print('FAIL:', e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
