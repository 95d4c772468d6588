/* scn_chunks.c - kernels/chunks.cl: redirected launches that dlayout may
 * run in chunks (docs/irregular.md, "Chunked launches").  Every launch's
 * output is printed; under dl-run it must be byte-identical whether a
 * launch ran whole, in chunks overlapped with their gathers
 * (DL_OVERLAP=on), or partly as written (a small DL_GATHER_BUDGET):
 *   1. ell_rows, no local size: x gathered (in 4 chunks);
 *   2. ell_rows again: the copy is cached;
 *   3. scale_x writes x; ell_rows with a global offset of 8 and groups
 *      of 8: gathered again, each chunk at its offset;
 *   4. permute in groups of 4, its event waited for by the program;
 *   5. perm written, permute as one work-group: gathered whole.
 *   col[r * K + j] = (r * 37 + j * 101) % CH_X, perm[i] = (i * 7919) %
 *   CH_P; x has CH_X + 1 elements (perm[i] + 1 is in x). */
#include "scenarios.h"

#include <stdio.h>
#include <string.h>

#define CH_ROWS 1000
#define CH_K    3
#define CH_P    (CH_ROWS * CH_K) /* permute's range: as large as col */
#define CH_X    CH_P

typedef struct chunks {
    it_cl *cl;
    cl_kernel ell, permute;
    cl_mem val, col, perm, x, y, out;
} chunks;

static cl_mem chunks_buffer(const it_cl *cl, size_t size, void *host)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    return m;
}

/* One 1-D launch with an offset and a local size (0: none), waiting for
 * its event when `wait`; then `out` printed. */
static void launch(chunks *s, cl_kernel k, size_t offset, size_t global,
                   size_t local, int wait, cl_mem out, size_t bytes,
                   const char *label)
{
    cl_event ev = NULL;
    CHECK(clEnqueueNDRangeKernel(s->cl->queue, k, 1, &offset, &global,
                                 local ? &local : NULL, 0, NULL,
                                 wait ? &ev : NULL));
    if (wait) {
        CHECK(clWaitForEvents(1, &ev));
        CHECK(clReleaseEvent(ev));
    }
    it_print_buffer(s->cl, out, bytes, label);
}

static void make_data(chunks *s)
{
    static float val[CH_ROWS * CH_K], x[CH_X + 1], y[CH_P], out[CH_P];
    static cl_int col[CH_ROWS * CH_K], perm[CH_P];
    for (int r = 0; r < CH_ROWS; r++)
        for (int j = 0; j < CH_K; j++) {
            col[r * CH_K + j] = (r * 37 + j * 101) % CH_X;
            val[r * CH_K + j] = 1.0f + (float)((r + j) % 7) * 0.25f;
        }
    for (int i = 0; i < CH_P; i++)
        perm[i] = (cl_int)(((long)i * 7919) % CH_P);
    for (int i = 0; i <= CH_X; i++)
        x[i] = (float)(i % 101) * 0.5f - 7.0f;
    memset(y, 0, sizeof y);
    memset(out, 0, sizeof out);
    s->val = chunks_buffer(s->cl, sizeof val, val);
    s->col = chunks_buffer(s->cl, sizeof col, col);
    s->perm = chunks_buffer(s->cl, sizeof perm, perm);
    s->x = chunks_buffer(s->cl, sizeof x, x);
    s->y = chunks_buffer(s->cl, sizeof y, y);
    s->out = chunks_buffer(s->cl, sizeof out, out);
}

static void set_args(chunks *s, cl_program program)
{
    s->ell = it_kernel(program, "ell_rows");
    CHECK(clSetKernelArg(s->ell, 0, sizeof s->val, &s->val));
    CHECK(clSetKernelArg(s->ell, 1, sizeof s->col, &s->col));
    CHECK(clSetKernelArg(s->ell, 2, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->ell, 3, sizeof s->y, &s->y));
    s->permute = it_kernel(program, "permute");
    CHECK(clSetKernelArg(s->permute, 0, sizeof s->x, &s->x));
    CHECK(clSetKernelArg(s->permute, 1, sizeof s->perm, &s->perm));
    CHECK(clSetKernelArg(s->permute, 2, sizeof s->out, &s->out));
}

void scn_chunks(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    cl_program program = it_build(cl, "chunks.cl", "-D K=3");
    chunks s = {.cl = cl};
    make_data(&s);
    set_args(&s, program);
    const size_t ybytes = CH_ROWS * sizeof(float);
    const size_t obytes = CH_P * sizeof(float);

    launch(&s, s.ell, 0, CH_ROWS, 0, 0, s.y, ybytes, "chunks: ell 1");
    launch(&s, s.ell, 0, CH_ROWS, 0, 0, s.y, ybytes, "chunks: ell 2");

    cl_kernel scale = it_kernel(program, "scale_x");
    const float a = 0.5f;
    CHECK(clSetKernelArg(scale, 0, sizeof s.x, &s.x));
    CHECK(clSetKernelArg(scale, 1, sizeof a, &a));
    it_run(cl->queue, scale, CH_X + 1);
    CHECK(clReleaseKernel(scale));
    launch(&s, s.ell, 8, CH_ROWS - 8, 8, 0, s.y, ybytes,
           "chunks: ell at offset 8 after x written");

    launch(&s, s.permute, 0, CH_P, 4, 1, s.out, obytes, "chunks: permute");

    cl_int swapped[2] = {17, 4};
    CHECK(clEnqueueWriteBuffer(cl->queue, s.perm, CL_TRUE, 0, sizeof swapped,
                               swapped, 0, NULL, NULL));
    launch(&s, s.permute, 0, 8, 8, 0, s.out, obytes,
           "chunks: permute, one work-group, after perm written");

    CHECK(clReleaseKernel(s.ell));
    CHECK(clReleaseKernel(s.permute));
    cl_mem all[] = {s.val, s.col, s.perm, s.x, s.y, s.out};
    for (int i = 0; i < 6; i++)
        CHECK(clReleaseMemObject(all[i]));
    CHECK(clReleaseProgram(program));
}
