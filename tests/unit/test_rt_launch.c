/* test_rt_launch.c - the buffer state machine at launches: iterated
 * launches marshal once, kernels wanting different layouts, unannotated
 * and unknown kernels, plain-variant launches (dimensions, aliasing,
 * sub-buffers), out-of-order queues, several queues and threads, release
 * while transformed. */
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

static void model_raw(uint32_t *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        f[2 * i] += 1u;
}

static int group_setup(void **state)
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

static int group_teardown(void **state)
{
    dl_rt_clReleaseProgram(main_prog);
    return rt_teardown(state);
}

/* Runs `kernel` `iters` times on n random records and checks the result
 * and the conversion counts. */
static void test_iterated_marshals_once(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 37; /* 9 full tiles of 4 and a tail of 1 */
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    RT_SNAP(before);
    for (int it = 0; it < 5; it++) {
        rt_run(fx->cl.queue, k, n);
        model_step(want, n);
    }
    assert_true(rt_is_transformed(m));
    /* Behind dlayout's back, the device holds ASTA(4) of the AoS model. */
    rt_expect_raw(fx, m, want, n, 4);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_false(rt_is_transformed(m));
    RT_SNAP(after);
    assert_memory_equal(got, want, n * 8);
    assert_int_equal(RT_DELTA(after, before, launches), 5);
    assert_int_equal(RT_DELTA(after, before, marshals), 1);
    assert_int_equal(RT_DELTA(after, before, unmarshals), 1);
    assert_int_equal(RT_DELTA(after, before, bytes_marshaled), 2 * n * 8);
    assert_int_equal(RT_DELTA(after, before, plain_launches), 0);
    /* A second read needs nothing. */
    rt_read(fx->cl.queue, m, got, n * 8);
    RT_SNAP(again);
    assert_int_equal(RT_DELTA(again, after, unmarshals), 0);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* clBuildProgram as the launches call it: counts the builds, and those
 * made while this thread held the runtime's lock (single-threaded here,
 * so a lock that cannot be taken is held by this thread). */
static cl_api_clBuildProgram real_build;
static unsigned builds, builds_locked;

static cl_int CL_API_CALL build_watched(cl_program program, cl_uint ndev,
                                        const cl_device_id *devices,
                                        const char *options,
                                        void(CL_CALLBACK *notify)(cl_program,
                                                                  void *),
                                        void *user)
{
    builds++;
    if (pthread_mutex_trylock(&dl_rt.lock) != 0)
        builds_locked++;
    else
        pthread_mutex_unlock(&dl_rt.lock);
    return real_build(program, ndev, devices, options, notify, user);
}

/* The first conversions of the process build their marshal programs, and
 * a blocking call never runs under the runtime's lock: they are built
 * before it is taken, and the launch planned again after (issue 17).
 * First in the list, so that no other test built those programs. */
static void test_builds_outside_the_lock(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 37;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    real_build = dl_cl.clBuildProgram;
    dl_cl.clBuildProgram = build_watched;
    builds = builds_locked = 0;
    for (int it = 0; it < 3; it++) {
        rt_run(fx->cl.queue, k, n);
        model_step(want, n);
    }
    assert_true(rt_is_transformed(m));
    dl_cl.clBuildProgram = real_build;
    assert_true(builds >= 1);
    assert_int_equal(builds_locked, 0);
    check_and_release(fx, k, m, want, n);
}

