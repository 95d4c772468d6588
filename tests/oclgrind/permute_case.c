/* permute_case.c - the "permute" case of oclgrind-driver (driver.c):
 * permute.cl's three kernels on a random permutation with several
 * segments per cycle (elements of 4 and 12 bytes), checked against
 * A'[pi[x]] = A[x], and P's values redirected, in both launch forms. */
#include "internal.h"
#include "permute.h"
#include "permute_case.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 300

static int check_permute(cl_context ctx, cl_command_queue q, dl_engine *e,
                         const uint32_t *pi, size_t elem)
{
    unsigned char a[N * 12], want[N * 12], got[N * 12];
    for (size_t i = 0; i < N * elem; i++)
        a[i] = (unsigned char)(i * 131u + 7u);
    for (size_t x = 0; x < N; x++)
        memcpy(want + pi[x] * elem, a + x * elem, elem);
    dl_perm_plan plan;
    dl_perm_device dev;
    cl_int err;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               N * elem, a, &err);
    if (err != CL_SUCCESS || dl_perm_plan_build(pi, N, 16, &plan) != DL_SUCCESS)
        return 1;
    int bad = dl_perm_device_create(ctx, &plan, elem, &dev) != DL_SUCCESS ||
              dl_enqueue_permute(e, q, da, &dev, 0, NULL, NULL) != DL_SUCCESS;
    if (!bad)
        bad = clEnqueueReadBuffer(q, da, CL_TRUE, 0, N * elem, got, 0, NULL,
                                  NULL) != CL_SUCCESS ||
              memcmp(got, want, N * elem) != 0;
    printf("  permute: %zu-byte elements, %zu segments: %s\n", elem,
           plan.segments, bad ? "wrong" : "ok");
    dl_perm_device_release(&dev);
    dl_perm_plan_free(&plan);
    clReleaseMemObject(da);
    return bad;
}

static int check_redirect(cl_context ctx, cl_command_queue q, dl_engine *e,
                          const uint32_t *pi)
{
    int32_t p[2 * N], want[2 * N], got[2 * N];
    for (int i = 0; i < 2 * N; i++) { /* a few values outside A */
        p[i] = (int32_t)((i * 7919u) % (N + 10)) - 5;
        want[i] = p[i] >= 0 && p[i] < N ? (int32_t)pi[p[i]] : p[i];
    }
    cl_int err, e2;
    cl_mem dp = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                               sizeof p, p, &err);
    cl_mem dm = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               N * sizeof *pi, (void *)pi, &e2);
    if (err != CL_SUCCESS || e2 != CL_SUCCESS)
        return 1;
    int bad = dl_enqueue_redirect(e, q, dp, 4, 2 * N, dm, N, 0, NULL, NULL) !=
                  DL_SUCCESS ||
              clEnqueueReadBuffer(q, dp, CL_TRUE, 0, sizeof got, got, 0, NULL,
                                  NULL) != CL_SUCCESS ||
              memcmp(got, want, sizeof got) != 0;
    printf("  redirect: %s\n", bad ? "wrong" : "ok");
    clReleaseMemObject(dp);
    clReleaseMemObject(dm);
    return bad;
}

int run_permutes(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    uint32_t pi[N];
    for (uint32_t x = 0; x < N; x++)
        pi[x] = x;
    for (uint32_t x = N; x > 1; x--) { /* a fixed shuffle */
        uint32_t y = (x * 2654435761u) % x, t = pi[x - 1];
        pi[x - 1] = pi[y], pi[y] = t;
    }
    int bad = 0;
    for (int cpu = 1; cpu >= 0; cpu--) {
        dl_engine *e;
        if (dl_engine_create(ctx, dev, &e) != DL_SUCCESS) {
            fprintf(stderr, "dl_engine_create: %s\n", dl_last_error());
            return 1;
        }
        e->local_is_global = cpu;
        printf(" %s form:\n", cpu ? "CPU" : "GPU");
        bad |= check_permute(ctx, q, e, pi, 4);
        bad |= check_permute(ctx, q, e, pi, 12);
        bad |= check_redirect(ctx, q, e, pi);
        dl_engine_release(e);
    }
    if (bad)
        fprintf(stderr, "permute: %s\n", dl_last_error());
    return bad;
}
