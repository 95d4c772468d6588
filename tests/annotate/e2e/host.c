/* host.c - dla-e2e-host: an ordinary OpenCL program (it knows nothing of
 * dlayout) that loads a kernel file, runs it a few times over an array of
 * records and prints one digest line of the result.  The end-to-end test
 * runs it with the original kernel, with dl-annotate's output, and with
 * that output under dl-run: the three lines must be identical.
 *
 * `layout` builds its kernel with -DBIG (e2e/layout.cl: the field order
 * depends on it) and otherwise runs like `particles`.
 *
 * `figure1` launches exactly N work-items with no work-group size (so N
 * need not be a multiple of anything); with TILE it launches the range a
 * tiled kernel wants, global (TILE, N/TILE), which only the vectorisation
 * test uses (it looks at the compiled code, not at the result).
 *
 * `cells` (e2e/cells.cl, Parboil LBM's style) runs a lattice of 12 x 10 x N
 * cells of 20 floats, with a margin of two planes at each end, four steps
 * from one lattice to the other; its sizes are build options (-DNX=12 ...),
 * which its annotations name.  It prints one digest of both lattices.
 *
 * usage: dla-e2e-host particles|grid|figure1|layout|cells KERNEL.cl N [TILE] */
#include <CL/cl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int err_ = (call);                                                  \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "dla-e2e-host: %s failed (%d)\n", #call, err_);    \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = 0;
        *len = (size_t)n;
    }
    return s;
}

/* The `cells` case: an LBM-style kernel over two lattices of 20 floats a
 * cell, built with the sizes as options. */
#define CELLS_NX 12
#define CELLS_NY 10

