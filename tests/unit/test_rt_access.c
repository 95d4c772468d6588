/* test_rt_access.c - host-visible accesses to transformed buffers: reads
 * (plain and rect), maps, copies, writes and fills (whole and partial),
 * copies to images, native kernels and host-pointer buffers.  Each access
 * must see (or overwrite) the original layout. */
#include "test_rt_common.h"

static const char *src =
    RT_SRC_PROLOGUE RT_STEP_KERNEL("advance", "asta(4)", "DL_TILE_advance_f");

static cl_program prog;

static int group_setup(void **state)
{
    if (rt_setup(state) != 0)
        return -1;
    rt_fixture *fx = *state;
    cl_int err = CL_SUCCESS;
    prog = dl_rt_clCreateProgramWithSource(fx->cl.context, 1, &src, NULL, &err);
    if (err != CL_SUCCESS || dl_rt_clBuildProgram(prog, 1, &fx->cl.device, "",
                                                  NULL, NULL) != CL_SUCCESS)
        return -1;
    return 0;
}

static int group_teardown(void **state)
{
    dl_rt_clReleaseProgram(prog);
    return rt_teardown(state);
}

/* A buffer of n random records, advanced once (so transformed); `want`
 * receives the model. */
typedef struct setup {
    size_t n;
    uint32_t *want, *got;
    cl_mem m;
    cl_kernel k;
} setup;

static void make(rt_fixture *fx, setup *s, size_t n, cl_mem_flags flags,
                 void *host)
{
    s->n = n;
    s->want = rt_random_records(n);
    s->got = calloc(n, 8);
    cl_int err = CL_SUCCESS;
    if (host)
        memcpy(host, s->want, n * 8);
    s->m = dl_rt_clCreateBuffer(
        fx->cl.context, flags, n * 8,
        host ? host : (flags & CL_MEM_COPY_HOST_PTR ? s->want : NULL), &err);
    assert_int_equal(err, CL_SUCCESS);
    if (!(flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)))
        assert_int_equal(dl_rt_clEnqueueWriteBuffer(fx->cl.queue, s->m, CL_TRUE,
                                                    0, n * 8, s->want, 0, NULL,
                                                    NULL),
                         CL_SUCCESS);
    s->k = rt_kernel_of(prog, "advance");
    rt_set_mem(s->k, 0, s->m);
    rt_run(fx->cl.queue, s->k, n);
    model_step(s->want, n);
    /* A USE_HOST_PTR buffer is never transformed (docs/intercepted.md). */
    assert_int_equal(rt_is_transformed(s->m), !(flags & CL_MEM_USE_HOST_PTR));
}

static void done(setup *s)
{
    dl_rt_clReleaseKernel(s->k);
    dl_rt_clReleaseMemObject(s->m);
    free(s->want);
    free(s->got);
}

static void test_read_rect(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    make(fx, &s, 40, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    /* Rows of 5 records (40 bytes), rows 2..5. */
    size_t origin[3] = {0, 2, 0}, host_origin[3] = {0, 0, 0};
    size_t region[3] = {40, 4, 1};
    RT_SNAP(s0);
    assert_int_equal(dl_rt_clEnqueueReadBufferRect(
                         fx->cl.queue, s.m, CL_TRUE, origin, host_origin,
                         region, 40, 0, 40, 0, s.got, 0, NULL, NULL),
                     CL_SUCCESS);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 1);
    assert_memory_equal(s.got, s.want + 2 * 10, 4 * 40);
    done(&s);
}

/* Buffers the table does not know go straight to the real call, also
 * while another buffer is transformed.  A sub-buffer made behind the
 * runtime's back (what a failure to track one leaves) would read the
 * transformed bytes: untracked_subs, which that failure sets, makes its
 * read restore the parent first. */
static void test_unknown_buffers(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    make(fx, &s, 40, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    uint32_t words[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0};
    cl_int err = CL_SUCCESS;
    cl_mem other = dl_rt_clCreateBuffer(fx->cl.context, CL_MEM_READ_WRITE,
                                        sizeof words, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    RT_SNAP(s0);
    assert_int_equal(dl_rt_clEnqueueWriteBuffer(fx->cl.queue, other, CL_TRUE, 0,
                                                sizeof words, words, 0, NULL,
                                                NULL),
                     CL_SUCCESS);
    assert_int_equal(dl_rt_clEnqueueReadBuffer(fx->cl.queue, other, CL_TRUE, 0,
                                               sizeof back, back, 0, NULL,
                                               NULL),
                     CL_SUCCESS);
    assert_memory_equal(back, words, sizeof words);
    assert_true(rt_is_transformed(s.m));
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 0);

    /* Records 16..31 (the device aligns sub-buffers to 128 bytes). */
    cl_buffer_region region = {128, 128};
    cl_mem sub = dl_cl.clCreateSubBuffer(
        s.m, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
    assert_int_equal(err, CL_SUCCESS);
    __atomic_store_n(&dl_rt.untracked_subs, 1, __ATOMIC_RELEASE);
    assert_int_equal(dl_rt_clEnqueueReadBuffer(fx->cl.queue, sub, CL_TRUE, 0,
                                               128, s.got, 0, NULL, NULL),
                     CL_SUCCESS);
    __atomic_store_n(&dl_rt.untracked_subs, 0, __ATOMIC_RELEASE);
    assert_memory_equal(s.got, s.want + 16 * 2, 128);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, unmarshals), 1);
    dl_cl.clReleaseMemObject(sub);
    dl_rt_clReleaseMemObject(other);
    done(&s);
}

