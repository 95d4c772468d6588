/* scn_native.c - a native (host C) kernel reads a transformed buffer
 * through its mem_list: it sees raw bytes, so the buffer needs its
 * original layout first.  It sums the ids into a second buffer. */
#include "scenarios.h"

#include <string.h>

typedef struct native_args {
    const particle *p; /* replaced by OpenCL with the buffer's memory */
    cl_long *sum;      /* likewise */
    size_t n;
} native_args;

static void CL_CALLBACK sum_ids(void *raw)
{
    native_args *args = raw;
    cl_ulong sum = 0;
    for (size_t i = 0; i < args->n; i++)
        sum = sum * 31 + (cl_ulong)args->p[i].id + (cl_ulong)args->p[i].tag;
    *args->sum = (cl_long)sum;
}

void scn_native(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 19);
    cl_mem sum = clCreateBuffer(cl->context, CL_MEM_READ_WRITE, sizeof(cl_long),
                                NULL, &err);
    CHECK(err);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    native_args args = {NULL, NULL, n};
    const cl_mem mems[2] = {p, sum};
    const void *locations[2] = {&args.p, &args.sum};
    CHECK(clEnqueueNativeKernel(cl->queue, sum_ids, &args, sizeof args, 2, mems,
                                locations, 0, NULL, NULL));
    it_print_buffer(cl, sum, sizeof(cl_long), "native: sum of ids");
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "native: particles");

    CHECK(clReleaseMemObject(sum));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
