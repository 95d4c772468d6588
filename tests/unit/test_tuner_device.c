/* test_tuner_device.c - a real calibration on the OpenCL device (POCL
 * here): every figure measured and positive, the cache file written and
 * read back by the next run, a corrupt cache file replaced; launches
 * measured for the tuner through marker events and callbacks, on a plain
 * and on a profiling queue.  The cache goes to a temporary
 * XDG_CACHE_HOME, never to the user's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "clapi.h"
#include "dl_test.h"
#include "log.h"
#include "tuner_calib.h"
#include "tuner_timing.h"

static dl_test_cl cl;
static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/dl-test-calib-dev-XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    setenv("XDG_CACHE_HOME", dir, 1);
    unsetenv("DL_CALIBRATION_NOTICE"); /* the notice is checked */
    dl_cl_init_default();
    /* The standalone table may lack entry points the probes use (the
     * shim's table has them all): fill them from the linked libOpenCL. */
    if (!dl_cl.clSetEventCallback)
        dl_cl.clSetEventCallback = clSetEventCallback;
    if (!dl_cl.clGetEventProfilingInfo)
        dl_cl.clGetEventProfilingInfo = clGetEventProfilingInfo;
    if (!dl_cl.clGetPlatformInfo)
        dl_cl.clGetPlatformInfo = clGetPlatformInfo;
    return dl_test_cl_open(&cl);
}

