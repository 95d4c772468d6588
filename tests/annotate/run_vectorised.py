#!/usr/bin/env python3
"""Does the code that dl-annotate writes vectorise like hand-written DA?

Builds LBM's step kernel three ways on POCL, each with an empty
POCL_CACHE_DIR of its own, and disassembles the work-group function POCL
left there (`lbm_step.so`):

* the original AoS kernel (benchmarks/apps/lbm.cl);
* the hand-written DA kernel (lbm_da.cl, `dl-app-lbm --layout da`);
* dl-annotate's output with DL_ACTIVE_lbm_step defined (the DA branch;
  the data are not converted, only the code matters here);
* the same with the runtime's range hint DL_GLOBAL_END_lbm_step for the
  launch (32, 16, 16), as dl-run builds it.

It counts packed single-precision instructions on vector registers.  The
annotated kernel must have at least 80 % of the hand-written kernel's
count.  The range hint must add no gathers or scatters: the lattice is 32
cells wide, and an unsigned bound on the ids let LLVM write the cell
index `(z*NY + y)*32 + x` as `... << 5 | x`, which POCL's vectoriser could
not follow (160 gathers/scatters instead of 40, the step 2x slower).  Exit 77 (skipped) when the device leaves no lbm_step.so or the
hand-written kernel has no packed instructions (no vector unit to use).

Then ASTA(8): the Figure 1 kernel (e2e/figure1.cl, records of 8 floats)
rewritten by dl-annotate, built with its activation macros three ways and
run by dla-e2e-host:

* DA (`--layout da`), on the application's 1-D range;
* ASTA(8) in the flat form ((i/T)*S + s)*T + i%T (the tiled variant's
  `#if` forced off), on the 1-D range;
* ASTA(8) in the tiled form, on the range global (8, N/8) that the
  runtime gives it (rt_reshape.c).

Here the count is of packed loads and stores at consecutive addresses
(vmovups/vmovaps with a memory operand): a flat ASTA index is at best
turned into gathers and scatters.  The tiled form must have at least 80 %
of DA's, the flat form less than half of DA's.

usage: run_vectorised.py DL_ANNOTATE DL_APP_LBM LLVM_OBJDUMP LBM_CL WORK
                         [DLA_E2E_HOST FIGURE1_CL]
"""
import glob
import os
import re
import shutil
import subprocess
import sys

PACKED = re.compile(r"^\s*[0-9a-f]+:.*\tv?\w+ps\s.*%[xyz]mm", re.M)
CONTIGUOUS = re.compile(r"^\s*[0-9a-f]+:.*\tv?mov[au]ps\s.*\(.*%[xyz]mm|"
                        r"^\s*[0-9a-f]+:.*\tv?mov[au]ps\s.*%[xyz]mm.*\(",
                        re.M)
GATHER = re.compile(r"^\s*[0-9a-f]+:.*\tv(gather|scatter)\w+ps\s", re.M)
CELLS = "global_size(0) * global_size(1) * global_size(2)"


def lbm_counts(app, objdump, work, name, extra):
    """(packed instructions, gathers and scatters) of the kernel, or None."""
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
    return len(PACKED.findall(asm)), len(GATHER.findall(asm))


def disassemble(objdump, cache, name):
    found = glob.glob(os.path.join(cache, "**", name + ".so"),
                      recursive=True)
    if not found:
        return None
    return subprocess.run([objdump, "-d", found[0]], check=True,
                          stdout=subprocess.PIPE).stdout.decode()


