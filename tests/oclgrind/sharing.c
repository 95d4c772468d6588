/* sharing.c - the shared form of tests/integration/kernels/sharing.cl
 * (dl-annotate's output) under `oclgrind --data-races` (run_oclgrind.sh):
 * `ell` built as written, with DL_SHARE_ell (the groups in launch order)
 * and with DL_SHARE_ell and DL_JOBSWAP_ell (clustered by the frequency
 * order), A_s and L planned by sharing_slots.c from the scattered index
 * array as the runtime does; the outputs must be byte-identical and
 * oclgrind's log empty (the group's copy into __local memory and its
 * barrier race with none of the reads).
 *
 *   oclgrind-sharing PATH/TO/sharing.cl */
#include "freq_order.h"
#include "sharing_slots.h"

#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N     256
#define K     4
#define GROUP 64

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s = f ? malloc(1 << 16) : NULL;
    *len = s ? fread(s, 1, (1 << 16) - 1, f) : 0;
    if (f)
        fclose(f);
    if (s)
        s[*len] = 0;
    return s;
}

typedef struct inputs {
    cl_context ctx;
    cl_device_id dev;
    cl_command_queue q;
    const char *src;
    size_t len;
    float val[K * N], x[N];
    cl_int col[K * N];
} inputs;

typedef struct shared {
    float as[4 * K * N]; /* A_s: at most a block and a segment a group */
    cl_int local[K * N]; /* L */
    cl_uint pos[N / GROUP], size[N / GROUP], job[N];
    size_t slots, max_block;
} shared;

static cl_mem buffer(const inputs *in, size_t bytes, const void *host)
{
    cl_int err;
    return clCreateBuffer(in->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                          bytes, (void *)host, &err);
}

/* A_s, L and the blocks for job map `job` (NULL: launch order). */
static int plan(const inputs *in, const size_t *job, shared *s)
{
    int64_t idx[K * N];
    for (int i = 0; i < K * N; i++)
        idx[i] = in->col[i];
    dl_coalesce_range range = {N, K, 0, 1, N};
    dl_sharing_slots p;
    if (dl_sharing_slots_build(idx, K * N, 0, &range, job, GROUP, 16, &p) !=
            DL_SUCCESS ||
        p.tables.slots > sizeof s->as / sizeof *s->as)
        return -1;
    for (size_t i = 0; i < p.tables.slots; i++)
        s->as[i] = p.tables.source[i] < 0 ? 0.0f : in->x[p.tables.source[i]];
    for (int i = 0; i < K * N; i++)
        s->local[i] = (cl_int)p.tables.slot[i];
    for (size_t g = 0; g < p.groups; g++) {
        s->pos[g] = (cl_uint)p.block_pos[g];
        s->size[g] = (cl_uint)p.block_size[g];
    }
    for (int t = 0; t < N; t++)
        s->job[t] = (cl_uint)(job ? job[t] : (size_t)t);
    s->slots = p.tables.slots;
    s->max_block = p.max_block;
    dl_sharing_slots_free(&p);
    return 0;
}

/* `ell` built with `options` on val, col, x (or A_s, L and the blocks
 * where s is given, the job map too where `swap`), once; y read. */
