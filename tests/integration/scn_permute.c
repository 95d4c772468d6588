/* scn_permute.c - kernels/permute.cl under the permutation layout
 * (DL_IRREGULAR=remap): an ELL SpMV reading x through col and a scatter
 * writing a through idx, launched until dlayout has planned and applied their
 * permutations (the plan runs on a thread of its own; the program cannot
 * know when it is done, so it launches them 250 times, 20 ms apart),
 * then every kind of access that must see x, col or a in the program's
 * order: a read, a rect read, a map, a copy, a partial write, a whole
 * write, a read of col, a partial write of col, a kernel using x
 * directly, a kernel writing col, a read through a sub-buffer.  Each is
 * preceded by a launch of the SpMV (which permutes again) and followed by
 * printing what it saw and the SpMV's y. */
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PN 1000 /* rows, elements of x */
#define PK 3    /* entries per row */
#define PM 777  /* elements of a, work-items of the scatter */

typedef struct permute_state {
    it_cl *cl;
    cl_kernel spmv, scatter;
    cl_mem val, col, x, y, a, idx, v;
} permute_state;

static cl_mem permute_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

static void make_buffers(permute_state *s)
{
    static float val[PN * PK], x[PN], y[PN], v[PM];
    static cl_int col[PN * PK];
    static cl_float2 a[PM];
    static cl_long idx[PM];
    for (int j = 0; j < PK; j++)
        for (int r = 0; r < PN; r++) {
            col[j * PN + r] = (r * 389 + j * 101) % PN;
            val[j * PN + r] = 1.0f + (float)((j * PN + r) % 7) * 0.25f;
        }
    for (int i = 0; i < PN; i++)
        x[i] = (float)(i % 17) * 0.5f - 2.0f;
    for (int i = 0; i < PM; i++) {
        idx[i] = (cl_long)(((long)i * 457) % PM);
        v[i] = (float)(i % 11);
        a[i].s[0] = (float)i;
        a[i].s[1] = -(float)(i % 23);
    }
    s->val = permute_buffer(s->cl, sizeof val, val);
    s->col = permute_buffer(s->cl, sizeof col, col);
    s->x = permute_buffer(s->cl, sizeof x, x);
    s->y = permute_buffer(s->cl, sizeof y, y);
    s->a = permute_buffer(s->cl, sizeof a, a);
    s->idx = permute_buffer(s->cl, sizeof idx, idx);
    s->v = permute_buffer(s->cl, sizeof v, v);
}

static void set_args(permute_state *s)
{
    const cl_int n = PN, m = PM;
    CHECK(clSetKernelArg(s->spmv, 0, sizeof s->val, &s->val));
    CHECK(clSetKernelArg(s->spmv, 1, sizeof s->col, &s->col));
    CHECK(clSetKernelArg(s->spmv, 2, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->spmv, 3, sizeof s->y, &s->y));
    CHECK(clSetKernelArg(s->spmv, 4, sizeof n, &n));
    CHECK(clSetKernelArg(s->scatter, 0, sizeof s->a, &s->a));
    CHECK(clSetKernelArg(s->scatter, 1, sizeof s->idx, &s->idx));
    CHECK(clSetKernelArg(s->scatter, 2, sizeof s->v, &s->v));
    CHECK(clSetKernelArg(s->scatter, 3, sizeof m, &m));
}

/* The SpMV, then y printed after `what`. */
static void spmv_print(permute_state *s, const char *what)
{
    it_run(s->cl->queue, s->spmv, PN);
    char label[96];
    snprintf(label, sizeof label, "permute: y after %s", what);
    it_print_buffer(s->cl, s->y, PN * sizeof(float), label);
}

static void one_kernel(permute_state *s, cl_program program, const char *name,
                       cl_mem buf, size_t global)
{
    const cl_int n = PN;
    cl_kernel k = it_kernel(program, name);
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    it_run(s->cl->queue, k, global);
    CHECK(clReleaseKernel(k));
}

