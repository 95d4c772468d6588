/* test_rt_reorder.c - reordering with index redirection (rt_reorder.c)
 * and the launch memo (rt_memo.h): a transformed kernel that writes the
 * array a redirected kernel gathers keeps its memo, whose launches move
 * the array's version on, so that the next gather sees their writes. */
#include "rt_memo.h"
#include "test_rt_common.h"

/* gather_y: y = x[col[gid]], redirected (its reordered copy of x is
 * dl_gather_x_col).  spread: f's first fields count up (f in ASTA(4)),
 * and x gets them. */
/* clang-format off */
static const char *reorder_src =
    RT_SRC_PROLOGUE
    "//DL: v1 indirect: read x[col[gid]]\n"
    "__kernel void gather_y(__global const float *x,\n"
    "                       __global const int *col, __global float *y\n"
    "#ifdef DL_ACTIVE_gather_y\n"
    "                       , __global const float *dl_gather_x_col\n"
    "#endif\n"
    ") {\n"
    "  int gid = get_global_id(0);\n"
    "#ifdef DL_ACTIVE_gather_y\n"
    "  y[gid] = dl_gather_x_col[gid];\n"
    "#else\n"
    "  y[gid] = x[col[gid]];\n"
    "#endif\n"
    "}\n"
    "//DL: aos: f[global_size(0)][2] -> asta(4)\n"
    "__kernel void spread(__global uint *f, __global float *x) {\n"
    "  size_t i = get_global_id(0), M = get_global_size(0);\n"
    "#ifdef DL_ACTIVE_spread\n"
    "  size_t ix = IDX(i, 0, DL_TILE_spread_f, M);\n"
    "#else\n"
    "  size_t ix = 2 * i;\n"
    "#endif\n"
    "  f[ix] += 1u;\n"
    "  x[i] = (float)f[ix];\n"
    "}\n";
/* clang-format on */

enum { N = 64, ROUNDS = 4 };

static void test_memo_of_a_writer_moves_versions(void **state)
{
    rt_fixture *fx = *state;
    cl_program prog = rt_build(fx, reorder_src);
    uint32_t f[2 * N];
    float x[N], y[N], got[N];
    cl_int col[N];
    for (int i = 0; i < N; i++) {
        f[2 * i] = (uint32_t)(i * 7 % 50);
        f[2 * i + 1] = (uint32_t)i;
        x[i] = (float)(i % 13);
        col[i] = i * 37 % N;
    }
    cl_mem fm = rt_buffer_of(fx, f, sizeof f);
    cl_mem xm = rt_buffer_of(fx, x, sizeof x);
    cl_mem cm = rt_buffer_of(fx, col, sizeof col);
    cl_mem ym = rt_buffer_of(fx, y, sizeof y);
    cl_kernel gather = rt_kernel_of(prog, "gather_y");
    cl_kernel spread = rt_kernel_of(prog, "spread");
    rt_set_mem(gather, 0, xm);
    rt_set_mem(gather, 1, cm);
    rt_set_mem(gather, 2, ym);
    rt_set_mem(spread, 0, fm);
    rt_set_mem(spread, 1, xm);
    RT_SNAP(s0);
    rt_run(fx->cl.queue, gather, N); /* x becomes read by a copy */
    for (int r = 0; r < ROUNDS; r++) {
        rt_run(fx->cl.queue, spread, N);
        for (int i = 0; i < N; i++)
            x[i] = (float)++f[2 * i];
        rt_run(fx->cl.queue, gather, N);
    }
    RT_SNAP(s1);
    /* spread's launches after its first: its memo's. */
    rt_lock();
    const rt_kernel *w = rt_kernel_find(spread);
    unsigned served = w ? rt_memo_served(&w->memo) : 0;
    rt_unlock();
    assert_int_equal(served, ROUNDS - 1);
    /* Every gather after a write of x gathered again. */
    assert_int_equal(RT_DELTA(s1, s0, reorders), 1 + ROUNDS);
    assert_int_equal(RT_DELTA(s1, s0, reorder_hits), 0);
    rt_read(fx->cl.queue, ym, got, sizeof got);
    for (int i = 0; i < N; i++)
        y[i] = x[col[i]];
    assert_memory_equal(got, y, sizeof y);
    dl_rt_clReleaseKernel(gather);
    dl_rt_clReleaseKernel(spread);
    cl_mem all[] = {fm, xm, cm, ym};
    for (int i = 0; i < 4; i++)
        dl_rt_clReleaseMemObject(all[i]);
    dl_rt_clReleaseProgram(prog);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_of_a_writer_moves_versions),
    };
    return cmocka_run_group_tests(tests, rt_setup, rt_teardown);
}
