/* scn_image_view.c - images that share a buffer's bytes: an
 * IMAGE1D_BUFFER view of a buffer a kernel used, read after the launch,
 * and a copy from an image into part of such a buffer
 * (clEnqueueCopyImageToBuffer).  Both see the bytes in the program's
 * layout.  A view is 1504 RGBA32UI pixels: the buffer's 24072 bytes
 * but the last 8. */
#include "scenarios.h"

#include <stdlib.h>

void scn_image_view(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t pixels = size / 16;
    const cl_image_format rgba = {CL_RGBA, CL_UNSIGNED_INT32};
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    unsigned char *host = malloc(size);
    if (!host)
        it_fail("out of memory");

    /* A view made after the buffer was used. */
    cl_mem p = it_particle_buffer(cl, 0, n, 31);
    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    const cl_image_desc view_desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                     .image_width = pixels,
                                     .buffer = p};
    cl_mem view = clCreateImage(cl->context, CL_MEM_READ_WRITE, &rgba,
                                &view_desc, NULL, &err);
    CHECK(err);
    const size_t origin[3] = {0, 0, 0}, region[3] = {pixels, 1, 1};
    CHECK(clEnqueueReadImage(cl->queue, view, CL_TRUE, origin, region, 0, 0,
                             host, 0, NULL, NULL));
    it_print_digest("image_view: the view after a launch", host, pixels * 16);
    /* More launches while the view exists. */
    it_run(cl->queue, advance, it_round_up(n));
    CHECK(clEnqueueReadImage(cl->queue, view, CL_TRUE, origin, region, 0, 0,
                             host, 0, NULL, NULL));
    it_print_digest("image_view: the view after another launch", host,
                    pixels * 16);
    it_print_buffer(cl, p, size, "image_view: the viewed buffer");

    /* An image copied into records 100..199 of a buffer a kernel used. */
    cl_mem q = it_particle_buffer(cl, 0, n, 32);
    const size_t rows = 100 * sizeof(particle) / 16;
    const cl_image_desc image_desc = {.image_type = CL_MEM_OBJECT_IMAGE1D,
                                      .image_width = rows};
    for (size_t i = 0; i < rows * 16; i++)
        host[i] = (unsigned char)(i * 7 + 3);
    cl_mem image =
        clCreateImage(cl->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                      &rgba, &image_desc, host, &err);
    CHECK(err);
    it_set_advance_args(advance, q, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    const size_t copy_region[3] = {rows, 1, 1};
    CHECK(clEnqueueCopyImageToBuffer(cl->queue, image, q, origin, copy_region,
                                     100 * sizeof(particle), 0, NULL, NULL));
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, q, size, "image_view: image copied into a buffer");

    free(host);
    CHECK(clReleaseMemObject(image));
    CHECK(clReleaseMemObject(q));
    CHECK(clReleaseMemObject(view));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
