/* test_rt_launch.c - the buffer state machine at launches: iterated
 * launches marshal once, builds outside the lock (also of a forced
 * algorithm's automatic fallback), kernels wanting
 * different layouts, unannotated and unknown kernels, plain-variant
 * launches (dimensions, aliasing), the memo, tasks, failed conversions.
 * Sub-buffers, queues, threads and release: test_rt_buffers.c. */
#include "test_rt_launch.h"

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

static cl_int CL_API_CALL
build_watched(cl_program program, cl_uint ndev, const cl_device_id *devices,
              const char *options,
              void(CL_CALLBACK *notify)(cl_program, void *), void *user)
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

/* A forced algorithm that can perform no step of a conversion (pipt
 * moves chunks; AoS <-> ASTA takes tiles) leaves it to the automatic
 * one, whose plans are built before the lock as well: no build under it
 * (lock_check builds abort on one).  Second in the list: ASTA(8) is
 * converted here first, so its marshal programs are built here. */
static void test_forced_algorithm_builds_outside_the_lock(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 29;
    uint32_t *want = rt_random_records(n), *other = rt_random_records(n);
    uint32_t *got = calloc(n, 8);
    cl_mem f = rt_buffer_of(fx, want, n * 8);
    cl_mem g = rt_buffer_of(fx, other, n * 8);
    cl_kernel k = rt_kernel_of(main_prog, "two");
    rt_set_mem(k, 0, f);
    rt_set_mem(k, 1, g);
    unsigned algo = dl_rt.controls.algo;
    dl_rt.controls.algo = DL_ALGO_PIPT;
    real_build = dl_cl.clBuildProgram;
    dl_cl.clBuildProgram = build_watched;
    builds = builds_locked = 0;
    RT_SNAP(before);
    for (int it = 0; it < 2; it++) {
        rt_run(fx->cl.queue, k, n);
        for (size_t i = 0; i < n; i++)
            want[2 * i] += other[2 * i + 1];
    }
    RT_SNAP(after);
    dl_cl.clBuildProgram = real_build;
    dl_rt.controls.algo = algo;
    assert_true(rt_is_transformed(f));
    assert_true(rt_is_transformed(g));
    assert_int_equal(RT_DELTA(after, before, plain_launches), 0);
    assert_true(builds >= 1);
    assert_int_equal(builds_locked, 0);
    rt_read(fx->cl.queue, f, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    rt_read(fx->cl.queue, g, got, n * 8);
    assert_memory_equal(got, other, n * 8);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(f);
    dl_rt_clReleaseMemObject(g);
    free(want);
    free(other);
    free(got);
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
static void launch_range(const rt_fixture *fx, cl_kernel k,
                         const size_t *offset, size_t n, const size_t *local)
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
    assert_int_equal(dl_rt_clEnqueueNDRangeKernel(fx->cl.queue, k, 0, NULL, &n,
                                                  NULL, 0, NULL, NULL),
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
        cmocka_unit_test(test_forced_algorithm_builds_outside_the_lock),
        cmocka_unit_test(test_iterated_marshals_once),
        cmocka_unit_test(test_two_layouts),
        cmocka_unit_test(test_unannotated_kernel),
        cmocka_unit_test(test_unknown_kernel),
        cmocka_unit_test(test_dims_not_fitting),
        cmocka_unit_test(test_alias_runs_plain),
        cmocka_unit_test(test_memo_serves_repeats),
        cmocka_unit_test(test_task),
        cmocka_unit_test(test_memo_dispatch),
        cmocka_unit_test(test_failed_set_arg_keeps_value),
        cmocka_unit_test(test_conversion_failures),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