static int run_cells(cl_context ctx, cl_command_queue q, cl_device_id dev,
                     const char *src, size_t srclen, int nz)
{
    size_t ncells = (size_t)CELLS_NX * CELLS_NY * ((size_t)nz + 4);
    size_t bytes = ncells * 20 * sizeof(float);
    unsigned char *data = malloc(2 * bytes);
    uint64_t seed = 11;
    for (size_t c = 0; c < ncells; c++) {
        for (int e = 0; e < 19; e++) {
            float f = 1.0f + (float)(splitmix(&seed) % 1000) / 10000.0f;
            memcpy(data + (c * 20 + (size_t)e) * 4, &f, 4);
        }
        uint32_t flags = (uint32_t)(splitmix(&seed) % 16) == 0 ? 1u : 0u;
        flags |= (uint32_t)(splitmix(&seed) % 8 == 0) << 1;
        flags |= 0xabc00u; /* bits no kernel tests, kept bit-exact */
        memcpy(data + (c * 20 + 19) * 4, &flags, 4);
    }
    memcpy(data + bytes, data, bytes);
    cl_int err;
    cl_program prog = clCreateProgramWithSource(ctx, 1, &src, &srclen, &err);
    CHECK(err);
    char options[128];
    snprintf(options, sizeof options, "-DNX=%d -DNY=%d -DNZ=%d -DOMEGA=1.7f",
             CELLS_NX, CELLS_NY, nz);
    if (clBuildProgram(prog, 1, &dev, options, NULL, NULL) != CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
                              log, NULL);
        fprintf(stderr, "dla-e2e-host: build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog, "collide_stream", &err);
    CHECK(err);
    cl_mem grid[2];
    for (int g = 0; g < 2; g++) {
        grid[g] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 bytes, data + (size_t)g * bytes, &err);
        CHECK(err);
    }
    size_t global[3] = {CELLS_NX, CELLS_NY, (size_t)nz};
    for (int step = 0; step < 4; step++) {
        CHECK(clSetKernelArg(k, 0, sizeof(cl_mem), &grid[step % 2]));
        CHECK(clSetKernelArg(k, 1, sizeof(cl_mem), &grid[1 - step % 2]));
        CHECK(
            clEnqueueNDRangeKernel(q, k, 3, NULL, global, NULL, 0, NULL, NULL));
    }
    for (int g = 0; g < 2; g++)
        CHECK(clEnqueueReadBuffer(q, grid[g], CL_TRUE, 0, bytes,
                                  data + (size_t)g * bytes, 0, NULL, NULL));
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < 2 * bytes; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    printf("cells nx=%d ny=%d nz=%d fnv1a64=%016llx\n", CELLS_NX, CELLS_NY, nz,
           (unsigned long long)h);
    for (int g = 0; g < 2; g++)
        clReleaseMemObject(grid[g]);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4 && argc != 5) {
        fprintf(stderr, "usage: dla-e2e-host particles|grid|figure1|"
                        "figure1-mixed|layout|cells KERNEL.cl N [TILE]\n");
        return 2;
    }
    int particles = strcmp(argv[1], "particles") == 0;
    /* figure1-mixed: the second of the three launches covers N - 3
     * work-items, a range no tile of 2, 4 or 8 divides when N is 1000 */
    int mixed = strcmp(argv[1], "figure1-mixed") == 0;
    int figure1 = mixed || strcmp(argv[1], "figure1") == 0;
    int layout = strcmp(argv[1], "layout") == 0;
    int cells = strcmp(argv[1], "cells") == 0;
    int n = atoi(argv[3]);
    int tile = argc == 5 ? atoi(argv[4]) : 0;
    size_t record = particles           ? 48
                    : figure1 || layout ? 8 * sizeof(float)
                                        : 6 * sizeof(float);
    size_t bytes = (size_t)n * record;
    if (n <= 0 || (mixed && n <= 3) ||
        (!particles && !figure1 && !layout && !cells &&
         strcmp(argv[1], "grid") != 0) ||
        (argc == 5 && (!figure1 || tile <= 0 || n % tile))) {
        fprintf(stderr, "dla-e2e-host: bad arguments\n");
        return 2;
    }
    size_t srclen = 0;
    char *src = read_file(argv[2], &srclen);
    if (!src) {
        fprintf(stderr, "dla-e2e-host: cannot read %s\n", argv[2]);
        return 1;
    }
    /* records of small floats and bytes, from a fixed seed */
    unsigned char *data = malloc(bytes);
    uint64_t seed = 7;
    for (size_t i = 0; i < bytes / 4; i++) {
        float f = (float)(splitmix(&seed) % 1000) / 100.0f;
        memcpy(data + 4 * i, &f, 4);
    }
    if (particles)
        for (int i = 0; i < n; i++) {
            int id = i;
            memcpy(data + (size_t)i * record + 36, &id, 4);
            memset(data + (size_t)i * record + 40, (int)(i % 50), 8);
        }

    cl_platform_id platform;
    cl_device_id dev;
    cl_int err;
    CHECK(clGetPlatformIDs(1, &platform, NULL));
    CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    CHECK(err);
    if (cells) {
        int status = run_cells(ctx, q, dev, src, srclen, n);
        clReleaseCommandQueue(q);
        clReleaseContext(ctx);
        free(data);
        free(src);
        return status;
    }
    const char *strings[] = {src};
    cl_program prog = clCreateProgramWithSource(ctx, 1, strings, &srclen, &err);
    CHECK(err);
    if (clBuildProgram(prog, 1, &dev, layout ? "-DBIG" : "", NULL, NULL) !=
        CL_SUCCESS) {
        char log[8192] = "";
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, sizeof log - 1,
                              log, NULL);
        fprintf(stderr, "dla-e2e-host: build failed:\n%s\n", log);
        return 1;
    }
    cl_kernel k = clCreateKernel(prog,
                                 particles ? "advance"
                                 : figure1 ? "update"
                                 : layout  ? "reorder"
                                           : "smooth",
                                 &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                bytes, data, &err);
    CHECK(err);
    float dt = 0.01f;
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    if (particles || figure1 || layout) {
        CHECK(clSetKernelArg(k, 1, sizeof dt, &dt));
        CHECK(clSetKernelArg(k, 2, sizeof n, &n));
    } else {
        CHECK(clSetKernelArg(k, 1, sizeof n, &n));
    }
    /* a global size rounded up to 64: the kernels' guards skip the rest */
    size_t global = ((size_t)n + 63) / 64 * 64, local = 64;
    size_t tiled[2] = {(size_t)tile, tile ? (size_t)n / (size_t)tile : 0};
    if (figure1)
        global = (size_t)n;
    for (int step = 0; step < 3; step++) {
        size_t g = mixed && step == 1 ? global - 3 : global;
        CHECK(clEnqueueNDRangeKernel(q, k, tile ? 2 : 1, NULL,
                                     tile ? tiled : &g, figure1 ? NULL : &local,
                                     0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, data, 0, NULL, NULL));
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; i++)
        h = (h ^ data[i]) * 0x100000001b3ull;
    printf("%s n=%d fnv1a64=%016llx\n", argv[1], n, (unsigned long long)h);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    free(data);
    free(src);
    return 0;
}