static void test_two_layouts(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 50;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel a = rt_kernel_of(main_prog, "advance");
    cl_kernel b = rt_kernel_of(main_prog, "advance_da");
    rt_set_mem(a, 0, m);
    rt_set_mem(b, 0, m);
    RT_SNAP(before);
    rt_run(fx->cl.queue, a, n); /* marshal to ASTA(4) */
    rt_run(fx->cl.queue, b, n); /* back, then to DA */
    rt_run(fx->cl.queue, b, n); /* nothing */
    for (int i = 0; i < 3; i++)
        model_step(want, n);
    rt_expect_raw(fx, m, want, n, DL_TILE_DA);
    rt_run(fx->cl.queue, a, n); /* back, then to ASTA(4) */
    model_step(want, n);
    rt_read(fx->cl.queue, m, got, n * 8);
    RT_SNAP(after);
    assert_memory_equal(got, want, n * 8);
    assert_int_equal(RT_DELTA(after, before, marshals), 3);
    assert_int_equal(RT_DELTA(after, before, unmarshals), 3);
    dl_rt_clReleaseKernel(a);
    dl_rt_clReleaseKernel(b);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* An unannotated kernel reads the buffer raw: it must see AoS. */
static void test_unannotated_kernel(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 33;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel a = rt_kernel_of(main_prog, "advance");
    cl_kernel r = rt_kernel_of(main_prog, "raw");
    rt_set_mem(a, 0, m);
    rt_set_mem(r, 0, m);
    RT_SNAP(before);
    rt_run(fx->cl.queue, a, n);
    rt_run(fx->cl.queue, r, n);
    rt_run(fx->cl.queue, a, n);
    model_step(want, n);
    model_raw(want, n);
    model_step(want, n);
    rt_read(fx->cl.queue, m, got, n * 8);
    RT_SNAP(after);
    assert_memory_equal(got, want, n * 8);
    assert_int_equal(RT_DELTA(after, before, marshals), 2);
    assert_int_equal(RT_DELTA(after, before, unmarshals), 2);
    dl_rt_clReleaseKernel(a);
    dl_rt_clReleaseKernel(r);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* A kernel the runtime never saw created (its arguments are unknown):
 * every transformed buffer is restored before it runs. */
static void test_unknown_kernel(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 21;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel a = rt_kernel_of(main_prog, "advance");
    cl_int err = CL_SUCCESS;
    cl_kernel r = clCreateKernel(main_prog, "raw", &err); /* behind dlayout */
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clSetKernelArg(r, 0, sizeof m, &m), CL_SUCCESS);
    rt_set_mem(a, 0, m);
    rt_run(fx->cl.queue, a, n);
    assert_true(rt_is_transformed(m));
    rt_run(fx->cl.queue, r, n);
    assert_false(rt_is_transformed(m));
    model_step(want, n);
    model_raw(want, n);
    clReleaseKernel(r);
    check_and_release(fx, a, m, want, n);
}

/* Dimensions from a scalar argument: fitting ones transform, too large
 * ones run the plain variant (warned once), and the data is right. */
static void test_dims_not_fitting(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 40;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "stepn");
    rt_set_mem(k, 0, m);
    cl_uint count = (cl_uint)n;
    assert_int_equal(dl_rt_clSetKernelArg(k, 1, sizeof count, &count),
                     CL_SUCCESS);
    RT_SNAP(s0);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 0);
    count = (cl_uint)n + 100; /* more records than the buffer holds */
    assert_int_equal(dl_rt_clSetKernelArg(k, 1, sizeof count, &count),
                     CL_SUCCESS);
    rt_log_begin();
    rt_run(fx->cl.queue, k, n);
    rt_run(fx->cl.queue, k, n);
    char *log = rt_log_end();
    /* One warning, naming the annotation's line (29 of main_src). */
    const char *want_line = "\":29: kernel 'stepn' runs untransformed";
    const char *w = strstr(log, want_line);
    if (!w || strstr(w + strlen(want_line), "runs untransformed"))
        fail_msg("expected one warning naming line 29: '%s'", log);
    free(log);
    model_step(want, n);
    model_step(want, n);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, plain_launches), 2);
    assert_int_equal(RT_DELTA(s2, s1, unmarshals), 1); /* before the first */
    assert_int_equal(RT_DELTA(s2, s1, declined), 1);   /* warned once */
    assert_false(rt_is_transformed(m));
    check_and_release(fx, k, m, want, n);
    free(got);
}

/* A clSetKernelArg that fails after the fast path recorded its value
 * (8 bytes for a uint) must leave the old value recorded: the next
 * launch evaluates its record count from it and runs transformed. */
