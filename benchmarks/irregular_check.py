#!/usr/bin/env python3
"""irregular_check.py DL_BENCH

Test of `dl-bench irregular --quick --reps 1`: it must exit 0 and print
one CSV row per workload, reference, method and geometry (two geometries
per method, every workload present with the methods that apply to it),
each verified (the method's kernel output byte-identical to the plain
kernel's), with counts that add up, and one selected method per
reference.  No timing is checked."""
import csv
import io
import subprocess
import sys

WORKLOADS = ['spmv-%s/%s' % (f, m) for m in
             ('stencil', 'stencil-shuffled', 'rmat', 'uniform',
              'stencil-xshuffled')
             for f in ('csr', 'ell')] + ['md-force', 'records-pair']
# The graph-kernel loops: none, duplication and (with METIS) remap.
LOOPS = ['pagerank/rmat', 'pagerank/rmat-shuffled',
         'sym-spmv/stencil-shuffled']
COLUMNS = ['workload', 'reference', 'method', 'class', 'W', 'S',
           'accesses', 'tx', 'tx_none', 'fewer_pct', 'elem_bytes', 'a_bytes',
           'extra_bytes', 'index_bytes', 'extra_frac', 'plain_ms', 'plan_ms',
           'reorg_ms', 'kernel_ms', 'iterations', 'plain_n_ms', 'net_1_ms',
           'net_n_ms', 'speedup_1', 'speedup_n', 'verified', 'selected',
           'whole_ms', 'overlap_net_ms', 'reorg_hidden_ms']
# The methods each workload's first reference must have (remap too when
# dl-bench was built with METIS: then every SpMV and the records have it).
ALWAYS = ['none', 'duplication', 'job swap']


def expected_methods(workload):
    if workload in LOOPS:
        return ['none', 'duplication']
    extra = (['sharing', 'padding'] if workload.startswith('spmv-ell/') else
             ['padding'] if workload == 'records-pair' else [])
    return ALWAYS + extra


def row_errors(n, row):
    errors = []
    if row['verified'] != '1':
        errors.append('row %d not verified: %s' % (n, row))
    if row['class'] not in ('gpu', 'device'):
        errors.append('row %d: class %r' % (n, row['class']))
    if row['class'] == 'gpu' and (row['W'], row['S']) != ('32', '128'):
        errors.append('row %d: GPU class is not W=32 S=128' % n)
    accesses, tx = int(row['accesses']), int(row['tx'])
    if accesses <= 0 or tx < accesses:
        errors.append('row %d: counts do not add up: %s' % (n, row))
    if row['method'] == 'duplication' and int(row['extra_bytes']) <= 0:
        errors.append('row %d: duplication without extra memory' % n)
    if row['method'] == 'none' and row['tx'] != row['tx_none']:
        errors.append('row %d: none is not the baseline' % n)
    return errors


def method_errors(rows):
    """Every workload's first reference has the methods that apply to it
    (remap on all SpMVs or on none), and each reference one selected."""
    errors, seen, selected = [], {}, {}
    for r in rows:
        seen.setdefault(r['workload'], set()).add(r['method'])
        key = (r['workload'], r['reference'])
        selected[key] = selected.get(key, 0) + (r['selected'] == '1')
    for w, methods in seen.items():
        missing = set(expected_methods(w)) - methods
        if missing:
            errors.append('%s: no rows of %s' % (w, sorted(missing)))
    graphs = [w for w in seen if w.startswith('spmv-') or w in LOOPS]
    remap = [w for w in graphs if 'remap' in seen[w]]
    if remap and len(remap) != len(graphs):
        errors.append('remap on some SpMVs and loops only: %s' % remap)
    errors += ['%s: %d rows selected, not 2' % (k, n)
               for k, n in selected.items() if n != 2]
    return errors


def csr_matches_ell(rows):
    """The uniform matrix has rows of one length, so its CSR lanes read
    what its ELL lanes read: the CSR count (lane by lane, irr_count.c)
    must equal the analyser's affine ELL count before reordering."""
    pick = {(r['workload'], r['class']): r for r in rows
            if r['method'] == 'none'}
    errors = []
    for cls in ('gpu', 'device'):
        csr = pick.get(('spmv-csr/uniform', cls))
        ell = pick.get(('spmv-ell/uniform', cls))
        if not csr or not ell:
            continue
        for key in ('accesses', 'tx'):
            if csr[key] != ell[key]:
                errors.append('uniform %s: CSR %s %s, ELL %s' % (
                    cls, key, csr[key], ell[key]))
    return errors


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = [sys.argv[1], 'irregular', '--quick', '--reps', '1']
    print(' '.join(cmd), flush=True)
    p = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(p.stderr)
    errors = [] if p.returncode == 0 else ['exit status %d' % p.returncode]
    reader = csv.DictReader(io.StringIO(p.stdout))
    rows = list(reader)
    if reader.fieldnames != COLUMNS:
        errors.append('columns %s' % reader.fieldnames)
    else:
        for n, row in enumerate(rows, 2):
            errors += row_errors(n, row)
        seen = [r['workload'] for r in rows]
        errors += ['no rows of %s' % w for w in WORKLOADS + LOOPS
                   if w not in seen]
        errors += csr_matches_ell(rows)
        errors += method_errors(rows)
        if len(rows) % 2 or len(rows) < 2 * len(WORKLOADS):
            errors.append('%d rows: not two per method' % len(rows))
    for e in errors:
        print('FAIL: ' + e, file=sys.stderr)
    print('irregular check: %d rows, %s' % (
        len(rows), 'FAILED' if errors else 'all passed'))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