/* A buffer the table knows but never converted: blocking reads and
 * writes take no lock (and record no use).  Its first conversion gives
 * way to such an access under way (the launch runs plain), and once
 * converted its accesses take the locked path again. */
static void test_counted_accesses(void **state)
{
    rt_fixture *fx = *state;
    const size_t n = 40;
    uint32_t *want = rt_random_records(n), *got = calloc(n, 8);
    cl_int err = CL_SUCCESS;
    cl_mem m = dl_rt_clCreateBuffer(fx->cl.context, CL_MEM_READ_WRITE, n * 8,
                                    NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    cl_kernel k = rt_kernel_of(prog, "advance");
    rt_set_mem(k, 0, m);
    rt_lock();
    rt_buffer *b = rt_buffer_get(m);
    rt_unlock();
    assert_non_null(b);
    RT_SNAP(s0);
    assert_int_equal(dl_rt_clEnqueueWriteBuffer(fx->cl.queue, m, CL_TRUE, 0,
                                                n * 8, want, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(dl_rt_clEnqueueReadBuffer(fx->cl.queue, m, CL_TRUE, 0,
                                               n * 8, got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(got, want, n * 8);
    assert_int_equal(b->uses.n, 0);
    assert_int_equal(b->host_busy, 0);

    /* An access under way on another thread: the launch runs plain. */
    __atomic_store_n(&b->host_busy, 1, __ATOMIC_SEQ_CST);
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, marshals), 0);
    assert_int_equal(RT_DELTA(s1, s0, plain_launches), 1);
    assert_false(rt_is_transformed(m));
    assert_int_equal(b->ever_converted, 0);
    __atomic_store_n(&b->host_busy, 0, __ATOMIC_SEQ_CST);

    /* Converted once: the read restores it under the lock. */
    rt_run(fx->cl.queue, k, n);
    model_step(want, n);
    assert_true(rt_is_transformed(m));
    assert_int_equal(b->ever_converted, 1);
    rt_read(fx->cl.queue, m, got, n * 8);
    assert_memory_equal(got, want, n * 8);
    RT_SNAP(s2);
    assert_int_equal(RT_DELTA(s2, s1, marshals), 1);
    assert_int_equal(RT_DELTA(s2, s1, unmarshals), 1);
    assert_true(b->uses.n > 0);
    dl_rt_clReleaseKernel(k);
    dl_rt_clReleaseMemObject(m);
    free(want);
    free(got);
}

static void test_partial_and_whole_write(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    make(fx, &s, 36, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    uint32_t patch[4] = {1, 2, 3, 4};
    RT_SNAP(s0);
    /* Partial: restore first, then the two records are written in AoS. */
    assert_int_equal(dl_rt_clEnqueueWriteBuffer(fx->cl.queue, s.m, CL_TRUE,
                                                8 * 3, sizeof patch, patch, 0,
                                                NULL, NULL),
                     CL_SUCCESS);
    memcpy(s.want + 2 * 3, patch, sizeof patch);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 1);
    rt_run(fx->cl.queue, s.k, s.n);
    model_step(s.want, s.n);
    /* Whole: no conversion, the state is reset. */
    uint32_t *fresh = rt_random_records(s.n);
    RT_SNAP(s2);
    assert_int_equal(dl_rt_clEnqueueWriteBuffer(fx->cl.queue, s.m, CL_TRUE, 0,
                                                s.n * 8, fresh, 0, NULL, NULL),
                     CL_SUCCESS);
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2, unmarshals), 0);
    assert_false(rt_is_transformed(s.m));
    memcpy(s.want, fresh, s.n * 8);
    rt_run(fx->cl.queue, s.k, s.n);
    model_step(s.want, s.n);
    RT_SNAP(s4);
    assert_int_equal(RT_DELTA(s4, s3, marshals), 1);
    rt_read(fx->cl.queue, s.m, s.got, s.n * 8);
    assert_memory_equal(s.got, s.want, s.n * 8);
    free(fresh);
    done(&s);
}

static void test_fill(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    make(fx, &s, 32, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    uint32_t pattern = 0xabcdef01u;
    RT_SNAP(s0);
    assert_int_equal(dl_rt_clEnqueueFillBuffer(fx->cl.queue, s.m, &pattern, 4,
                                               16, 32, 0, NULL, NULL),
                     CL_SUCCESS);
    for (size_t i = 4; i < 12; i++)
        s.want[i] = pattern;
    rt_read(fx->cl.queue, s.m, s.got, s.n * 8);
    assert_memory_equal(s.got, s.want, s.n * 8);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 1);
    rt_run(fx->cl.queue, s.k, s.n);
    RT_SNAP(s2);
    assert_int_equal(dl_rt_clEnqueueFillBuffer(fx->cl.queue, s.m, &pattern, 4,
                                               0, s.n * 8, 0, NULL, NULL),
                     CL_SUCCESS);
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2, unmarshals), 0);
    for (size_t i = 0; i < 2 * s.n; i++)
        s.want[i] = pattern;
    rt_read(fx->cl.queue, s.m, s.got, s.n * 8);
    assert_memory_equal(s.got, s.want, s.n * 8);
    done(&s);
}