static cl_int run(const inputs *in, const char *options, const shared *s,
                  int swap, float *y)
{
    cl_int err;
    const char *text = in->src;
    cl_program p = clCreateProgramWithSource(in->ctx, 1, &text, &in->len, &err);
    if (err == CL_SUCCESS)
        err = clBuildProgram(p, 1, &in->dev, options, NULL, NULL);
    cl_kernel k = err == CL_SUCCESS ? clCreateKernel(p, "ell", &err) : NULL;
    cl_mem m[7] = {
        buffer(in, sizeof in->val, in->val),
        s ? buffer(in, sizeof s->local, s->local)
          : buffer(in, sizeof in->col, in->col),
        s ? buffer(in, s->slots * sizeof *s->as, s->as)
          : buffer(in, sizeof in->x, in->x),
        clCreateBuffer(in->ctx, CL_MEM_READ_WRITE, N * sizeof *y, NULL, &err),
        s ? buffer(in, sizeof s->job, s->job) : NULL,
        s ? buffer(in, sizeof s->pos, s->pos) : NULL,
        s ? buffer(in, sizeof s->size, s->size) : NULL};
    const cl_int n = N;
    cl_uint at = 5;
    for (cl_uint i = 0; k && i < 4; i++)
        err |= clSetKernelArg(k, i, sizeof(cl_mem), &m[i]);
    if (k)
        err |= clSetKernelArg(k, 4, sizeof n, &n);
    if (k && s && swap)
        err |= clSetKernelArg(k, at++, sizeof(cl_mem), &m[4]);
    if (k && s) {
        err |= clSetKernelArg(k, at++, sizeof(cl_mem), &m[5]);
        err |= clSetKernelArg(k, at++, sizeof(cl_mem), &m[6]);
        err |= clSetKernelArg(k, at, s->max_block * sizeof(float), NULL);
    }
    size_t global = N, local = GROUP;
    if (k && err == CL_SUCCESS)
        err = clEnqueueNDRangeKernel(in->q, k, 1, NULL, &global, &local, 0,
                                     NULL, NULL);
    if (err == CL_SUCCESS)
        err = clEnqueueReadBuffer(in->q, m[3], CL_TRUE, 0, N * sizeof *y, y, 0,
                                  NULL, NULL);
    for (int i = 0; i < 7; i++)
        if (m[i])
            clReleaseMemObject(m[i]);
    if (k)
        clReleaseKernel(k);
    if (p)
        clReleaseProgram(p);
    return err;
}

static void fill(inputs *in)
{
    for (int i = 0; i < K * N; i++) {
        in->val[i] = (float)(i % 13) * 0.5f - 2.0f;
        /* a few columns read often, the rest scattered */
        in->col[i] = (cl_int)(i % 3 ? (i * 389) % N : (i * 7) % 16);
    }
    for (int i = 0; i < N; i++)
        in->x[i] = (float)(i % 17) * 0.75f - 3.0f;
}

/* The shared form's y for job map `job`, compared with `plain`. */
static int check(const inputs *in, const size_t *job, const float *plain,
                 const char *what)
{
    static shared s;
    static float y[N];
    const char *options = job ? "-D K=4 -D DL_SHARE_ell=1 -D DL_JOBSWAP_ell=1"
                              : "-D K=4 -D DL_SHARE_ell=1";
    cl_int err = plan(in, job, &s) ? CL_OUT_OF_HOST_MEMORY
                                   : run(in, options, &s, job != NULL, y);
    int same = err == CL_SUCCESS && !memcmp(plain, y, sizeof y);
    printf("shared ell, %s: %s\n", what,
           err != CL_SUCCESS ? "OpenCL error or no plan"
           : same            ? "byte-identical to the plain kernel"
                             : "DIFFERS");
    return same;
}

int main(int argc, char **argv)
{
    static inputs in;
    char *src = argc == 2 ? read_file(argv[1], &in.len) : NULL;
    if (!src) {
        fprintf(stderr, "usage: %s PATH/TO/sharing.cl\n", argv[0]);
        return 2;
    }
    in.src = src;
    fill(&in);
    cl_platform_id plat;
    cl_int err = clGetPlatformIDs(1, &plat, NULL);
    err |= clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &in.dev, NULL);
    in.ctx = clCreateContext(NULL, 1, &in.dev, NULL, NULL, &err);
    in.q = clCreateCommandQueue(in.ctx, in.dev, 0, &err);
    static float plain[N];
    if (err == CL_SUCCESS)
        err = run(&in, "-D K=4", NULL, 0, plain);
    dl_freq_order order;
    int64_t first[N];
    for (int t = 0; t < N; t++)
        first[t] = in.col[t];
    if (err != CL_SUCCESS || dl_freq_order_build(first, N, &order)) {
        fprintf(stderr, "no OpenCL device, or no plan\n");
        return 1;
    }
    int ok = check(&in, NULL, plain, "launch order");
    ok &= check(&in, order.job, plain, "clustered");
    dl_freq_order_free(&order);
    clReleaseCommandQueue(in.q);
    clReleaseContext(in.ctx);
    free(src);
    return ok ? 0 : 1;
}
