/* scn_embedded.c - a program that embeds its kernel source, without
 * annotations, as many applications do.  dlayout can dump it (DL_DUMP_DIR,
 * named by the hash of its text) and build an annotated version in its
 * place (DL_INJECT_DIR): kernels/embedded_annotated.cl is that version. */
#include "scenarios.h"

/* particles.cl's `advance`, as the application wrote it */
static const char source[] =
    "struct particle { float x; int id; long mass; short tag; uchar flag; };\n"
    "__kernel void advance(__global struct particle *p, int n, float dx)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    if (i >= (size_t)n)\n"
    "        return;\n"
    "    p[i].x += dx;\n"
    "    p[i].id = (int)((uint)p[i].id * 3u + 1u);\n"
    "    p[i].mass += p[i].id;\n"
    "    p[i].tag += 1;\n"
    "    p[i].flag ^= 0x5a;\n"
    "}\n";

void scn_embedded(it_cl *cl, int argc, char **argv)
{
    (void)argc, (void)argv;
    const size_t n = IT_RECORDS, size = n * sizeof(particle);
    const char *strings[] = {source};
    cl_int err;
    cl_program program =
        clCreateProgramWithSource(cl->context, 1, strings, NULL, &err);
    CHECK(err);
    CHECK(clBuildProgram(program, 1, &cl->device, NULL, NULL, NULL));
    cl_kernel advance = it_kernel(program, "advance");
    cl_mem p = it_particle_buffer(cl, 0, n, 23);

    it_set_advance_args(advance, p, (cl_int)n, 0.5f);
    for (int i = 0; i < 5; i++)
        it_run(cl->queue, advance, it_round_up(n));
    it_print_buffer(cl, p, size, "embedded: after 5 launches");

    CHECK(clReleaseMemObject(p));
    CHECK(clReleaseKernel(advance));
    CHECK(clReleaseProgram(program));
}
