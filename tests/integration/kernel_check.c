/* kernel_check.c - dl-it-kernel-check: checks the hand-transformed
 * indexing of the annotated test kernels without the shim.  For each
 * kernel and record count it runs the kernel as written on AoS data, and
 * the activated build (-D DL_ACTIVE_<k>, -D DL_TILE_<k>_<arg>) on the same
 * data converted by libdlayout's host reference (dl_convert_host) to the
 * annotation's target, converted back afterwards: the bytes must agree.
 * So a failure of an integration test points at dlayout, not at the
 * kernels.  As a self-check, a build with the wrong tile must disagree. */
#include "host.h"

#include <dlayout.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum shape {
    SHAPE_P_N_DX, /* (p, n, dx), 1D, global n rounded up          */
    SHAPE_P,      /* (p), 1D, global = M                           */
    SHAPE_P_2D,   /* (p), 2D, 17 x 59 (M = 1003)                   */
    SHAPE_V_ROWS  /* (v, rows): records of 3 floats, global rounded */
} shape;

typedef struct kernel_case {
    const char *file, *kernel, *arg;
    size_t tile; /* 0: DA */
    shape shape;
} kernel_case;

static const kernel_case cases[] = {
    {"particles.cl", "advance", "p", 8, SHAPE_P_N_DX},
    {"particles.cl", "settle", "p", 0, SHAPE_P},
    {"bad_annotations.cl", "good_step", "p", 8, SHAPE_P_N_DX},
    {"embedded_annotated.cl", "advance", "p", 16, SHAPE_P_N_DX},
    {"shapes.cl", "shift2d", "p", 8, SHAPE_P_2D},
    {"shapes.cl", "scale_rows", "v", 0, SHAPE_V_ROWS},
};

static const dl_field particle_fields[] = {
    {0, 4}, {4, 4}, {8, 8}, {16, 2}, {18, 1}};

static void run_kernel(const it_cl *cl, const kernel_case *c,
                       const char *options, void *data, size_t m, size_t bytes)
{
    cl_int err;
    cl_program program = it_build(cl, c->file, options);
    cl_kernel kernel = it_kernel(program, c->kernel);
    cl_mem buf =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       bytes, data, &err);
    CHECK(err);
    const cl_int count = (cl_int)m;
    const cl_float dx = 0.5f;
    const size_t grid[2] = {17, 59};
    size_t global = c->shape == SHAPE_P ? m : it_round_up(m);
    CHECK(clSetKernelArg(kernel, 0, sizeof buf, &buf));
    if (c->shape == SHAPE_P_N_DX || c->shape == SHAPE_V_ROWS)
        CHECK(clSetKernelArg(kernel, 1, sizeof count, &count));
    if (c->shape == SHAPE_P_N_DX)
        CHECK(clSetKernelArg(kernel, 2, sizeof dx, &dx));
    for (int s = 0; s < 3; s++) {
        if (c->shape == SHAPE_P_2D)
            CHECK(clEnqueueNDRangeKernel(cl->queue, kernel, 2, NULL, grid, NULL,
                                         0, NULL, NULL));
        else
            it_run(cl->queue, kernel, global);
    }
    CHECK(clEnqueueReadBuffer(cl->queue, buf, CL_TRUE, 0, bytes, data, 0, NULL,
                              NULL));
    CHECK(clReleaseMemObject(buf));
    CHECK(clReleaseKernel(kernel));
    CHECK(clReleaseProgram(program));
}

/* 1 if the activated build with `tile` agrees with the plain one. */
static int agrees(const it_cl *cl, const kernel_case *c, size_t m, size_t tile)
{
    dl_record *record;
    dl_status status =
        c->shape == SHAPE_V_ROWS
            ? dl_record_create_uniform(3, sizeof(float), &record)
            : dl_record_create(particle_fields, 5, sizeof(particle), &record);
    if (status != DL_SUCCESS)
        it_fail("dl_record_create: %s", dl_last_error());
    const size_t bytes = m * dl_record_size(record);
    unsigned char *plain = malloc(bytes), *moved = malloc(bytes);
    if (!plain || !moved)
        it_fail("out of memory");
    if (c->shape == SHAPE_V_ROWS)
        for (size_t i = 0; i < bytes / sizeof(float); i++)
            ((float *)plain)[i] = (float)(i % 251) - 100.0f;
    else
        it_particles_init((particle *)plain, m, 99);
    memcpy(moved, plain, bytes);

    dl_layout aos = dl_layout_aos(record, m);
    dl_layout target =
        c->tile ? dl_layout_asta(record, m, c->tile) : dl_layout_da(record, m);
    char options[256];
    int len = snprintf(options, sizeof options, "-D DL_ACTIVE_%s=1", c->kernel);
    if (c->tile)
        snprintf(options + len, sizeof options - (size_t)len,
                 " -D DL_TILE_%s_%s=%zu", c->kernel, c->arg, tile);
    run_kernel(cl, c, "", plain, m, bytes);
    if (dl_convert_host(moved, bytes, &aos, &target) != DL_SUCCESS)
        it_fail("dl_convert_host: %s", dl_last_error());
    run_kernel(cl, c, options, moved, m, bytes);
    if (dl_convert_host(moved, bytes, &target, &aos) != DL_SUCCESS)
        it_fail("dl_convert_host: %s", dl_last_error());
    int same = memcmp(plain, moved, bytes) == 0;
    free(plain);
    free(moved);
    dl_record_release(record);
    return same;
}

int main(void)
{
    const size_t counts[] = {IT_RECORDS, 8, 5, 1};
    int failures = 0;
    it_cl cl;
    it_cl_open(&cl);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const kernel_case *c = &cases[k];
        for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
            if (c->shape == SHAPE_P_2D && counts[i] != IT_RECORDS)
                continue;
            int ok = agrees(&cl, c, counts[i], c->tile);
            printf("%s %s M=%zu: %s\n", c->file, c->kernel, counts[i],
                   ok ? "ok" : "MISMATCH");
            failures += !ok;
        }
        /* the comparison must be able to fail */
        if (c->tile && agrees(&cl, c, IT_RECORDS, c->tile + 1)) {
            printf("%s %s: a wrong tile was not noticed\n", c->file, c->kernel);
            failures++;
        }
    }
    it_cl_close(&cl);
    return failures ? 1 : 0;
}