static void test_failed_set_arg_keeps_value(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 40;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "stepn");
    rt_set_mem(k, 0, m);
    cl_uint count = (cl_uint)n;
    assert_int_equal(dl_rt_clSetKernelArg(k, 1, sizeof count, &count),
                     CL_SUCCESS);
    rt_run(fx->cl.queue, k, n); /* marshals; the next one is remembered */
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    model_step(want, n);
    RT_SNAP(s0);
    uint64_t wrong = 1000000;
    assert_int_not_equal(dl_rt_clSetKernelArg(k, 1, sizeof wrong, &wrong),
                         CL_SUCCESS);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 0);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    assert_true(rt_is_transformed(m));
    check_and_release(fx, k, m, want, n);
}

/* One buffer bound to two arguments that want ASTA(4) and ASTA(8). */
static void test_alias_runs_plain(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 24;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    uint32_t *other = rt_random_records(n), *got2 = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_mem g = rt_buffer_of(fx, other, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "two");
    rt_set_mem(k, 0, m);
    rt_set_mem(k, 1, m);
    RT_SNAP(s0);
    rt_run(fx->cl.queue, k, n);
    for (size_t i = 0; i < n; i++)
        want[2 * i] += want[2 * i + 1];
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    /* Two different buffers: transformed, one to ASTA(4), one to ASTA(8). */
    rt_set_mem(k, 1, g);
    rt_run(fx->cl.queue, k, n);
    for (size_t i = 0; i < n; i++)
        want[2 * i] += other[2 * i + 1];
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, plain_launches), 0);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 2);
    rt_read(fx->cl.queue, m, got, n * 8);
    rt_read(fx->cl.queue, g, got2, n * 8);
    assert_memory_equal(got, want, n * 8);
    assert_memory_equal(got2, other, n * 8);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    dl_rt_clReleaseMemObject(g);
    free(want);
    free(got);
    free(other);
    free(got2);
}

/* The launch memo (rt_memo.h): repeats of a launch go straight to the
 * real call, and the stats still count each one.  The memo's entry is the
 * kernel used last (rt_last_kernel). */
static void launch_range(const rt_fixture *fx, cl_kernel k, const size_t *offset,
                         size_t n, const size_t *local)
{
    assert_int_equal(dl_rt_clEnqueueNDRangeKernel(fx->cl.queue, k, 1, offset,
                                                  &n, local, 0, NULL, NULL),
                     CL_SUCCESS);
}