def figure1(annotate, host, objdump, kernel, work):
    """0 ok, 1 fail, 77 skipped."""
    forms = {}
    for layout in ("da", "asta"):
        out = os.path.join(work, "figure1.%s.cl" % layout)
        subprocess.run([annotate, "--layout", layout, "--tile", "8", kernel,
                        "-o", out], check=True)
        with open(out) as f:
            forms[layout] = "#define DL_ACTIVE_update 1\n" + f.read()
    tiled_if = re.compile(r"^#if DL_TILE_update_p > 1 .*$", re.M)
    if not tiled_if.search(forms["asta"]):
        print("FAIL: dl-annotate wrote no tiled variant for figure1.cl")
        return 1
    forms["asta-flat"] = tiled_if.sub("#if 0", forms["asta"])
    forms["asta-tiled"] = forms.pop("asta")
    n = 65536
    counts = {}
    for name in ("da", "asta-flat", "asta-tiled"):
        path = os.path.join(work, "figure1.%s.active.cl" % name)
        with open(path, "w") as f:
            f.write(forms[name])
        cache = os.path.join(work, "cache-figure1-" + name)
        shutil.rmtree(cache, ignore_errors=True)
        env = dict(os.environ, POCL_CACHE_DIR=cache)
        tile = ["8"] if name == "asta-tiled" else []
        subprocess.run([host, "figure1", path, str(n)] + tile, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        asm = disassemble(objdump, cache, "update")
        if asm is None:
            print("skipped: the device leaves no update.so in its cache")
            return 77
        counts[name] = (len(CONTIGUOUS.findall(asm)),
                        len(GATHER.findall(asm)), len(PACKED.findall(asm)))
        print("figure1 %-10s contiguous packed loads/stores: %3d, "
              "gathers/scatters: %3d, packed instructions: %3d" %
              ((name,) + counts[name]))
    da = counts["da"][0]
    if da == 0:
        print("skipped: the DA kernel is not vectorised here")
        return 77
    if counts["asta-tiled"][0] < 0.8 * da:
        print("FAIL: the tiled ASTA kernel is less vectorised than DA")
        return 1
    if counts["asta-flat"][0] >= 0.5 * da:
        print("FAIL: the flat ASTA kernel has contiguous packed accesses: "
              "this test no longer tells the two forms apart")
        return 1
    return 0


def main():
    annotate, app, objdump, lbm_cl, work = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    user = os.path.join(work, "lbm.user.cl")
    with open(lbm_cl) as f, open(user, "w") as out:
        out.write("// DL: AoS: src[%s][20]\n// DL: AoS: dst[%s][20]\n" %
                  (CELLS, CELLS) + f.read())
    annotated = os.path.join(work, "lbm.dl.cl")
    subprocess.run([annotate, "--layout", "da", "-DNX=1", "-DNY=1", "-DNZ=1",
                    "-DOMEGA=1.0f", user, "-o", annotated], check=True)
    active = os.path.join(work, "lbm.active.cl")
    hinted = os.path.join(work, "lbm.hinted.cl")
    with open(annotated) as f:
        text = f.read()
    with open(active, "w") as out:
        out.write("#define DL_ACTIVE_lbm_step 1\n" + text)
    with open(hinted, "w") as out:
        out.write("#define DL_ACTIVE_lbm_step 1\n"
                  "#define DL_GLOBAL_END_lbm_step 32UL,16UL,16UL\n" + text)
    counts = {}
    for name, extra in (("aos", ["--kernel", lbm_cl]),
                        ("hand-da", ["--layout", "da"]),
                        ("annotated-da", ["--kernel", active]),
                        ("hinted-da", ["--kernel", hinted])):
        counts[name] = lbm_counts(app, objdump, work, name, extra)
        if counts[name] is None:
            print("skipped: the device leaves no lbm_step.so in its cache")
            return 77
        print("%-13s packed vector instructions: %4d, gathers/scatters: %3d"
              % ((name,) + counts[name]))
    if counts["hand-da"][0] == 0:
        print("skipped: the hand-written DA kernel is not vectorised here")
        return 77
    if counts["annotated-da"][0] < 0.8 * counts["hand-da"][0]:
        print("FAIL: dl-annotate's DA kernel is less vectorised than the "
              "hand-written one")
        return 1
    if counts["hinted-da"][1] > counts["annotated-da"][1]:
        print("FAIL: the range hint DL_GLOBAL_END turns contiguous accesses "
              "of dl-annotate's DA kernel into gathers or scatters")
        return 1
    if len(sys.argv) > 7:
        status = figure1(annotate, sys.argv[6], objdump, sys.argv[7], work)
        if status == 1:
            return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