static void host_accesses(permute_state *s)
{
    cl_command_queue q = s->cl->queue;
    float part[8] = {1, 2, 3, 4, 5, 6, 7, 8}, rect[40];
    it_run(q, s->spmv, PN);
    it_print_buffer(s->cl, s->x, PN * sizeof(float), "permute: x read");
    it_run(q, s->spmv, PN);
    size_t origin[3] = {40, 2, 0}, host0[3] = {0, 0, 0}, region[3] = {40, 1, 1};
    CHECK(clEnqueueReadBufferRect(q, s->x, CL_TRUE, origin, host0, region, 400,
                                  0, 40, 0, rect, 0, NULL, NULL));
    it_print_digest("permute: x rect", rect, sizeof rect);
    it_run(q, s->spmv, PN);
    cl_int err;
    void *p = clEnqueueMapBuffer(q, s->x, CL_TRUE, CL_MAP_READ, 0,
                                 PN * sizeof(float), 0, NULL, NULL, &err);
    CHECK(err);
    it_print_digest("permute: x mapped", p, PN * sizeof(float));
    CHECK(clEnqueueUnmapMemObject(q, s->x, p, 0, NULL, NULL));
    it_run(q, s->spmv, PN);
    cl_mem z = clCreateBuffer(s->cl->context, CL_MEM_READ_WRITE,
                              PN * sizeof(float), NULL, &err);
    CHECK(err);
    CHECK(clEnqueueCopyBuffer(q, s->x, z, 0, 0, PN * sizeof(float), 0, NULL,
                              NULL));
    it_print_buffer(s->cl, z, PN * sizeof(float), "permute: x copied");
    CHECK(clReleaseMemObject(z));
    it_run(q, s->spmv, PN);
    CHECK(clEnqueueWriteBuffer(q, s->x, CL_TRUE, 100 * sizeof(float),
                               sizeof part, part, 0, NULL, NULL));
    spmv_print(s, "a partial write of x");
    static float whole[PN];
    for (int i = 0; i < PN; i++)
        whole[i] = (float)(i % 9) - 1.5f;
    CHECK(clEnqueueWriteBuffer(q, s->x, CL_TRUE, 0, sizeof whole, whole, 0,
                               NULL, NULL));
    spmv_print(s, "a whole write of x");
}

static void index_accesses(permute_state *s, cl_program program)
{
    cl_command_queue q = s->cl->queue;
    cl_int four[4] = {0, 1, 2, 3};
    it_run(q, s->spmv, PN);
    it_print_buffer(s->cl, s->col, PN * PK * sizeof(cl_int),
                    "permute: col read");
    it_run(q, s->spmv, PN);
    CHECK(clEnqueueWriteBuffer(q, s->col, CL_TRUE, 16 * sizeof(cl_int),
                               sizeof four, four, 0, NULL, NULL));
    spmv_print(s, "a partial write of col");
    it_run(q, s->spmv, PN);
    one_kernel(s, program, "touch", s->x, PN);
    spmv_print(s, "a kernel using x directly");
    it_run(q, s->spmv, PN);
    one_kernel(s, program, "shuffle_col", s->col, PN * PK);
    spmv_print(s, "a kernel writing col");
}

static void sub_buffer(permute_state *s)
{
    it_run(s->cl->queue, s->spmv, PN);
    cl_buffer_region r = {64 * sizeof(float), 64 * sizeof(float)};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(s->x, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK(err);
    it_print_buffer(s->cl, sub, 64 * sizeof(float), "permute: x sub-buffer");
    CHECK(clReleaseMemObject(sub));
    spmv_print(s, "a sub-buffer read");
}

void scn_permute(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "permute.cl", "-D K=3");
    permute_state s = {.cl = cl};
    make_buffers(&s);
    s.spmv = it_kernel(program, "ell_spmv");
    s.scatter = it_kernel(program, "scatter");
    set_args(&s);
    for (int i = 0; i < 250; i++) {
        it_run(cl->queue, s.spmv, PN);
        it_run(cl->queue, s.scatter, PM);
        CHECK(clFinish(cl->queue));
        usleep(20000);
    }
    spmv_print(&s, "the first launches");
    for (int i = 0; i < 5; i++)
        it_run(cl->queue, s.scatter, PM);
    it_print_buffer(cl, s.a, PM * sizeof(cl_float2), "permute: a scattered");
    host_accesses(&s);
    index_accesses(&s, program);
    sub_buffer(&s);
    CHECK(clReleaseKernel(s.spmv));
    CHECK(clReleaseKernel(s.scatter));
    cl_mem all[] = {s.val, s.col, s.x, s.y, s.a, s.idx, s.v};
    for (int i = 0; i < 7; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
}
