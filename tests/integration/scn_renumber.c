/* scn_renumber.c - kernels/renumber.cl under DL_IRREGULAR=renumber: the
 * SpMV over the shuffled 3D stencil, x and y ping-ponged, launched until
 * dlayout has planned its renumbering (on a thread of its own: 200 launches,
 * 20 ms apart), then every kind of access that must see a renumbered
 * vector in the program's order: a read, a rect read, a map, a copy, a
 * partial write, a whole write, a partial fill, a kernel using x
 * directly, a read through a sub-buffer.  Each is preceded by a launch
 * (which renumbers again) and followed by printing what it saw and the
 * next launch's output.  Last, `weighted`, which uses the vertex number
 * as a value, on the same buffers (renumbering declined: as written). */
#include "csr_gen.h"
#include "scenarios.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define RN 9 /* the stencil's side: RN^3 rows */

typedef struct renumber_state {
    it_cl *cl;
    csr_matrix m;
    cl_kernel spmv;
    cl_mem val, col, rowptr, x, y;
    size_t rows, bytes;
} renumber_state;

/* y = A x / 8, then y printed after `what`. */
static void spmv_print(renumber_state *s, const char *what)
{
    it_run(s->cl->queue, s->spmv, it_round_up(s->rows));
    char label[96];
    snprintf(label, sizeof label, "renumber: y after %s", what);
    it_print_buffer(s->cl, s->y, s->bytes, label);
}

/* One launch with x and y swapped (the ping-pong). */
static void swap_launch(renumber_state *s)
{
    cl_mem t = s->x;
    s->x = s->y;
    s->y = t;
    CHECK(clSetKernelArg(s->spmv, 3, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->spmv, 4, sizeof s->y, &s->y));
    it_run(s->cl->queue, s->spmv, it_round_up(s->rows));
}

static void reads(renumber_state *s)
{
    cl_command_queue q = s->cl->queue;
    float rect[32];
    swap_launch(s);
    it_print_buffer(s->cl, s->y, s->bytes, "renumber: y read");
    swap_launch(s);
    size_t origin[3] = {32, 3, 0}, host0[3] = {0, 0, 0}, region[3] = {32, 1, 1};
    CHECK(clEnqueueReadBufferRect(q, s->y, CL_TRUE, origin, host0, region, 320,
                                  0, 32, 0, rect, 0, NULL, NULL));
    it_print_digest("renumber: y rect", rect, sizeof rect);
    swap_launch(s);
    cl_int err;
    void *p = clEnqueueMapBuffer(q, s->x, CL_TRUE, CL_MAP_READ, 0, s->bytes, 0,
                                 NULL, NULL, &err);
    CHECK(err);
    it_print_digest("renumber: x mapped", p, s->bytes);
    CHECK(clEnqueueUnmapMemObject(q, s->x, p, 0, NULL, NULL));
    swap_launch(s);
    cl_mem z =
        clCreateBuffer(s->cl->context, CL_MEM_READ_WRITE, s->bytes, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueCopyBuffer(q, s->y, z, 0, 0, s->bytes, 0, NULL, NULL));
    it_print_buffer(s->cl, z, s->bytes, "renumber: y copied");
    CHECK(clReleaseMemObject(z));
}

