/* preamble.c - what goes before a kernel: macros, copies, annotations. */
#include "emit.h"

static int uses(const dla_arg *a, dla_access_kind kind)
{
    for (unsigned i = 0; i < a->naccesses; i++)
        if (a->accesses[i].kind == kind)
            return 1;
    for (unsigned h = 0; h < a->nhelpers; h++)
        for (unsigned i = 0; i < a->helpers[h].naccesses; i++)
            if (a->helpers[h].accesses[i].kind == kind)
                return 1;
    return 0;
}

/* Whole-record copies part by part, gaps included (bit-exact). */
static void copy_helpers(buf *b, const dla_kernel *k, const dla_arg *a)
{
    const char *kn = k->name, *an = a->name;
    for (int store = 0; store < 2; store++) {
        if (!uses(a, store ? DLA_STORE : DLA_LOAD))
            continue;
        if (store)
            putf(b,
                 "static void dla_store_%s_%s(__global char *p, size_t i, "
                 "size_t M, %s r)\n{\n",
                 kn, an, a->record_type);
        else
            putf(b,
                 "static %s dla_load_%s_%s(__global char *p, size_t i, "
                 "size_t M)\n{\n    %s r;\n",
                 a->record_type, kn, an, a->record_type);
        puts_(b, "    (void)M;\n");
        for (unsigned j = 0; j < a->nparts; j++) {
            unsigned o = a->parts[j].off, z = a->parts[j].size;
            unsigned w = 4;
            while (w > 1 && (o % w || z % w || a->record_size % w))
                w /= 2;
            const char *wt = w == 4 ? "uint" : w == 2 ? "ushort" : "uchar";
            putf(b, "    for (uint b = 0; b < %uu; b++)\n        ", z / w);
            if (store)
                putf(b, "((__global %s *)(p + ", wt);
            else
                putf(b, "((__private %s *)&r)[%uu + b] = ((__global %s *)(p + ",
                     wt, o / w, wt);
            if (a->target == DLA_TARGET_DA)
                putf(b, "%uu * M + i * %uu", o, z);
            else
                putf(b, "DLA_ASTA_OFF(i, DL_TILE_%s_%s, M, %uu, %uu, %uu)", kn,
                     an, a->record_size, o, z);
            if (store)
                putf(b, "))[b] = ((__private %s *)&r)[%uu + b];\n", wt, o / w);
            else
                puts_(b, "))[b];\n");
        }
        puts_(b, store ? "}\n" : "    return r;\n}\n");
    }
}

/* Whether a transformed argument of k is a struct whose layout the
 * transformed branch checks. */
static int checks_layout(const dla_kernel *k)
{
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed && !k->args[i].scalar && k->args[i].nparts)
            return 1;
    return 0;
}

