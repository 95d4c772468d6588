/* scn_offset_da.c - kernels/offset_da.cl's `relax` wants DA of cells of
 * 20 floats; with 4096 cells its field arrays lie 16 KiB apart, so they
 * alias at 4 KiB.  "slack": the buffer has 64 bytes a field to spare
 * beyond the cells (dl-run then runs an offset DA); "tight": it has none
 * (plain DA, and dl-run says why).  A host read between the launches
 * and a launch on fewer cells; with slack, last, a launch whose cells
 * fill it (the variant's pad no longer fits: it runs as written).  The
 * whole buffer, slack included, must come back as the plain run leaves
 * it. */
#include "scenarios.h"

#include <stdlib.h>
#include <string.h>

#define CELLS       4096u
#define CELL_FLOATS 20u
#define CELL_BYTES  (CELL_FLOATS * sizeof(float))

static cl_mem cell_buffer(const it_cl *cl, size_t size)
{
    float *host = malloc(size);
    if (!host)
        it_fail("out of memory");
    for (size_t i = 0; i < size / sizeof *host; i++)
        host[i] = (float)(i * 7919u % 1024u) / 8.0f;
    cl_int err;
    cl_mem buf =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       size, host, &err);
    CHECK(err);
    free(host);
    return buf;
}

static void relax(const it_cl *cl, cl_kernel k, cl_mem c, cl_int n, int times)
{
    CHECK(clSetKernelArg(k, 0, sizeof c, &c));
    CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    for (int t = 0; t < times; t++)
        it_run(cl->queue, k, it_round_up((size_t)n));
}

void scn_offset_da(it_cl *cl, int argc, char **argv)
{
    int slack = argc < 1 || strcmp(argv[0], "tight") != 0;
    size_t size = CELLS * CELL_BYTES + (slack ? 64 * CELL_FLOATS : 0);
    cl_program program = it_build(cl, "offset_da.cl", NULL);
    cl_kernel k = it_kernel(program, "relax");
    cl_mem c = cell_buffer(cl, size);

    relax(cl, k, c, CELLS, 3);
    it_print_buffer(cl, c, size, "offset_da: after 3 launches");
    relax(cl, k, c, CELLS - 16, 2); /* fewer cells: the same pad fits */
    relax(cl, k, c, CELLS, 2);
    it_print_buffer(cl, c, size, "offset_da: after 7 launches");
    if (slack) {
        relax(cl, k, c, CELLS + 16, 1);
        it_print_buffer(cl, c, size, "offset_da: the slack as 16 more cells");
    }

    CHECK(clReleaseMemObject(c));
    CHECK(clReleaseKernel(k));
    CHECK(clReleaseProgram(program));
}
