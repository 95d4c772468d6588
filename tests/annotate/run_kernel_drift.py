#!/usr/bin/env python3
"""The integration kernels that are dl-annotate's output must stay it.

Some kernels of tests/integration/kernels/ are kept as dl-annotate wrote
them (its annotations, its DL_ACTIVE_ / DL_JOBSWAP_ branches and macros,
its added parameters).  For each kernel of KERNELS below this test takes
back what dl-annotate adds (strip()), annotates the result again with
the kernel's options and compares it byte for byte with the file,
printing a unified diff on a mismatch.  After a change of dl-annotate's
output, regenerate a kernel with --update and review the diff.

WITHOUT lists the lines of dl-annotate's output that a kernel leaves out
on purpose, and why; EXEMPT the kernels that say they are dl-annotate's
output but are not kept as its text at all, with the reason.

usage: run_kernel_drift.py --annotate EXE --kernels DIR [--update] [NAME...]
       run_kernel_drift.py --kernels DIR     (no dl-annotate: exit 77)
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

# kernel file: dl-annotate's options (K comes from the build options:
# any value lets the file parse, the annotations name K itself)
KERNELS = {
    "chunks.cl": ["-DK=1"],
    "csr.cl": [],
    "graph_loops.cl": [],
    "jobswap.cl": [],
    "offset_da.cl": ["--layout", "da"],
    "reorder.cl": ["-DK=1"],
    "sharing.cl": ["-DK=1"],
    "tripswap.cl": [],
}

# kernel file: (dl-annotate's lines left out of it on purpose, why)
WITHOUT = {
    "graph_loops.cl": (
        r"//DL: v1 jobs: ",
        "its CSR kernels have no jobs keys: integration-graph-loops-"
        "pagerank-jobswap checks what forced job swapping says of a CSR "
        "kernel without one"),
}

EXEMPT = {
    "embedded_annotated.cl":
        "rewritten by hand as dl-annotate would, with its own ASTA "
        "function and no DL_ACTIVE_ branch: not dl-annotate's text",
}

# The macros dl-annotate writes before a rewritten kernel
# (annotate/preamble.c), each `#ifndef NAME ... #endif`.
PREAMBLE_MACROS = ("DLA_ASTA_OFF", "DLA_ASSUME_GLOBAL_END", "DLA_FDIV",
                   "DLA_LAYOUT_CHECK", "DLA_ASTA_TILED")

CONDITIONAL = re.compile(r"#\s*if(n?def)?\b")
ENDIF = re.compile(r"#\s*endif\b")


def block_end(text, start):
    """The offset after the `#endif` line closing the conditional that
    starts at `start`, and the offset of its top-level `#else` (or -1)."""
    depth, at, else_at = 0, start, -1
    while at < len(text):
        eol = text.find("\n", at)
        eol = len(text) if eol < 0 else eol + 1
        line = text[at:eol].lstrip()
        if CONDITIONAL.match(line):
            depth += 1
        elif ENDIF.match(line):
            depth -= 1
            if depth == 0:
                return eol, else_at
        elif depth == 1 and re.match(r"#\s*else\b", line):
            else_at = at
        at = eol
    raise ValueError("unbalanced conditional at offset %d" % start)


def strip_bodies(text):
    """`{\\n#ifdef DL_ACTIVE_k\\n...\\n#else\\nB\\n#endif\\n}` -> `{B}`:
    the #else branch is the body as written."""
    out, at = [], 0
    for m in re.finditer(r"\{\n(?=#ifdef DL_ACTIVE_\w+\n)", text):
        if m.start() < at:
            continue
        end, else_at = block_end(text, m.end())
        if else_at < 0 or not text.startswith("}", end):
            continue
        original = text[else_at + len("#else\n"):end - len("\n#endif\n")]
        out.append(text[at:m.start()] + "{" + original + "}")
        at = end + 1
    out.append(text[at:])
    return "".join(out)


def strip_preamble(text):
    """The macros, tile defaults and helper copies before a rewritten
    kernel (its layout annotations stay: they are its input too).  The
    blank line before them is where dl-annotate took the user's
    annotation away; the annotation goes back there."""
    names = "|".join(PREAMBLE_MACROS)
    start = re.compile(r"^(#ifndef (?:%s|DL_TILE_\w+)|#ifdef DL_ACTIVE_\w+)\n"
                       % names, re.M)
    while True:
        m = start.search(text)
        if not m:
            return text
        end = m.start()
        while True:
            m2 = start.match(text, end)
            if not m2:
                break
            end, _ = block_end(text, end)
        annotations = re.match(r"(//DL: v1 (?:aos|launch: tiled)[^\n]*\n)*",
                               text[end:]).group(0)
        before = text[:m.start()]
        if annotations and before.endswith("\n\n"):
            before = before[:-1]
        text = before + annotations + text[end + len(annotations):]