static int teardown(void **state)
{
    (void)state;
    dl_test_cl_close(&cl);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static void progress(const char *step, unsigned done, unsigned total,
                     void *user)
{
    unsigned *last = user;
    assert_non_null(step);
    assert_true(done == *last + 1);
    assert_true(done <= total);
    *last = done;
}

static void check_plausible(const dl_calibration *c)
{
    assert_true(c->device[0] != '\0');
    assert_true(c->copy_bytes_per_ns > 0);
    assert_true(c->build_ms > 0);    /* a build served from POCL's cache */
    assert_int_equal(c->naccess, 7); /* 2 sizes x AoS, DA, T=8; aliased DA */
    static const uint32_t sizes[] = {4, 19}, tiles[] = {1, DL_CALIB_TILE_DA, 8};
    for (unsigned w = 0; w < 2; w++)
        for (unsigned t = 0; t < 3; t++) {
            const dl_calib_access *a =
                dl_calib_find_access(c, sizes[w], tiles[t]);
            assert_non_null(a);
            assert_int_equal(a->words, sizes[w]);
            assert_int_equal(a->tile, tiles[t]);
        }
    assert_int_equal(c->nconvert, 3); /* floats to DA, to ASTA(8), mixed */
    for (unsigned i = 0; i < c->naccess; i++)
        assert_true(c->access[i].ns_per_record > 0);
    for (unsigned i = 0; i < c->nconvert; i++)
        assert_true(c->convert[i].bytes_per_ns > 0);
    assert_non_null(dl_calib_find_access(c, 19, DL_CALIB_TILE_DA));
    assert_true(dl_calib_convert_rate(c, 19, DL_CALIB_TILE_DA, 4) > 0);
}

static void test_measure_with_progress(void **state)
{
    (void)state;
    dl_calibration c;
    unsigned last = 0;
    assert_int_equal(
        dl_calib_measure(cl.context, cl.device, cl.queue, progress, &last, &c),
        DL_SUCCESS);
    check_plausible(&c);
    assert_true(last >= 5);
    printf("calibration took %.0f ms\n", c.measure_ms);
    dl_calib_print(stdout, &c);
}

/* How many lines of the file at `path` contain `what`. */
static unsigned lines_with(const char *path, const char *what)
{
    FILE *f = fopen(path, "r");
    unsigned n = 0;
    char line[1024];
    while (f && fgets(line, sizeof line, f))
        n += strstr(line, what) != NULL;
    if (f)
        fclose(f);
    return n;
}

static void test_cache_round_trip(void **state)
{
    (void)state;
    dl_calibration first, second;
    char log_path[300];
    snprintf(log_path, sizeof log_path, "%s/log.txt", dir);
    assert_int_equal(dl_log_configure(DL_LOG_LEVEL_WARN, log_path), DL_SUCCESS);
    assert_int_equal(dl_calib_get(cl.context, cl.device, cl.queue, 0, &first),
                     DL_SUCCESS);
    check_plausible(&first);
    /* The run that measures says so, once. */
    assert_int_equal(lines_with(log_path, "calibrating the OpenCL device"), 1);
    char path[4096];
    assert_int_equal(dl_calib_path(first.key, path, sizeof path), DL_SUCCESS);
    assert_int_equal(strncmp(path, dir, strlen(dir)), 0);
    assert_int_equal(access(path, R_OK), 0);
    if (dl_calib_is_noisy(&first)) {
        /* A busy machine: the next run would measure again
         * (test_tuner_calib checks that); the rest needs a quiet one. */
        dl_log_close();
        skip();
    }
    /* The next run reads the file: same figures (as printed). */
    assert_int_equal(dl_calib_get(cl.context, cl.device, cl.queue, 0, &second),
                     DL_SUCCESS);
    assert_true(second.key == first.key);
    assert_int_equal(second.naccess, first.naccess);
    for (unsigned i = 0; i < first.naccess; i++) {
        double a = first.access[i].ns_per_record;
        double b = second.access[i].ns_per_record;
        assert_true(b > a * 0.99999 && b < a * 1.00001);
    }
    assert_true(second.measure_ms > first.measure_ms - 0.1 &&
                second.measure_ms < first.measure_ms + 0.1);
    /* Read from the cache: nothing said. */
    assert_int_equal(lines_with(log_path, "calibrating the OpenCL device"), 1);
    dl_log_close();

    /* The runtime's per-device entry: the cached file, then memory. */
    const dl_calibration *dev =
        dl_calib_for_device(cl.context, cl.device, cl.queue);
    assert_non_null(dev);
    assert_true(dev->key == first.key);
    assert_ptr_equal(dl_calib_for_device(cl.context, cl.device, cl.queue), dev);

    /* A corrupt file is replaced by a fresh calibration. */
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("version 1\ncopy banana\n", f);
    fclose(f);
    dl_calibration third;
    assert_int_equal(dl_calib_get(cl.context, cl.device, cl.queue, 0, &third),
                     DL_SUCCESS);
    check_plausible(&third);
    assert_int_equal(dl_calib_load(path, &third, &second), DL_SUCCESS);
}

static const char *step_src =
    "__kernel void probe_step(__global float *p, const float a)\n"
    "{ size_t i = get_global_id(0); p[i] = p[i] * a + 1.0f; }\n";

/* Runs the probe flow of one launch: `convert` fills the buffer first as
 * a stand-in for a conversion. */
static void probed_launch(dl_tuner *t, dl_tuner_choice c, cl_command_queue q,
                          cl_kernel k, cl_mem buf, size_t n, int convert)
{
    dl_tuner_probe *p =
        c.measure ? dl_tuner_probe_begin(t, c.ticket, q, 0, NULL) : NULL;
    if (c.measure)
        assert_non_null(p);
    cl_event conv = NULL;
    if (convert) {
        cl_float zero = 0;
        assert_int_equal(clEnqueueFillBuffer(q, buf, &zero, sizeof zero, 0,
                                             n * sizeof(float), 0, NULL, &conv),
                         CL_SUCCESS);
    }
    dl_tuner_probe_converted(p, conv ? 1 : 0, &conv);
    cl_event ev = NULL;
    assert_int_equal(clEnqueueNDRangeKernel(q, k, 1, NULL, &n, NULL,
                                            conv ? 1 : 0, &conv, &ev),
                     CL_SUCCESS);
    dl_tuner_probe_launched(p, ev, c.transform);
    clReleaseEvent(ev);
    if (conv)
        clReleaseEvent(conv);
}

/* A whole probe on the device: the decision needs the measurements, so
 * it can only be made once the callbacks reported them.  Returns the
 * conversion time the tuner got (the stats' device_ms). */
static uint64_t probe_on_queue(cl_command_queue q)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    cl_int err;
    cl_program prog =
        clCreateProgramWithSource(cl.context, 1, &step_src, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_int_equal(clBuildProgram(prog, 1, &cl.device, "", NULL, NULL),
                     CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "probe_step", &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t n = (size_t)1 << 20;
    cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE,
                                n * sizeof(float), NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_float a = 0.5f;
    clSetKernelArg(k, 0, sizeof buf, &buf);
    clSetKernelArg(k, 1, sizeof a, &a);

    dl_tuner_prediction keen = {.speedup = 2.0};
    dl_tuner_launch l = {k, "step", 1, &keen, 0};
    uint64_t dt = 0, dp = 0;
    int converted = 0;
    for (int i = 0; i < 2000 && dt + dp == 0; i++) {
        dl_tuner_choice c = dl_tuner_choose(t, &l);
        probed_launch(t, c, q, k, buf, n, c.transform && !converted);
        converted |= c.transform;
        assert_int_equal(clFinish(q), CL_SUCCESS);
        dl_tuner_counts(t, &dt, &dp);
        if (i > 4)
            usleep(1000); /* callbacks may run after clFinish returns */
    }
    assert_int_equal(dt + dp, 1); /* decided from real measurements */
    uint64_t conv_ns = 0, wait_ns = 0;
    dl_tuner_own_times(t, &conv_ns, &wait_ns);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    dl_tuner_destroy(t);
    return conv_ns;
}

/* An injected clock for the host-timed probes below. */
static uint64_t clock_ns;
static uint64_t injected_clock(void *user)
{
    (void)user;
    return __atomic_load_n(&clock_ns, __ATOMIC_SEQ_CST);
}
static void set_clock(uint64_t ns)
{
    __atomic_store_n(&clock_ns, ns, __ATOMIC_SEQ_CST);
}

/* The kernel time the tuner got for its first plain launch, waiting up to
 * a second for the callbacks (they may run after clFinish returns). */
static double measured_plain(dl_tuner *t, uint64_t ticket)
{
    double ns = 0;
    for (int i = 0; i < 1000 && !dl_tuner_measured(t, ticket, 0, &ns); i++)
        usleep(1000);
    return ns;
}

/* One plain launch measured on the queue without profiling, the clock
 * at 1 s when the probe starts, at 1.001 s when the launch is enqueued
 * (after `gate`, if any) and at `registered` when its callback is
 * registered; if `gate`, the clock then goes to `opened` and the gate
 * opens.  Returns the kernel time the tuner got. */
static double host_timed_launch(int finish_first, cl_event gate,
                                uint64_t registered, uint64_t opened)
{
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    cfg.clock = injected_clock;
    dl_tuner *t = dl_tuner_create(&cfg);
    assert_non_null(t);
    cl_int err;
    cl_program prog =
        clCreateProgramWithSource(cl.context, 1, &step_src, NULL, &err);
    assert_int_equal(clBuildProgram(prog, 1, &cl.device, "", NULL, NULL),
                     CL_SUCCESS);
    cl_kernel k = clCreateKernel(prog, "probe_step", &err);
    size_t n = 1024;
    cl_mem buf = clCreateBuffer(cl.context, CL_MEM_READ_WRITE,
                                n * sizeof(float), NULL, &err);
    cl_float a = 0.5f;
    clSetKernelArg(k, 0, sizeof buf, &buf);
    clSetKernelArg(k, 1, sizeof a, &a);
    dl_tuner_launch l = {k, "step", 1, NULL, 0};
    dl_tuner_choice c = dl_tuner_choose(t, &l);
    assert_true(c.measure && !c.transform);

    set_clock(1000000000);
    dl_tuner_probe *p = dl_tuner_probe_begin(t, c.ticket, cl.queue, 0, NULL);
    assert_non_null(p);
    assert_int_equal(clFinish(cl.queue), CL_SUCCESS);
    usleep(20000); /* the marker's callback has run */
    set_clock(1001000000);
    dl_tuner_probe_converted(p, 0, NULL);
    cl_event ev = NULL;
    assert_int_equal(clEnqueueNDRangeKernel(cl.queue, k, 1, NULL, &n, NULL,
                                            gate ? 1 : 0, &gate, &ev),
                     CL_SUCCESS);
    if (finish_first) { /* as if this thread were preempted here */
        assert_int_equal(clFinish(cl.queue), CL_SUCCESS);
        usleep(20000);
    }
    set_clock(registered);
    dl_tuner_probe_launched(p, ev, 0);
    if (gate) {
        set_clock(opened);
        assert_int_equal(clSetUserEventStatus(gate, CL_COMPLETE), CL_SUCCESS);
    }
    assert_int_equal(clFinish(cl.queue), CL_SUCCESS);
    double ns = measured_plain(t, c.ticket);
    clReleaseEvent(ev);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    dl_tuner_destroy(t);
    return ns;
}

/* A launch that completed before its callback was registered (a short
 * kernel, or the host thread preempted between the enqueue and the
 * registration, as on a loaded machine) is timed from its enqueue to the
 * registration: at most what it took, here 5 ms of the injected clock.
 * It used to be timed between two callbacks both run at the
 * registration: 0, which told the tuner a 58 MB kernel took 0.06 ms. */
static void test_probe_host_clock_early(void **state)
{
    (void)state;
    assert_true(host_timed_launch(1, NULL, 1006000000, 0) == 5e6);
}

/* A launch still waiting when its callback is registered is timed from
 * its enqueue to its completion: 8 ms of the injected clock. */
static void test_probe_host_clock_gated(void **state)
{
    (void)state;
    cl_int err;
    cl_event gate = clCreateUserEvent(cl.context, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_true(host_timed_launch(0, gate, 1001000000, 1009000000) == 8e6);
    clReleaseEvent(gate);
}

static void test_probe_host_timed(void **state)
{
    (void)state;
    probe_on_queue(cl.queue);
}

static void test_probe_profiling(void **state)
{
    (void)state;
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(cl.context, cl.device,
                                              CL_QUEUE_PROFILING_ENABLE, &err);
    assert_int_equal(err, CL_SUCCESS);
    /* The conversion's time (the fill, between two markers' device
     * timestamps) reached the stats' device_ms. */
    assert_true(probe_on_queue(q) > 0);
    clReleaseCommandQueue(q);
}

/* Without clSetEventCallback in the dispatch table nothing is measured
 * (and nothing breaks). */
static void test_probe_unavailable(void **state)
{
    (void)state;
    dl_tuner_config cfg;
    dl_tuner_config_defaults(&cfg);
    dl_tuner *t = dl_tuner_create(&cfg);
    void *saved = (void *)dl_cl.clSetEventCallback;
    dl_cl.clSetEventCallback = NULL;
    assert_null(dl_tuner_probe_begin(t, 1, cl.queue, 0, NULL));
    dl_cl.clSetEventCallback = saved;
    assert_null(dl_tuner_probe_begin(t, 0, cl.queue, 0, NULL));
    dl_tuner_probe_converted(NULL, 0, NULL);
    dl_tuner_probe_launched(NULL, NULL, 0);
    dl_tuner_destroy(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_measure_with_progress),
        cmocka_unit_test(test_cache_round_trip),
        cmocka_unit_test(test_probe_host_timed),
        cmocka_unit_test(test_probe_host_clock_early),
        cmocka_unit_test(test_probe_host_clock_gated),
        cmocka_unit_test(test_probe_profiling),
        cmocka_unit_test(test_probe_unavailable),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
