/* test_rt_buffers.c - buffers across launches: sub-buffers, events of
 * out-of-order queues, the uses recorded per buffer, release while
 * transformed, several queues and threads. */
#include "test_rt_launch.h"

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
        assert_int_equal(dl_rt_clEnqueueNDRangeKernel(ooo, k, 1, NULL, &n, NULL,
                                                      1, &ev[i - 1], &ev[i]),
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
    dl_rt_clEnqueueReadBuffer(q, m, CL_TRUE, 0, sizeof got, got, 0, NULL, NULL);
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

/* Arguments (optional): a cmocka test-name filter, e.g. for running one
 * test under helgrind. */
int main(int argc, char **argv)
{
    if (argc > 1)
        cmocka_set_test_filter(argv[1]);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sub_buffer),
        cmocka_unit_test(test_sub_buffer_of_transformed_arg),
        cmocka_unit_test(test_out_of_order_events),
        cmocka_unit_test(test_uses_recorded),
        cmocka_unit_test(test_release_transformed),
        cmocka_unit_test(test_release_parent_with_sub),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
