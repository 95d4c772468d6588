#!/usr/bin/env python3
"""Does the DA code that dl-annotate writes vectorise like hand-written DA?

Builds LBM's step kernel three ways on POCL, each with an empty
POCL_CACHE_DIR of its own, and disassembles the work-group function POCL
left there (`lbm_step.so`):

* the original AoS kernel (benchmarks/apps/lbm.cl);
* the hand-written DA kernel (lbm_da.cl, `dl-app-lbm --layout da`);
* dl-annotate's output with DL_ACTIVE_lbm_step defined (the DA branch;
  the data are not converted, only the code matters here).

It counts packed single-precision instructions on vector registers.  The
annotated kernel must have at least 80 % of the hand-written kernel's
count.  Exit 77 (skipped) when the device leaves no lbm_step.so or the
hand-written kernel has no packed instructions (no vector unit to use).

usage: run_vectorised.py DL_ANNOTATE DL_APP_LBM LLVM_OBJDUMP LBM_CL WORK
"""
import glob
import os
import re
import shutil
import subprocess
import sys

PACKED = re.compile(r"^\s*[0-9a-f]+:.*\tv?\w+ps\s.*%[xyz]mm", re.M)
CELLS = "global_size(0) * global_size(1) * global_size(2)"


def packed_count(app, objdump, work, name, extra):
    cache = os.path.join(work, "cache-" + name)
    shutil.rmtree(cache, ignore_errors=True)
    env = dict(os.environ, POCL_CACHE_DIR=cache)
    subprocess.run([app, "--nx", "32", "--ny", "16", "--nz", "16",
                    "--steps", "1", "--local", "32", "--quiet"] + extra,
                   env=env, check=True, stdout=subprocess.DEVNULL)
    found = glob.glob(os.path.join(cache, "**", "lbm_step.so"),
                      recursive=True)
    if not found:
        return None
    asm = subprocess.run([objdump, "-d", found[0]], check=True,
                         stdout=subprocess.PIPE).stdout.decode()
    return len(PACKED.findall(asm))


def main():
    annotate, app, objdump, lbm_cl, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    user = os.path.join(work, "lbm.user.cl")
    with open(lbm_cl) as f, open(user, "w") as out:
        out.write("// DL: AoS: src[%s][20]\n// DL: AoS: dst[%s][20]\n" %
                  (CELLS, CELLS) + f.read())
    annotated = os.path.join(work, "lbm.dl.cl")
    subprocess.run([annotate, "-DNX=1", "-DNY=1", "-DNZ=1",
                    "-DOMEGA=1.0f", user, "-o", annotated], check=True)
    active = os.path.join(work, "lbm.active.cl")
    with open(annotated) as f, open(active, "w") as out:
        out.write("#define DL_ACTIVE_lbm_step 1\n" + f.read())
    counts = {}
    for name, extra in (("aos", ["--kernel", lbm_cl]),
                        ("hand-da", ["--layout", "da"]),
                        ("annotated-da", ["--kernel", active])):
        counts[name] = packed_count(app, objdump, work, name, extra)
        print("%-13s packed vector instructions: %s" % (name, counts[name]))
    if counts["hand-da"] is None or counts["annotated-da"] is None:
        print("skipped: the device leaves no lbm_step.so in its cache")
        return 77
    if counts["hand-da"] == 0:
        print("skipped: the hand-written DA kernel is not vectorised here")
        return 77
    if counts["annotated-da"] < 0.8 * counts["hand-da"]:
        print("FAIL: dl-annotate's DA kernel is less vectorised than the "
              "hand-written one")
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
