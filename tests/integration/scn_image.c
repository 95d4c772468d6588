/* scn_image.c - a transformed buffer copied into an image: the copy reads
 * raw bytes, so the buffer needs its original layout first.  The image
 * is the buffer's 24072 bytes as 59 rows of 408 one-byte pixels. */
#include "scenarios.h"

#include <stdlib.h>

void scn_image(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const size_t width = 17 * sizeof(particle), height = 59;
    const cl_image_format format = {CL_R, CL_UNSIGNED_INT8};
    const cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE2D,
                                .image_width = width,
                                .image_height = height};
    cl_int err;
    cl_program program = it_build(cl, "particles.cl", NULL);
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 18);
    cl_mem image = clCreateImage(cl->context, CL_MEM_READ_WRITE, &format, &desc,
                                 NULL, &err);
    CHECK(err);
    unsigned char *host = malloc(size);
    if (!host)
        it_fail("out of memory");

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    it_run(cl->queue, advance, it_round_up(n));
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
    CHECK(clEnqueueCopyBufferToImage(cl->queue, p, image, 0, origin, region, 0,
                                     NULL, NULL));
    CHECK(clEnqueueReadImage(cl->queue, image, CL_TRUE, origin, region, 0, 0,
                             host, 0, NULL, NULL));
    it_print_digest("image: copy of the buffer", host, size);
    it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "image: particles");

    free(host);
    CHECK(clReleaseMemObject(image));
    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
