/* test_rt_common.h - what the interposition-runtime tests share: they
 * call the dl_rt_ functions (runtime/rt/intercept.h) directly, as the shim
 * would, on the standalone library (dl_cl = the linked libOpenCL), and
 * check results against a host model, byte for byte, and the runtime's
 * counters.
 *
 * The test kernels index their transformed layouts by hand under
 * #ifdef DL_ACTIVE_<kernel>, as dl-annotate would write them.  Records are
 * two uints; the ASTA(T) accessor of docs/layouts.md with the tail tile of
 * R = M % T records gives, in uints, q*T*2 + field*w + t. */
#ifndef TEST_RT_COMMON_H
#define TEST_RT_COMMON_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "dl_test.h"
#include "intercept.h"
#include "rt_internal.h"

#define RT_SRC_PROLOGUE                                                        \
    "#define IDX(i, f, T, M) ((i) / (T) * (T) * 2 + (f) * (((i) / (T) < "      \
    "(M) / (T)) ? (T) : (M) % (T)) + (i) % (T))\n"

/* step: x' = 3x + y, y' = y ^ x'.  `name` is the kernel, `target` the
 * annotation's target, `tile` the C expression of T. */
#define RT_STEP_KERNEL(name, target, tile)                                     \
    "//DL: aos: f[global_size(0)][2] -> " target "\n"                          \
    "__kernel void " name "(__global uint *f) {\n"                             \
    "  size_t i = get_global_id(0), M = get_global_size(0);\n"                 \
    "#ifdef DL_ACTIVE_" name "\n"                                              \
    "  size_t ix = IDX(i, 0, " tile ", M), iy = IDX(i, 1, " tile ", M);\n"     \
    "#else\n"                                                                  \
    "  size_t ix = 2 * i, iy = 2 * i + 1;\n"                                   \
    "#endif\n"                                                                 \
    "  uint x = f[ix], y = f[iy];\n"                                           \
    "  f[ix] = x * 3u + y;\n"                                                  \
    "  f[iy] = y ^ (x * 3u + y);\n"                                            \
    "}\n"

static inline void model_step(uint32_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t x = f[2 * i], y = f[2 * i + 1];
        f[2 * i] = x * 3u + y;
        f[2 * i + 1] = y ^ (x * 3u + y);
    }
}

typedef struct rt_fixture {
    dl_test_cl cl;
} rt_fixture;

static inline int rt_setup(void **state)
{
    static rt_fixture fx;
    if (dl_test_cl_open(&fx.cl) != 0)
        return -1;
    if (dl_rt_init(NULL) != DL_RT_ACTIVE) {
        fprintf(stderr, "dl_rt_init did not activate the runtime\n");
        return -1;
    }
    /* These tests check the state machine launch by launch; the tuner's
     * choices (DL_POLICY=auto) have their own tests (test_tuner_*). */
    dl_rt_controls()->policy = DL_POLICY_ALWAYS;
    dl_test_seed("rt");
    *state = &fx;
    return 0;
}

static char rt_log_path[256];

static inline int rt_teardown(void **state)
{
    rt_fixture *fx = *state;
    dl_log_configure(DL_LOG_LEVEL_WARN, NULL);
    if (rt_log_path[0])
        unlink(rt_log_path);
    dl_test_cl_close(&fx->cl);
    return 0;
}

/* Sends warnings to a fresh log file until rt_log_end. */
static inline void rt_log_begin(void)
{
    snprintf(rt_log_path, sizeof rt_log_path, "/tmp/dl-rt-test-%d.log",
             (int)getpid());
    unlink(rt_log_path);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, rt_log_path),
                     DL_SUCCESS);
}

/* Back to stderr; returns what was logged (the caller frees it). */
static inline char *rt_log_end(void)
{
    dl_log_configure(DL_LOG_LEVEL_WARN, NULL);
    char *text = calloc(1, 65536);
    assert_non_null(text);
    FILE *f = fopen(rt_log_path, "r");
    if (f) {
        size_t n = fread(text, 1, 65535, f);
        text[n] = '\0';
        fclose(f);
    }
    unlink(rt_log_path);
    return text;
}

static inline cl_program rt_build(const rt_fixture *fx, const char *src)
{
    cl_int err = CL_SUCCESS;
    cl_program p =
        dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(dl_rt_clBuildProgram(p, 1, &fx->cl.device, "", NULL, NULL),
                     CL_SUCCESS);
    return p;
}

static inline cl_kernel rt_kernel_of(cl_program p, const char *name)
{
    cl_int err = CL_SUCCESS;
    cl_kernel k = dl_rt_clCreateKernel(p, name, &err);
    assert_int_equal(err, CL_SUCCESS);
    return k;
}

static inline cl_mem rt_buffer_of(const rt_fixture *fx, const void *data,
                                  size_t bytes)
{
    cl_int err = CL_SUCCESS;
    cl_mem m = dl_rt_clCreateBuffer(fx->cl.context,
                                    CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    bytes, (void *)data, &err);
    assert_int_equal(err, CL_SUCCESS);
    return m;
}

static inline void rt_set_mem(cl_kernel k, cl_uint index, cl_mem m)
{
    assert_int_equal(dl_rt_clSetKernelArg(k, index, sizeof m, &m), CL_SUCCESS);
}

static inline void rt_run(cl_command_queue q, cl_kernel k, size_t n)
{
    assert_int_equal(
        dl_rt_clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL, 0, NULL, NULL),
        CL_SUCCESS);
}

static inline void rt_read(cl_command_queue q, cl_mem m, void *out,
                           size_t bytes)
{
    assert_int_equal(
        dl_rt_clEnqueueReadBuffer(q, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL),
        CL_SUCCESS);
}

static inline uint32_t *rt_random_records(size_t n)
{
    uint32_t *f = malloc(n * 2 * sizeof *f);
    assert_non_null(f);
    dl_test_fill(f, n * 2 * sizeof *f);
    return f;
}

/* Reads the buffer with the real OpenCL call (no restore) and checks
 * that it holds the AoS records `aos` converted to ASTA(tile). */
static inline void rt_expect_raw(const rt_fixture *fx, cl_mem m,
                                 const uint32_t *aos, size_t n, size_t tile)
{
    dl_record *rec = NULL;
    assert_int_equal(dl_record_create_uniform(2, 4, &rec), DL_SUCCESS);
    uint32_t *raw = malloc(n * 8), *expect = malloc(n * 8);
    assert_non_null(raw);
    assert_non_null(expect);
    naive_convert(expect, aos, rec, n, 1, tile);
    assert_int_equal(clEnqueueReadBuffer(fx->cl.queue, m, CL_TRUE, 0, n * 8,
                                         raw, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(raw, expect, n * 8);
    free(raw);
    free(expect);
    dl_record_release(rec);
}

/* Counter differences. */
#define RT_SNAP(s)                                                             \
    rt_stats s;                                                                \
    dl_rt_get_stats(&s)
#define RT_DELTA(after, before, f) ((long long)((after).f - (before).f))

static inline int rt_is_transformed(cl_mem m)
{
    rt_lock();
    rt_buffer *b = rt_buffer_find(m);
    int t = b && b->transformed;
    rt_unlock();
    return t;
}

/* Reads the n records of `m` back, requires them equal to `want`, then
 * releases the kernel and the buffer and frees `want`. */
static inline void check_and_release(const rt_fixture *fx, cl_kernel k,
                                     cl_mem m, uint32_t *want, size_t n)
{
    uint32_t *got = calloc(n, 8);
    assert_non_null(got);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

#endif