void dla_emit_preamble(buf *b, const dla_source *src, const dla_kernel *k)
{
    if (k->mid_line)
        puts_(b, "\n"); /* directives start a line */
    int asta = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        asta |= k->args[i].transformed && k->args[i].target == DLA_TARGET_ASTA;
    if (asta)
        puts_(b,
              "#ifndef DLA_ASTA_OFF\n"
              "/* dl-annotate: offset of part o (size z) of record i in "
              "ASTA(T) of M records\n"
              " * of S units; the tail tile of M%T records has width M%T "
              "(docs/layouts.md). */\n"
              "#define DLA_ASTA_OFF(i, T, M, S, o, z) ((i) / (T) * (T) * (S) + "
              "(o) * (((i) / (T) < (M) / (T)) ? (size_t)(T) : (M) % (T)) + "
              "(i) % (T) * (z))\n"
              "#endif\n");
    puts_(b,
          "#ifndef DLA_ASSUME_GLOBAL_END\n"
          "/* dl-annotate: the runtime defines DL_GLOBAL_END_<kernel> as "
          "e0,e1,e2 when it\n"
          " * builds the variant for launches whose global range ends at or "
          "before e in\n"
          " * every dimension: the compiler may then drop the kernel's bounds "
          "guards.\n"
          " * The ids are bounded as ints (as in `int x = get_global_id(0)`): "
          "with an\n"
          " * unsigned bound, LLVM writes `y * 128 + x` as `y << 7 | x`, "
          "which POCL's\n"
          " * vectoriser turns into gathers and scatters. */\n"
          "#ifdef __clang__\n"
          "#define DLA_BEYOND_END_(d, e) ((e) <= INT_MAX && "
          "(int)get_global_id(d) >= (int)(e))\n"
          "#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2) if (DLA_BEYOND_END_(0, "
          "e0) || DLA_BEYOND_END_(1, e1) || DLA_BEYOND_END_(2, e2)) "
          "__builtin_unreachable()\n"
          "#else\n"
          "#define DLA_ASSUME_GLOBAL_END_(e0, e1, e2)\n"
          "#endif\n"
          "#define DLA_ASSUME_GLOBAL_END(e) DLA_ASSUME_GLOBAL_END_(e)\n"
          "#endif\n");
    int bumped = 0;
    for (unsigned i = 0; i < k->nargs; i++)
        bumped |= k->args[i].transformed && k->args[i].scalar &&
                  k->args[i].bump != NULL;
    if (bumped)
        puts_(b,
              "#ifndef DLA_FDIV\n"
              "/* dl-annotate: an array moved by `p += C`: element k + C of "
              "record r is\n"
              " * record r + DLA_FDIV(k + C, K), element DLA_FMOD(k + C, K) "
              "(floor division). */\n"
              "#define DLA_FDIV(x, s) ((x) >= 0 ? (x) / (s) : -((-(x) + (s) - "
              "1) / (s)))\n"
              "#define DLA_FMOD(x, s) ((x) - DLA_FDIV(x, s) * (s))\n"
              "#endif\n");
    if (checks_layout(k))
        puts_(b,
              "#ifndef DLA_LAYOUT_CHECK\n"
              "/* dl-annotate: the transformed branch checks that the record "
              "is laid out as\n"
              " * when the file was annotated (a -D option may change it): "
              "a mismatch fails\n"
              " * the activated build, and the runtime runs the program as "
              "written. */\n"
              "#define DLA_LAYOUT_CHECK(c, name) typedef char name[(c) ? 1 : "
              "-1]\n"
              "#if defined(__clang__) || defined(__GNUC__)\n"
              "#define DLA_OFFSETOF(T, f) __builtin_offsetof(T, f)\n"
              "#else\n"
              "#define DLA_OFFSETOF(T, f) ((size_t) & ((T *)0)->f)\n"
              "#endif\n"
              "#endif\n");
    if (k->tiled)
        puts_(b,
              "#ifndef DLA_ASTA_TILED\n"
              "/* dl-annotate: the same for the work-item's own record in the "
              "tiled range:\n"
              " * tile get_global_id(1), lane get_global_id(0). */\n"
              "#define DLA_ASTA_TILED(T, M, S, o, z) (get_global_id(1) * (T) * "
              "(S) + (o) * ((get_global_id(1) < (M) / (T)) ? (size_t)(T) : "
              "(M) % (T)) + get_global_id(0) * (z))\n"
              "#endif\n");
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (!a->transformed || a->target != DLA_TARGET_ASTA)
            continue;
        putf(b, "#ifndef DL_TILE_%s_%s\n#define DL_TILE_%s_%s %zu\n#endif\n",
             k->name, a->name, k->name, a->name, a->tile ? a->tile : 32);
    }
    int helpers = 0;
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        if (a->transformed && (uses(a, DLA_LOAD) || uses(a, DLA_STORE))) {
            if (!helpers++)
                putf(b, "#ifdef DL_ACTIVE_%s\n", k->name);
            copy_helpers(b, k, a);
        }
    }
    for (unsigned i = 0; i < k->nargs; i++) {
        const dla_arg *a = &k->args[i];
        for (unsigned h = 0; a->transformed && h < a->nhelpers; h++) {
            if (!helpers++)
                putf(b, "#ifdef DL_ACTIVE_%s\n", k->name);
            dla_emit_helper_copy(b, src, k, a, &a->helpers[h]);
        }
    }
    if (helpers)
        puts_(b, "#endif\n");
    if (k->tiled)
        putf(b, "%s\n", k->tiled_annotation);
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            putf(b, "%s\n", k->args[i].annotation);
}
