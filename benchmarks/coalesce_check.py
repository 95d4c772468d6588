#!/usr/bin/env python3
"""coalesce_check.py DL_BENCH

Smoke test of `dl-bench coalesce`: writes index arrays (raw int32, raw
int64, text) into a temporary folder and checks the counted transactions
against the ones worked out by hand (docs/irregular.md), the presets'
lines, an OpenCL device's line, and the exit codes of bad input."""
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
                                                    'ell', 'odd')}
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


def check(bench, p):
    errors = []
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
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    with tempfile.TemporaryDirectory() as d:
        errors = check(sys.argv[1], write_files(d))
    for e in errors:
        print('FAIL:', e)
    sys.exit(1 if errors else 0)


if __name__ == '__main__':
    main()