static void test_memo_serves_repeats(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 40, zero = 0, local = 8;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    RT_SNAP(s0);
    /* A NULL offset and a zero one are the same launch. */
    for (int it = 0; it < 10; it++) {
        launch_range(fx, k, it % 2 ? &zero : NULL, n, NULL);
        model_step(want, n);
    }
    const rt_kernel *entry = rt_last_kernel;
    assert_ptr_equal(entry->kernel, k);
    assert_int_equal(rt_memo_served(&entry->memo), 9);
    /* The test links the ICD loader, with no layers: the memo calls the
     * driver's entry in the queue's table (runtime/rt/rt_dispatch.c). */
    const cl_icd_dispatch *table =
        *(const cl_icd_dispatch *const *)fx->cl.queue;
    assert_ptr_equal(entry->memo.enqueue, table->clEnqueueNDRangeKernel);
    assert_ptr_not_equal(entry->memo.enqueue, dl_cl.clEnqueueNDRangeKernel);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, launches), 10);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 0);
    /* Setting an argument, or another local size, ends the memo.  An
     * ended memo's key is 0, and so is this invalid work_dim: the real
     * call must still see it. */
    rt_set_mem(k, 0, m);
    assert_int_equal(dl_rt_clEnqueueNDRangeKernel(fx->cl.queue, k, 0, NULL,
                                                  &n, NULL, 0, NULL, NULL),
                     CL_INVALID_WORK_DIMENSION);
    launch_range(fx, k, NULL, n, NULL);
    model_step(want, n);
    assert_int_equal(rt_memo_served(&entry->memo), 0);
    launch_range(fx, k, NULL, n, &local);
    launch_range(fx, k, NULL, n, &local);
    model_step(want, n);
    model_step(want, n);
    assert_int_equal(rt_memo_served(&entry->memo), 1);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, launches), 4);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 0);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);

    /* Two kernels in turn, on two buffers: a launch that converts
     * nothing leaves the other kernel's memo alone. */
    uint32_t *want2 = rt_random_records(n);
    cl_mem m2 = rt_buffer_of(fx, want2, n * 8);
    cl_kernel k2 = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k2, 0, m2);
    for (int it = 0; it < 5; it++) {
        rt_run(fx->cl.queue, k, n);
        rt_run(fx->cl.queue, k2, n);
        model_step(want, n);
        model_step(want2, n);
    }
    /* Both first launches marshal (the read restored m), so k's memo is
     * made again at its second launch; from then on both serve. */
    assert_int_equal(rt_memo_served(&rt_kernel_find(k)->memo), 3);
    assert_int_equal(rt_memo_served(&rt_kernel_find(k2)->memo), 4);
    RT_SNAP(s2b);
    assert_int_equal(RT_DELTA(s2b, s2, launches), 10);
    assert_int_equal(RT_DELTA(s2b, s2, marshals), 2);
    check_and_release(fx, k2, m2, want2, n);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(k);
    /* The entry the fast paths look at first is a released kernel's now,
     * and a NULL kernel matches its handle: its memo and its arguments
     * went with it.  (POCL itself crashes on a launch of a NULL kernel,
     * so only clSetKernelArg is called.) */
    const rt_kernel *freed = rt_last_kernel;
    assert_null(freed->kernel);
    assert_int_equal(freed->memo.key_dim, 0);
    assert_int_equal(freed->nargs, 0);
    assert_null(rt_kernel_get(NULL));
    assert_int_equal(dl_rt_clSetKernelArg(NULL, 0, sizeof m, &m),
                     CL_INVALID_KERNEL);
    RT_SNAP(s2c);

    /* A memo of the plain variant (aliased arguments) counts plain
     * launches, also after the kernel is gone. */
    cl_kernel two = rt_kernel_of(main_prog, "two");
    rt_set_mem(two, 0, m);
    rt_set_mem(two, 1, m);
    for (int it = 0; it < 6; it++) {
        rt_run(fx->cl.queue, two, n);
        for (size_t i = 0; i < n; i++)
            want[2 * i] += want[2 * i + 1];
    }
    dl_rt_clReleaseKernel(two);
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2c, launches), 6);
    assert_int_equal(RT_DELTA(s3, s2c, plain_launches), 6);
    assert_int_equal(RT_DELTA(s3, s2c, marshals), 0);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* Sub-buffers: reading one restores its transformed parent; one bound to
 * an annotated argument runs the plain variant. */
