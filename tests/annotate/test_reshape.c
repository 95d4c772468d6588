/* test_reshape.c - the runtime's tiled launch (runtime/rt/rt_reshape.c): which
 * kernels take it, the 2-D range it makes from the application's 1-D
 * range, when it pads, and the launches it refuses (-1: run plain). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "log.h"
#include "rt_reshape.h"

/* A kernel k(p, q, n) from `annotations`, built with tiles tp and tq for
 * its annotated arguments (in annotation order). */
typedef struct fixture {
    dl_annot_program *annot;
    rt_program prog;
    size_t tiles[2];
    size_t *per_kernel[1];
    rt_arg args[3];
    int n;
    rt_kernel k;
} fixture;

static void make(fixture *f, const char *annotations, size_t tp, size_t tq)
{
    static char src[1024];
    snprintf(src, sizeof src,
             "struct s { float a; float b; };\n%s\n"
             "__kernel void k(__global struct s *p, __global struct s *q, "
             "int n) { }\n",
             annotations);
    memset(f, 0, sizeof *f);
    assert_int_equal(dl_annot_parse(src, strlen(src), "t.cl", &f->annot),
                     DL_SUCCESS);
    assert_int_equal(f->annot->nkernels, 1);
    assert_true(f->annot->kernels[0].ok);
    f->tiles[0] = tp;
    f->tiles[1] = tq;
    f->per_kernel[0] = f->tiles;
    f->prog.tiles = f->per_kernel;
    f->n = 1003;
    f->args[2].size = sizeof f->n;
    f->args[2].value = &f->n;
    f->k = (rt_kernel){.name = "k",
                       .prog = &f->prog,
                       .annot = &f->annot->kernels[0],
                       .transformed = 1,
                       .nargs = 3,
                       .args = f->args};
}

#define FLAG_BOUND "//DL: launch: tiled(n)\n"
#define P_ASTA     "//DL: aos: p[n] record(size=8; 0:4, 4:4) -> asta(8)\n"
#define Q_ASTA     "//DL: aos: q[n] record(size=8; 0:4, 4:4) -> asta(8)\n"

static int reshape(fixture *f, cl_uint dim, size_t offset, size_t global,
                   size_t local, rt_reshaped *out)
{
    return rt_reshape_launch(&f->k, dim, offset ? &offset : NULL, &global,
                             local ? &local : NULL, out);
}

static void test_shape(void **state)
{
    (void)state;
    fixture f;
    rt_reshaped r;
    make(&f, FLAG_BOUND P_ASTA, 8, 0);
    assert_int_equal(rt_reshape_tile(&f.k), 8);
    /* (1024) with local 64 -> (8, 128) with local (8, 8) */
    assert_int_equal(reshape(&f, 1, 0, 1024, 64, &r), 1);
    assert_int_equal(r.global[0], 8);
    assert_int_equal(r.global[1], 128);
    assert_int_equal(r.offset[0], 0);
    assert_int_equal(r.offset[1], 0);
    assert_true(r.has_local);
    assert_int_equal(r.local[0], 8);
    assert_int_equal(r.local[1], 8);
    /* no local size: left to OpenCL; an offset that is a multiple of T */
    assert_int_equal(reshape(&f, 1, 16, 1024, 0, &r), 1);
    assert_false(r.has_local);
    assert_int_equal(r.offset[1], 2);
    /* a local size that is no multiple of T: left to OpenCL */
    assert_int_equal(reshape(&f, 1, 0, 1056, 12, &r), 1);
    assert_false(r.has_local);
    assert_int_equal(r.global[1], 132);
    dl_annot_free(f.annot);
}