static void writes(renumber_state *s, cl_program program)
{
    cl_command_queue q = s->cl->queue;
    float part[8] = {1, 2, 3, 4, 5, 6, 7, 8}, one = 0.5f;
    swap_launch(s);
    CHECK(clEnqueueWriteBuffer(q, s->x, CL_TRUE, 100 * sizeof(float),
                               sizeof part, part, 0, NULL, NULL));
    spmv_print(s, "a partial write of x");
    float *whole = malloc(s->bytes);
    if (!whole)
        it_fail("out of memory");
    for (size_t i = 0; i < s->rows; i++)
        whole[i] = (float)(i % 9) - 1.5f;
    CHECK(clEnqueueWriteBuffer(q, s->x, CL_TRUE, 0, s->bytes, whole, 0, NULL,
                               NULL));
    free(whole);
    spmv_print(s, "a whole write of x");
    CHECK(clEnqueueFillBuffer(q, s->x, &one, sizeof one, 40 * sizeof(float),
                              16 * sizeof(float), 0, NULL, NULL));
    spmv_print(s, "a partial fill of x");
    cl_kernel touch = it_kernel(program, "touch");
    const cl_int n = (cl_int)s->rows;
    CHECK(clSetKernelArg(touch, 0, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(touch, 1, sizeof n, &n));
    it_run(q, touch, it_round_up(s->rows));
    CHECK(clReleaseKernel(touch));
    spmv_print(s, "a kernel using x directly");
}

static void sub_buffer(renumber_state *s)
{
    swap_launch(s);
    cl_buffer_region r = {64 * sizeof(float), 64 * sizeof(float)};
    cl_int err;
    cl_mem sub = clCreateSubBuffer(s->y, CL_MEM_READ_WRITE,
                                   CL_BUFFER_CREATE_TYPE_REGION, &r, &err);
    CHECK(err);
    it_print_buffer(s->cl, sub, 64 * sizeof(float), "renumber: y sub-buffer");
    CHECK(clReleaseMemObject(sub));
    spmv_print(s, "a sub-buffer read");
}

static void weighted(renumber_state *s, cl_program program)
{
    swap_launch(s);
    cl_kernel w = it_kernel(program, "weighted");
    const cl_int rows = (cl_int)s->rows;
    cl_mem args[5] = {s->val, s->col, s->rowptr, s->x, s->y};
    for (cl_uint i = 0; i < 5; i++)
        CHECK(clSetKernelArg(w, i, sizeof args[i], &args[i]));
    CHECK(clSetKernelArg(w, 5, sizeof rows, &rows));
    it_run(s->cl->queue, w, it_round_up(s->rows));
    CHECK(clReleaseKernel(w));
    it_print_buffer(s->cl, s->y, s->bytes, "renumber: y after weighted");
}

void scn_renumber(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    uint64_t seed = 0x5851f42d4c957f2dull;
    renumber_state s = {.cl = cl};
    size_t *num = csr_shuffle(RN * RN * RN, &seed);
    csr_stencil(&s.m, RN, num);
    free(num);
    s.rows = s.m.rows;
    s.bytes = s.rows * sizeof(float);
    float *x = malloc(s.bytes);
    if (!x)
        it_fail("out of memory");
    for (size_t i = 0; i < s.rows; i++)
        x[i] = (float)(csr_next(&seed) % 1000) / 100.0f;
    cl_program program = it_build(cl, "renumber.cl", "");
    s.spmv = it_kernel(program, "spmv");
    s.val = csr_buffer(cl, s.m.nnz * sizeof(float), s.m.val);
    s.col = csr_buffer(cl, s.m.nnz * sizeof(cl_int), s.m.col);
    s.rowptr = csr_buffer(cl, (s.rows + 1) * sizeof(cl_int), s.m.rowptr);
    s.x = csr_buffer(cl, s.bytes, x);
    s.y = csr_buffer(cl, s.bytes, x);
    free(x);
    const cl_int rows = (cl_int)s.rows;
    CHECK(clSetKernelArg(s.spmv, 0, sizeof s.val, &s.val));
    CHECK(clSetKernelArg(s.spmv, 1, sizeof s.col, &s.col));
    CHECK(clSetKernelArg(s.spmv, 2, sizeof s.rowptr, &s.rowptr));
    CHECK(clSetKernelArg(s.spmv, 5, sizeof rows, &rows));
    for (int i = 0; i < 200; i++) {
        swap_launch(&s);
        CHECK(clFinish(cl->queue));
        usleep(20000);
    }
    spmv_print(&s, "the first launches");
    reads(&s);
    writes(&s, program);
    sub_buffer(&s);
    weighted(&s, program);
    CHECK(clReleaseKernel(s.spmv));
    cl_mem all[] = {s.val, s.col, s.rowptr, s.x, s.y};
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
    csr_free(&s.m);
}