static void test_sub_buffer(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 64, half = 32;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    cl_buffer_region region = {0, half * 8};
    cl_int err = CL_SUCCESS;
    cl_mem sub = dl_rt_clCreateSubBuffer(
        m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_true(rt_is_transformed(m));
    rt_read(fx->cl.queue, sub, got, half * 8);
    assert_false(rt_is_transformed(m));
    assert_memory_equal(got, want, half * 8);
    /* The sub-buffer as the annotated argument. */
    rt_run(fx->cl.queue, k, n); /* parent transformed again */
    model_step(want, n);
    cl_kernel ks = rt_kernel_of(main_prog, "advance");
    rt_set_mem(ks, 0, sub);
    RT_SNAP(s0);
    rt_run(fx->cl.queue, ks, half);
    model_step(want, half);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 1); /* the parent */
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(ks);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(sub);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* A buffer wanted transformed while a sub-buffer viewing it is another
 * (unannotated) argument: the plain variant runs, on AoS data. */
static void test_sub_buffer_of_transformed_arg(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 32;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_buffer_region region = {0, n * 8};
    cl_int err = CL_SUCCESS;
    cl_mem view = dl_rt_clCreateSubBuffer(
        m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel a = rt_kernel_of(main_prog, "advance");
    cl_kernel k = rt_kernel_of(main_prog, "mixed");
    rt_set_mem(a, 0, m);
    rt_set_mem(k, 0, m);
    rt_set_mem(k, 1, view);
    rt_run(fx->cl.queue, a, n); /* m is now ASTA(4) */
    model_step(want, n);
    RT_SNAP(s0);
    rt_run(fx->cl.queue, k, n);
    for (size_t i = 0; i < n; i++)
        want[2 * i] += want[2 * i];
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 1);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(a);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(view);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* An out-of-order queue where only events order the commands, and a
 * second queue reading the result. */
static void test_out_of_order_events(void **state)
{
    rt_fixture *fx = *state;
    cl_int err = CL_SUCCESS;
    cl_command_queue ooo =
        clCreateCommandQueue(fx->cl.context, fx->cl.device,
                             CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, &err);
    if (err != CL_SUCCESS)
        skip();
    cl_command_queue q2 =
        clCreateCommandQueue(fx->cl.context, fx->cl.device, 0, &err);
    assert_int_equal(err, CL_SUCCESS);
    const size_t n = 77;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = dl_rt_clCreateBuffer(fx->cl.context, CL_MEM_READ_WRITE, n * 8,
                                    NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    cl_kernel r = rt_kernel_of(main_prog, "raw");
    rt_set_mem(k, 0, m);
    rt_set_mem(r, 0, m);
    cl_event ev[6];
    assert_int_equal(dl_rt_clEnqueueWriteBuffer(ooo, m, CL_FALSE, 0, n * 8,
                                                want, 0, NULL, &ev[0]),
                     CL_SUCCESS);
    for (int i = 1; i <= 3; i++)
        assert_int_equal(dl_rt_clEnqueueNDRangeKernel(
                             ooo, k, 1, NULL, &n, NULL, 1, &ev[i - 1], &ev[i]),
                         CL_SUCCESS);
    /* The raw kernel on the other queue, after the last step. */
    assert_int_equal(dl_rt_clEnqueueNDRangeKernel(q2, r, 1, NULL, &n, NULL, 1,
                                                  &ev[3], &ev[4]),
                     CL_SUCCESS);
    assert_int_equal(dl_rt_clEnqueueReadBuffer(ooo, m, CL_FALSE, 0, n * 8, got,
                                               1, &ev[4], &ev[5]),
                     CL_SUCCESS);
    assert_int_equal(clWaitForEvents(1, &ev[5]), CL_SUCCESS);
    for (int i = 0; i < 3; i++)
        model_step(want, n);
    model_raw(want, n);
    assert_memory_equal(got, want, n * 8);
    for (int i = 0; i < 6; i++)
        clReleaseEvent(ev[i]);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseKernel(r);
    dl_rt_clReleaseMemObject(m);
    clReleaseCommandQueue(q2);
    clReleaseCommandQueue(ooo);
    free(want);
    free(got);
}

static unsigned uses_of(cl_mem m)
{
    rt_lock();
    rt_buffer *b = rt_buffer_find(m);
    unsigned n = b ? b->uses.n : 0;
    rt_unlock();
    return n;
}

/* Commands that use a tracked buffer leave an event behind (requested
 * from OpenCL when the caller passed none), which the next conversion
 * waits for: two kernels that only read a buffer need no ordering from
 * the application, but a conversion between them does. */
static void test_uses_recorded(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 16;
    uint32_t *want = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel a = rt_kernel_of(main_prog, "advance");
    cl_kernel r = rt_kernel_of(main_prog, "raw");
    rt_set_mem(a, 0, m); /* tracked from here on */
    rt_set_mem(r, 0, m);
    assert_int_equal(uses_of(m), 0);
    rt_run(fx->cl.queue, r, n);
    model_raw(want, n);
    assert_int_equal(uses_of(m), 1);
    uint32_t one[2];
    /* A blocking read is over when it returns: nothing to wait for. */
    rt_read(fx->cl.queue, m, one, sizeof one);
    assert_int_equal(uses_of(m), 1);
    assert_int_equal(dl_rt_clEnqueueReadBuffer(fx->cl.queue, m, CL_FALSE, 0,
                                               sizeof one, one, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(uses_of(m), 2);
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    rt_run(fx->cl.queue, a, n); /* conversion (waits on both), kernel */
    model_step(want, n);
    assert_int_equal(uses_of(m), 2);
    for (int i = 0; i < 20; i++) { /* more uses than slots: pruned */
        rt_run(fx->cl.queue, a, n);
        model_step(want, n);
    }
    assert_true(uses_of(m) <= RT_MAX_USES);
    dl_rt_clReleaseKernel(r);
    check_and_release(fx, a, m, want, n);
}

/* Buffers in a transformed layout, after forgetting destroyed ones. */
static int transformed_count(void)
{
    rt_lock(); /* drops what OpenCL destroyed meanwhile */
    int n = RT_LOAD(dl_rt.transformed);
    rt_unlock();
    return n;
}

/* Releasing a transformed buffer drops its state. */
static void test_release_transformed(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 30;
    uint32_t *want = rt_random_records(n);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    int before = transformed_count();
    for (int round = 0; round < 3; round++) {
        cl_mem m = rt_buffer_of(fx, want, n * 8);
        rt_set_mem(k, 0, m);
        rt_run(fx->cl.queue, k, n);
        assert_int_equal(transformed_count(), before + 1);
        assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
        dl_rt_clReleaseMemObject(m);
        assert_int_equal(transformed_count(), before);
    }
    /* A new buffer (perhaps at a reused handle) starts in AoS. */
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel r = rt_kernel_of(main_prog, "raw");
    rt_set_mem(r, 0, m);
    rt_run(fx->cl.queue, r, n);
    model_raw(want, n);
    dl_rt_clReleaseKernel(r);
    check_and_release(fx, k, m, want, n);
}

/* The application releases a transformed buffer while a sub-buffer of it
 * lives on: the bytes seen through the sub-buffer are still right. */
static void test_release_parent_with_sub(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 48, half = 16;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_buffer_region region = {0, half * 8};
    cl_int err = CL_SUCCESS;
    cl_mem sub = dl_rt_clCreateSubBuffer(
        m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    dl_rt_clReleaseKernel(k);
    assert_true(rt_is_transformed(m));
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    dl_rt_clReleaseMemObject(m);
    rt_read(fx->cl.queue, sub, got, half * 8);
    assert_memory_equal(got, want, half * 8);
    int before = transformed_count();
    dl_rt_clReleaseMemObject(sub); /* now both go */
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    assert_true(transformed_count() <= before);
    free(want);
    free(got);
}

/* Four host threads, each with its own buffer and kernel object. */
typedef struct thread_job {
    rt_fixture *fx;
    int ok;
} thread_job;

static void *thread_main(void *arg)
{
    thread_job *job = arg;
    const size_t n = 45;
    uint32_t want[2 * 45], got[2 * 45];
    for (size_t i = 0; i < 2 * n; i++)
        want[i] = (uint32_t)(i * 2654435761u);
    cl_int err = CL_SUCCESS;
    cl_command_queue q =
        clCreateCommandQueue(job->fx->cl.context, job->fx->cl.device, 0, &err);
    cl_mem m = dl_rt_clCreateBuffer(job->fx->cl.context,
                                    CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                    sizeof want, want, &err);
    cl_kernel k = dl_rt_clCreateKernel(main_prog, "advance", &err);
    cl_kernel r = dl_rt_clCreateKernel(main_prog, "raw", &err);
    dl_rt_clSetKernelArg(k, 0, sizeof m, &m);
    dl_rt_clSetKernelArg(r, 0, sizeof m, &m);
    for (int it = 0; it < 6; it++) {
        cl_kernel use = it % 3 == 2 ? r : k;
        dl_rt_clEnqueueNDRangeKernel(q, use, 1, NULL, &n, NULL, 0, NULL, NULL);
        if (use == r)
            model_raw(want, n);
        else
            model_step(want, n);
    }
    dl_rt_clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, got, 0, NULL,
                              NULL);
    job->ok = !memcmp(got, want, sizeof got);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseKernel(r);
    dl_rt_clReleaseMemObject(m);
    clReleaseCommandQueue(q);
    return NULL;
}

static void test_threads(void **state)
{
    thread_job jobs[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        jobs[i] = (thread_job){*state, 0};
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]),
                         0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_true(jobs[i].ok);
    }
}

/* clEnqueueTask counts as a launch of one work-item.  Two kernels in
 * turn: the memo serves each, also when it is not the kernel used last. */
static void test_task(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 1;
    uint32_t *want = rt_random_records(n), *want2 = rt_random_records(n);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_mem m2 = rt_buffer_of(fx, want2, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    cl_kernel k2 = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    rt_set_mem(k2, 0, m2);
    RT_SNAP(s0);
    for (int it = 0; it < 4; it++) {
        assert_int_equal(dl_rt_clEnqueueTask(fx->cl.queue, k, 0, NULL, NULL),
                         CL_SUCCESS);
        assert_int_equal(dl_rt_clEnqueueTask(fx->cl.queue, k2, 0, NULL, NULL),
                         CL_SUCCESS);
        model_step(want, n);
        model_step(want2, n);
    }
    /* One record is the same bytes in every layout: nothing converts, and
     * each kernel's memo serves its launches after the first. */
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, launches), 8);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    assert_int_equal(rt_memo_served(&rt_kernel_find(k)->memo), 3);
    assert_int_equal(rt_memo_served(&rt_kernel_find(k2)->memo), 3);
    check_and_release(fx, k2, m2, want2, n);
    check_and_release(fx, k, m, want, n);
}

/* Whether a memo calls the driver's entry directly or the loader's
 * (runtime/rt/rt_dispatch.c). */
static void test_memo_dispatch(void **state)
{
    rt_fixture *fx = *state;
    const cl_icd_dispatch *table =
        *(const cl_icd_dispatch *const *)fx->cl.queue;
    rt_memo_enqueue_reset();
    assert_ptr_equal(rt_memo_enqueue(fx->cl.queue),
                     table->clEnqueueNDRangeKernel);
    /* The loader would call a layer first. */
    setenv("OPENCL_LAYERS", "libsome-layer.so", 1);
    rt_memo_enqueue_reset();
    assert_ptr_equal(rt_memo_enqueue(fx->cl.queue),
                     dl_cl.clEnqueueNDRangeKernel);
    unsetenv("OPENCL_LAYERS");
    dl_rt_controls()->direct_dispatch = 0;
    rt_memo_enqueue_reset();
    assert_ptr_equal(rt_memo_enqueue(fx->cl.queue),
                     dl_cl.clEnqueueNDRangeKernel);
    dl_rt_controls()->direct_dispatch = 1;
    rt_memo_enqueue_reset();
    assert_ptr_equal(rt_memo_enqueue(fx->cl.queue),
                     table->clEnqueueNDRangeKernel);
}

/* Conversions that fail on the device: a marshal makes the launch run
 * the plain variant, a restore falls back to the host. */
static void test_conversion_failures(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 26;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_mem m = rt_buffer_of(fx, want, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "advance");
    rt_set_mem(k, 0, m);
    RT_SNAP(s0);
    rt_fault_conversions = 1;
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    RT_SNAP(s1);
    assert_int_equal(rt_fault_conversions, 0);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    assert_false(rt_is_transformed(m));
    rt_run(fx->cl.queue, k, n); /* now it converts */
    model_step(want, n);
    assert_true(rt_is_transformed(m));
    rt_fault_conversions = 1;
    rt_read(fx->cl.queue, m, got, n * 8); /* restored on the host */
    assert_int_equal(rt_fault_conversions, 0);
    assert_false(rt_is_transformed(m));
    assert_memory_equal(got, want, n * 8);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

/* Arguments (optional): a cmocka test-name filter, e.g. for running one
 * test under helgrind. */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builds_outside_the_lock),
        cmocka_unit_test(test_iterated_marshals_once),
        cmocka_unit_test(test_two_layouts),
        cmocka_unit_test(test_unannotated_kernel),
        cmocka_unit_test(test_unknown_kernel),
        cmocka_unit_test(test_dims_not_fitting),
        cmocka_unit_test(test_alias_runs_plain),
        cmocka_unit_test(test_memo_serves_repeats),
        cmocka_unit_test(test_sub_buffer),
        cmocka_unit_test(test_sub_buffer_of_transformed_arg),
        cmocka_unit_test(test_out_of_order_events),
        cmocka_unit_test(test_uses_recorded),
        cmocka_unit_test(test_release_transformed),
        cmocka_unit_test(test_release_parent_with_sub),
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_task),
        cmocka_unit_test(test_memo_dispatch),
        cmocka_unit_test(test_failed_set_arg_keeps_value),
        cmocka_unit_test(test_conversion_failures),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
