/* test_annot_common.h - what the tests of the `// DL:` annotations
 * share (test_annotations.c, test_annot_errors.c, test_annot_source.c,
 * test_annot_indirect.c): parsing a source, finding a kernel, checking
 * diagnostics, one annotated kernel `k` to try annotations on, and the
 * random edits of the robustness tests. */
#ifndef TEST_ANNOT_COMMON_H
#define TEST_ANNOT_COMMON_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "annotations.h"
#include "error.h"
#include "log.h"

static inline dl_annot_program *parse(const char *src)
{
    dl_annot_program *prog = NULL;
    dl_status st = dl_annot_parse(src, strlen(src), "prog.cl", &prog);
    if (st != DL_SUCCESS)
        fail_msg("parse failed: %s", dl_last_error());
    assert_non_null(prog);
    return prog;
}

static inline const dl_annot_kernel *kernel(const dl_annot_program *prog,
                                            const char *name)
{
    const dl_annot_kernel *k = dl_annot_find(prog, name);
    if (!k)
        fail_msg("kernel '%s' not found", name);
    return k;
}

static inline void print_diags(const dl_annot_program *prog)
{
    for (uint32_t i = 0; i < prog->ndiags; i++)
        print_message("  diag line %u: %s\n", prog->diags[i].line,
                      prog->diags[i].message);
}

/* A diagnostic on `line` mentioning `part` exists. */
static inline void expect_diag(const dl_annot_program *prog, unsigned line,
                               const char *part)
{
    for (uint32_t i = 0; i < prog->ndiags; i++)
        if (prog->diags[i].line == line && strstr(prog->diags[i].message, part))
            return;
    print_diags(prog);
    fail_msg("no diagnostic on line %u with '%s'", line, part);
}

static inline void expect_no_diags(const dl_annot_program *prog)
{
    if (prog->ndiags) {
        print_diags(prog);
        fail_msg("unexpected diagnostics");
    }
}

static inline const char *count_text(const dl_annot_arg *a)
{
    static char buf[256];
    dl_dims_format(a->count, buf, sizeof buf);
    return buf;
}

/* One kernel `k(global float *f, global struct rec *s, int n, uint m,
 * float x)`, annotated with `annotation`; returns the parsed program. */
static inline dl_annot_program *one(const char *annotation)
{
    char src[2048];
    snprintf(src, sizeof src,
             "struct rec { float a; int b; };\n"
             "%s\n"
             "__kernel void k(__global float *f, __global struct rec *s,\n"
             "                int n, uint m, float x)\n"
             "{ f[get_global_id(0)] = x; }\n",
             annotation);
    return parse(src);
}

/* `annotation` on line 2 of one() is rejected with a message that
 * contains `part`, and costs kernel k. */
static inline void rejected(const char *annotation, const char *part)
{
    dl_annot_program *prog = one(annotation);
    const dl_annot_kernel *k = dl_annot_find(prog, "k");
    if (!k)
        fail_msg("'%s': no kernel entry", annotation);
    if (k->ok)
        fail_msg("'%s' was accepted", annotation);
    assert_int_equal(k->nargs, 0);
    expect_diag(prog, 2, part);
    expect_diag(prog, 2, "kernel 'k' will run untransformed");
    dl_annot_free(prog);
}

static inline void accepted(const char *annotation)
{
    dl_annot_program *prog = one(annotation);
    const dl_annot_kernel *k = kernel(prog, "k");
    if (!k->ok || k->nargs != 1) {
        print_diags(prog);
        fail_msg("'%s' was rejected", annotation);
    }
    dl_annot_free(prog);
}

/* The random source of the robustness tests (xorshift32); each test
 * file seeds it, so that its sequence stays its own. */
static uint32_t rng = 2463534242u;
static inline uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* One to four random edits of src[0, len) (a byte of `alphabet` put in,
 * inserted, or a byte taken out), within `cap` bytes; the new length. */
static inline size_t mutate(char *src, size_t len, size_t cap,
                            const char *alphabet, size_t nalphabet)
{
    int edits = 1 + (int)(next_rand() % 4);
    for (int e = 0; e < edits; e++) {
        size_t at = next_rand() % len;
        char c = alphabet[next_rand() % nalphabet];
        switch (next_rand() % 3) {
        case 0:
            src[at] = c;
            break;
        case 1:
            if (len + 1 < cap) {
                memmove(src + at + 1, src + at, len - at);
                src[at] = c;
                len++;
            }
            break;
        default:
            memmove(src + at, src + at + 1, len - at - 1);
            len--;
            break;
        }
    }
    return len;
}

static inline int setup(void **state)
{
    (void)state;
    dl_log_set_level(DL_LOG_LEVEL_ERROR); /* diagnostics are checked here */
    return 0;
}

#endif