static void test_map(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    make(fx, &s, 45, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, NULL);
    cl_int err = CL_SUCCESS;
    uint32_t *p = dl_rt_clEnqueueMapBuffer(fx->cl.queue, s.m, CL_TRUE,
                                           CL_MAP_READ | CL_MAP_WRITE, 0,
                                           s.n * 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_memory_equal(p, s.want, s.n * 8);
    p[0] = 7; /* a host write through the map */
    s.want[0] = 7;
    assert_int_equal(
        clEnqueueUnmapMemObject(fx->cl.queue, s.m, p, 0, NULL, NULL),
        CL_SUCCESS);
    rt_run(fx->cl.queue, s.k, s.n);
    model_step(s.want, s.n);
    /* A whole invalidating map: no restore, then the host rewrites all. */
    RT_SNAP(s0);
    p = dl_rt_clEnqueueMapBuffer(fx->cl.queue, s.m, CL_TRUE,
                                 CL_MAP_WRITE_INVALIDATE_REGION, 0, s.n * 8, 0,
                                 NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 0);
    for (size_t i = 0; i < 2 * s.n; i++)
        p[i] = s.want[i] = (uint32_t)i * 7u;
    assert_int_equal(
        clEnqueueUnmapMemObject(fx->cl.queue, s.m, p, 0, NULL, NULL),
        CL_SUCCESS);
    rt_run(fx->cl.queue, s.k, s.n);
    model_step(s.want, s.n);
    rt_read(fx->cl.queue, s.m, s.got, s.n * 8);
    assert_memory_equal(s.got, s.want, s.n * 8);
    done(&s);
}

static void test_use_host_ptr(void **state)
{
    rt_fixture *fx = *state;
    setup s;
    uint32_t *host = malloc(50 * 8);
    make(fx, &s, 50, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host);
    rt_run(fx->cl.queue, s.k, s.n);
    model_step(s.want, s.n);
    assert_false(rt_is_transformed(s.m));
    /* The host reads its own array after clFinish, without a map. */
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    assert_memory_equal(host, s.want, s.n * 8);
    cl_int err = CL_SUCCESS;
    uint32_t *p =
        dl_rt_clEnqueueMapBuffer(fx->cl.queue, s.m, CL_TRUE, CL_MAP_READ, 0,
                                 s.n * 8, 0, NULL, NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    assert_memory_equal(p, s.want, s.n * 8);
    assert_int_equal(
        clEnqueueUnmapMemObject(fx->cl.queue, s.m, p, 0, NULL, NULL),
        CL_SUCCESS);
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    done(&s);
    free(host);
}

static void test_copy(void **state)
{
    rt_fixture *fx = *state;
    setup a, b;
    make(fx, &a, 24, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    make(fx, &b, 24, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    /* Whole copy a -> b: a restored, b reset. */
    RT_SNAP(s0);
    assert_int_equal(dl_rt_clEnqueueCopyBuffer(fx->cl.queue, a.m, b.m, 0, 0,
                                               a.n * 8, 0, NULL, NULL),
                     CL_SUCCESS);
    RT_SNAP(s1);
    assert_int_equal(RT_DELTA(s1, s0, unmarshals), 1);
    assert_false(rt_is_transformed(b.m));
    memcpy(b.want, a.want, a.n * 8);
    rt_read(fx->cl.queue, b.m, b.got, b.n * 8);
    assert_memory_equal(b.got, b.want, b.n * 8);
    /* Partial copy into a transformed destination: both in AoS first. */
    rt_run(fx->cl.queue, a.k, a.n);
    model_step(a.want, a.n);
    rt_run(fx->cl.queue, b.k, b.n);
    model_step(b.want, b.n);
    RT_SNAP(s2);
    assert_int_equal(dl_rt_clEnqueueCopyBuffer(fx->cl.queue, a.m, b.m, 8, 16,
                                               24, 0, NULL, NULL),
                     CL_SUCCESS);
    RT_SNAP(s3);
    assert_int_equal(RT_DELTA(s3, s2, unmarshals), 2);
    memcpy((char *)b.want + 16, (char *)a.want + 8, 24);
    /* Rect copy, both transformed again. */
    rt_run(fx->cl.queue, a.k, a.n);
    model_step(a.want, a.n);
    rt_run(fx->cl.queue, b.k, b.n);
    model_step(b.want, b.n);
    size_t so[3] = {8, 1, 0}, dor[3] = {0, 2, 0}, region[3] = {16, 3, 1};
    assert_int_equal(dl_rt_clEnqueueCopyBufferRect(fx->cl.queue, a.m, b.m, so,
                                                   dor, region, 32, 0, 32, 0, 0,
                                                   NULL, NULL),
                     CL_SUCCESS);
    for (size_t row = 0; row < 3; row++)
        memcpy((char *)b.want + (2 + row) * 32,
               (char *)a.want + (1 + row) * 32 + 8, 16);
    rt_read(fx->cl.queue, a.m, a.got, a.n * 8);
    rt_read(fx->cl.queue, b.m, b.got, b.n * 8);
    assert_memory_equal(a.got, a.want, a.n * 8);
    assert_memory_equal(b.got, b.want, b.n * 8);
    done(&a);
    done(&b);
}

static void test_copy_to_image(void **state)
{
    rt_fixture *fx = *state;
    cl_bool images = CL_FALSE;
    clGetDeviceInfo(fx->cl.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images,
                    &images, NULL);
    if (!images)
        skip();
    setup s;
    make(fx, &s, 32, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    cl_image_format fmt = {CL_RGBA, CL_UNSIGNED_INT32}; /* 2 records */
    cl_int err = CL_SUCCESS;
    cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                          .image_width = 16,
                          .image_height = 1};
    cl_mem img = clCreateImage(fx->cl.context, CL_MEM_READ_WRITE, &fmt, &desc,
                               NULL, &err);
    assert_int_equal(err, CL_SUCCESS);
    size_t origin[3] = {0, 0, 0}, region[3] = {16, 1, 1};
    assert_int_equal(dl_rt_clEnqueueCopyBufferToImage(fx->cl.queue, s.m, img, 0,
                                                      origin, region, 0, NULL,
                                                      NULL),
                     CL_SUCCESS);
    assert_int_equal(clEnqueueReadImage(fx->cl.queue, img, CL_TRUE, origin,
                                        region, 0, 0, s.got, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_memory_equal(s.got, s.want, s.n * 8);
    clReleaseMemObject(img);
    done(&s);
}

static void CL_CALLBACK native_sum(void *args)
{
    /* args: the buffer's host view, then where to put the sum. */
    struct {
        uint32_t *data;
        uint32_t *sum;
        size_t n;
    } *a = args;
    uint32_t sum = 0;
    for (size_t i = 0; i < a->n; i++)
        sum += a->data[2 * i] * (uint32_t)(i + 1);
    *a->sum = sum;
}

static void test_native_kernel(void **state)
{
    rt_fixture *fx = *state;
    cl_device_exec_capabilities caps = 0;
    clGetDeviceInfo(fx->cl.device, CL_DEVICE_EXECUTION_CAPABILITIES,
                    sizeof caps, &caps, NULL);
    if (!(caps & CL_EXEC_NATIVE_KERNEL))
        skip();
    setup s;
    make(fx, &s, 28, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, NULL);
    uint32_t sum = 0;
    struct {
        uint32_t *data;
        uint32_t *sum;
        size_t n;
    } args = {NULL, &sum, s.n};
    const void *loc[1] = {&args.data};
    assert_int_equal(dl_rt_clEnqueueNativeKernel(fx->cl.queue, native_sum,
                                                 &args, sizeof args, 1, &s.m,
                                                 loc, 0, NULL, NULL),
                     CL_SUCCESS);
    assert_int_equal(clFinish(fx->cl.queue), CL_SUCCESS);
    uint32_t want = 0;
    for (size_t i = 0; i < s.n; i++)
        want += s.want[2 * i] * (uint32_t)(i + 1);
    assert_int_equal(sum, want);
    done(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_rect),
        cmocka_unit_test(test_unknown_buffers),
        cmocka_unit_test(test_counted_accesses),
        cmocka_unit_test(test_partial_and_whole_write),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_use_host_ptr),
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_copy_to_image),
        cmocka_unit_test(test_native_kernel),
    };
    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