def strip(text):
    """The source dl-annotate was given, as far as its output tells."""
    # the job-swapped form: the macro before the kernel, its #undef after
    text = re.sub(r"#ifdef DL_JOBSWAP_(\w+)\n#define get_global_id\(d\) "
                  r"\\\n[^\n]*\n#endif\n", "", text)
    text = re.sub(r"\n#ifdef DL_JOBSWAP_(\w+)\n#undef get_global_id\n"
                  r"#endif", "", text)
    # the parameters: the shared form's (last), gather arrays, the job map
    text = re.sub(r"#ifdef DL_SHARE_(\w+)\n(?:, [^\n]*\n)+#endif\n", "",
                  text)
    text = re.sub(r"\n#ifdef DL_ACTIVE_(\w+)\n(?:, [^\n]*\n)+#endif\n"
                  r"(?:#ifdef DL_JOBSWAP_\1\n, [^\n]*\n#endif\n)?", "", text)
    text = re.sub(r"\n#ifdef DL_JOBSWAP_(\w+)\n, [^\n]*\n#endif\n", "",
                  text)
    text = strip_bodies(text)
    text = strip_preamble(text)
    # the annotations of indirect references, chunks flags and jobs keys
    return re.sub(r"^//DL: v1 (?:indirect|launch: chunks|jobs)[^\n]*\n", "",
                  text, flags=re.M)


def annotate(exe, options, source, work):
    path = os.path.join(work, "input.cl")
    with open(path, "w") as f:
        f.write(source)
    p = subprocess.run([exe] + options + [path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0:
        raise RuntimeError("dl-annotate exited %d:\n%s" %
                           (p.returncode, p.stderr.decode(errors="replace")))
    return p.stdout.decode()


def check(exe, kernels, name, update, work):
    path = os.path.join(kernels, name)
    with open(path) as f:
        text = f.read()
    options = KERNELS[name]
    fresh = annotate(exe, options, strip(text), work)
    if name in WITHOUT:
        fresh = re.sub(r"^%s[^\n]*\n" % WITHOUT[name][0], "", fresh,
                       flags=re.M)
    if fresh == text:
        print("ok      %s" % name)
        return True
    if update:
        with open(path, "w") as f:
            f.write(fresh)
        print("updated %s" % name)
        return True
    print("DIFFERS %s: not what dl-annotate%s writes (regenerate with "
          "--update, review the diff):" %
          (name, "".join(" " + o for o in options)))
    sys.stdout.writelines(difflib.unified_diff(
        text.splitlines(True), fresh.splitlines(True),
        "kernels/" + name, "dl-annotate " + name))
    return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--annotate")
    ap.add_argument("--kernels", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if not args.annotate:
        print("dl-annotate is not built (no libclang): skipped")
        return 77
    # every kernel that says it is dl-annotate's output is checked or
    # exempt with its reason
    for name in sorted(os.listdir(args.kernels)):
        with open(os.path.join(args.kernels, name)) as f:
            words = re.sub(r"\s+(?:\*|//)?\s*", " ", f.read())
        says = re.search(r"dl-annotate wrote|dl-annotate's output|"
                         r"dl-annotate --|are its output", words)
        if says and name not in KERNELS and name not in EXEMPT:
            print("%s says it is dl-annotate's output: add it to KERNELS "
                  "or EXEMPT" % name)
            return 1
    for name, why in sorted(EXEMPT.items()):
        print("exempt  %s: %s" % (name, why))
    for name, (lines, why) in sorted(WITHOUT.items()):
        print("without %s: dl-annotate's %s... lines: %s" % (name, lines, why))
    ok = True
    with tempfile.TemporaryDirectory() as work:
        for name in args.names or sorted(KERNELS):
            try:
                ok &= check(args.annotate, args.kernels, name, args.update,
                            work)
            except (OSError, RuntimeError, ValueError) as e:
                print("FAILED  %s: %s" % (name, e))
                ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