static void test_padding(void **state)
{
    (void)state;
    fixture f;
    rt_reshaped r;
    make(&f, FLAG_BOUND P_ASTA, 8, 0);
    /* n = 1003 <= G: the work-items from 1003 on do nothing */
    assert_int_equal(reshape(&f, 1, 0, 1003, 0, &r), 1);
    assert_int_equal(r.global[0], 8);
    assert_int_equal(r.global[1], 126);
    assert_false(r.has_local);
    /* a padded range drops the application's local size */
    assert_int_equal(reshape(&f, 1, 0, 1020, 12, &r), 1);
    assert_int_equal(r.global[1], 128);
    assert_false(r.has_local);
    /* n beyond the range: padded work-items would work */
    f.n = 1010;
    assert_int_equal(reshape(&f, 1, 0, 1003, 0, &r), -1);
    assert_non_null(strstr(dl_last_error(), "multiple of the tile"));
    /* with the offset, O + G bounds n */
    assert_int_equal(reshape(&f, 1, 8, 1003, 0, &r), 1);
    assert_int_equal(r.offset[1], 1);
    /* n not set: not safe */
    f.args[2].size = 0;
    assert_int_equal(reshape(&f, 1, 0, 1003, 0, &r), -1);
    dl_annot_free(f.annot);

    /* Without a bound no padding. */
    make(&f, "//DL: launch: tiled\n" P_ASTA, 8, 0);
    assert_int_equal(reshape(&f, 1, 0, 1003, 0, &r), -1);
    assert_int_equal(reshape(&f, 1, 0, 1000, 0, &r), 1);
    dl_annot_free(f.annot);
}

static void test_refused(void **state)
{
    (void)state;
    fixture f;
    rt_reshaped r;
    make(&f, FLAG_BOUND P_ASTA, 8, 0);
    assert_int_equal(reshape(&f, 2, 0, 1024, 0, &r), -1);
    assert_non_null(strstr(dl_last_error(), "1-D range"));
    assert_int_equal(reshape(&f, 1, 4, 1024, 0, &r), -1);
    assert_non_null(strstr(dl_last_error(), "global offset"));
    assert_int_equal(reshape(&f, 1, 0, 0, 0, &r), -1);
    dl_annot_free(f.annot);
}

/* The kernel is built flat (0: launch as given) unless the flag is there
 * and all asta tiles agree on one 1 < T <= DL_ANNOT_TILED_MAX_TILE: the
 * condition dl-annotate's #if tests. */
static void test_which_kernels(void **state)
{
    (void)state;
    fixture f;
    rt_reshaped r;
    make(&f, P_ASTA, 8, 0); /* no flag */
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    assert_int_equal(reshape(&f, 2, 0, 1024, 0, &r), 0);
    dl_annot_free(f.annot);
    make(&f, FLAG_BOUND P_ASTA, 1, 0);
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    dl_annot_free(f.annot);
    make(&f, FLAG_BOUND P_ASTA, DL_ANNOT_TILED_MAX_TILE + 1, 0);
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    dl_annot_free(f.annot);
    make(&f, FLAG_BOUND P_ASTA, DL_ANNOT_TILED_MAX_TILE, 0);
    assert_int_equal(rt_reshape_tile(&f.k), DL_ANNOT_TILED_MAX_TILE);
    dl_annot_free(f.annot);
    make(&f, FLAG_BOUND P_ASTA Q_ASTA, 8, 16); /* two tiles */
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    dl_annot_free(f.annot);
    make(&f, FLAG_BOUND P_ASTA Q_ASTA, 16, 16);
    assert_int_equal(rt_reshape_tile(&f.k), 16);
    dl_annot_free(f.annot);
    /* a DA argument beside does not count */
    make(&f,
         FLAG_BOUND P_ASTA "//DL: aos: q[n] record(size=8; 0:4, 4:4) -> da\n",
         4, DL_TILE_DA);
    assert_int_equal(rt_reshape_tile(&f.k), 4);
    /* the program's build state is missing */
    f.per_kernel[0] = NULL;
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    f.prog.tiles = NULL;
    assert_int_equal(rt_reshape_tile(&f.k), 0);
    dl_annot_free(f.annot);
}

int main(void)
{
    dl_log_set_level(DL_LOG_LEVEL_ERROR);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shape),
        cmocka_unit_test(test_padding),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_which_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
