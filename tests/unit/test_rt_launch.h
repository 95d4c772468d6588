/* test_rt_launch.h - what test_rt_launch.c and test_rt_buffers.c share:
 * the program of annotated and plain kernels their launches use, built
 * once per test group, and the host model of its kernel `raw`. */
#ifndef TEST_RT_LAUNCH_H
#define TEST_RT_LAUNCH_H

#include "rt_memo.h"
#include "test_rt_common.h"

#include <pthread.h>

/* clang-format off */
static const char *main_src =
    RT_SRC_PROLOGUE
    RT_STEP_KERNEL("advance", "asta(4)", "DL_TILE_advance_f")
    RT_STEP_KERNEL("advance_da", "da", "M")
    "__kernel void raw(__global uint *f) {\n"
    "  f[2 * get_global_id(0)] += 1u;\n"
    "}\n"
    "//DL: aos: f[n][2] -> asta(4)\n"
    "__kernel void stepn(__global uint *f, uint n) {\n"
    "  size_t i = get_global_id(0), M = n;\n"
    "  if (i >= n) return;\n"
    "#ifdef DL_ACTIVE_stepn\n"
    "  size_t ix = IDX(i, 0, DL_TILE_stepn_f, M);\n"
    "  size_t iy = IDX(i, 1, DL_TILE_stepn_f, M);\n"
    "#else\n"
    "  size_t ix = 2 * i, iy = 2 * i + 1;\n"
    "#endif\n"
    "  uint x = f[ix], y = f[iy];\n"
    "  f[ix] = x * 3u + y;\n"
    "  f[iy] = y ^ (x * 3u + y);\n"
    "}\n"
    "//DL: aos: f[global_size(0)][2] -> asta(4)\n"
    "//DL: aos: g[global_size(0)][2] -> asta(8)\n"
    "__kernel void two(__global uint *f, __global uint *g) {\n"
    "  size_t i = get_global_id(0), M = get_global_size(0);\n"
    "#ifdef DL_ACTIVE_two\n"
    "  size_t fx = IDX(i, 0, DL_TILE_two_f, M);\n"
    "  size_t gy = IDX(i, 1, DL_TILE_two_g, M);\n"
    "#else\n"
    "  size_t fx = 2 * i, gy = 2 * i + 1;\n"
    "#endif\n"
    "  f[fx] = f[fx] + g[gy];\n"
    "}\n"
    "//DL: aos: f[global_size(0)][2] -> asta(4)\n"
    "__kernel void mixed(__global uint *f, __global const uint *g) {\n"
    "  size_t i = get_global_id(0), M = get_global_size(0);\n"
    "#ifdef DL_ACTIVE_mixed\n"
    "  size_t fx = IDX(i, 0, DL_TILE_mixed_f, M);\n"
    "#else\n"
    "  size_t fx = 2 * i;\n"
    "#endif\n"
    "  f[fx] += g[2 * i];\n"
    "}\n";
/* clang-format on */

static cl_program main_prog;

static inline void model_raw(uint32_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f[2 * i] += 1u;
}

static inline int group_setup(void **state)
{
    if (rt_setup(state) != 0)
        return -1;
    rt_fixture *fx = *state;
    const char *src = main_src;
    cl_int err = CL_SUCCESS;
    main_prog =
        dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS ||
        dl_rt_clBuildProgram(main_prog, 1, &fx->cl.device, "", NULL, NULL) !=
            CL_SUCCESS) {
        fprintf(stderr, "building the test program failed\n");
        return -1;
    }
    return 0;
}

static inline int group_teardown(void **state)
{
    dl_rt_clReleaseProgram(main_prog);
    return rt_teardown(state);
}

#endif
