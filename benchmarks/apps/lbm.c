/* lbm.c - dl-app-lbm: a D3Q19 lattice-Boltzmann solver in plain OpenCL.
 *
 * The lattice is an array of 20-float cell records (19 distributions and
 * an obstacle flag, see lbm.cl).  The program builds a channel with solid
 * walls at y = 0 and y = NY-1, a cylinder across the channel and a sprinkle
 * of random obstacle cells, starts every fluid cell at equilibrium with a
 * seeded random density and velocity around a flow along +z, runs --steps
 * stream-collide steps on two ping-pong buffers and reads the lattice back.
 *
 * stdout: one digest line (identical for identical output bytes).
 * stderr: one timing line (profiling-event kernel time, total time).
 * --output FILE: the final lattice, NX*NY*NZ*20 floats in AoS order.
 * --layout da runs the hand-written direction-major kernel lbm_da.cl on a
 * converted copy; its output bytes equal those of --layout aos. */
#include "app_common.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define PROG        "dl-app-lbm"
#define CELL_FLOATS 20
#define Q           19
#define FLAG        19

/* lattice velocities in the element order of lbm.cl */
static const int CX[Q] = {0,  1, -1, 0, 0, 0, 0, 1,  -1, 1,
                          -1, 0, 0,  0, 0, 1, 1, -1, -1};
static const int CY[Q] = {0,  0, 0, 1,  -1, 0, 0, 1, 1, -1,
                          -1, 1, 1, -1, -1, 0, 0, 0, 0};
static const int CZ[Q] = {0, 0, 0,  0, 0,  1, -1, 0, 0, 0,
                          0, 1, -1, 1, -1, 1, -1, 1, -1};

static void usage(FILE *out)
{
    fputs(
        "usage: " PROG " [options]\n"
        "D3Q19 lattice-Boltzmann channel flow (pull stream-collide, BGK,\n"
        "periodic wrap, bounce-back obstacles), 20 floats per cell (AoS).\n"
        "  --nx N --ny N --nz N   lattice size (default 120 120 150)\n"
        "  --steps N              time steps, 1..10000 (default 10)\n"
        "  --seed N               input generator seed (default 1)\n"
        "  --omega W              BGK relaxation rate, (0, 2) (default 1.5)\n"
        "  --layout aos|da        aos: lbm.cl on the AoS lattice (default);\n"
        "                         da: lbm_da.cl on a direction-major copy\n"
        "  --da-pad N             with --layout da: the direction planes\n"
        "                         NX*NY*NZ + N cells apart (offset DA, a\n"
        "                         buffer with slack; default 0); with aos:\n"
        "                         N cells of slack after the lattice in\n"
        "                         each buffer (room for dl-run's offset DA)\n",
        out);
    app_common_usage(out);
}

typedef struct lbm_opts {
    long nx, ny, nz, steps;
    uint64_t seed;
    double omega;
    int da;
    long da_pad; /* cells between the DA planes' starts beyond NCELLS */
    app_common_opts common;
} lbm_opts;

enum {
    OPT_NX = APP_OPT_OWN,
    OPT_NY,
    OPT_NZ,
    OPT_STEPS,
    OPT_SEED,
    OPT_OMEGA,
    OPT_LAYOUT,
    OPT_DA_PAD
};

static const struct option lbm_options[] = {
    {"nx", required_argument, NULL, OPT_NX},
    {"ny", required_argument, NULL, OPT_NY},
    {"nz", required_argument, NULL, OPT_NZ},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"omega", required_argument, NULL, OPT_OMEGA},
    {"layout", required_argument, NULL, OPT_LAYOUT},
    {"da-pad", required_argument, NULL, OPT_DA_PAD},
    {NULL, 0, NULL, 0},
};

static int lbm_option(void *opts, int code, const char *name, const char *v)
{
    lbm_opts *o = opts;
    switch (code) {
    case OPT_NX:
        return app_parse_long(PROG, name, v, 1, 4096, &o->nx);
    case OPT_NY:
        return app_parse_long(PROG, name, v, 3, 4096, &o->ny);
    case OPT_NZ:
        return app_parse_long(PROG, name, v, 1, 4096, &o->nz);
    case OPT_STEPS:
        return app_parse_long(PROG, name, v, 1, 10000, &o->steps);
    case OPT_SEED:
        return app_parse_u64(PROG, name, v, &o->seed);
    case OPT_OMEGA:
        return app_parse_double(PROG, name, v, 0.01, 1.99, &o->omega);
    case OPT_DA_PAD:
        return app_parse_long(PROG, name, v, 0, 1 << 20, &o->da_pad);
    default: /* OPT_LAYOUT */
        if (strcmp(v, "aos") != 0 && strcmp(v, "da") != 0) {
            fprintf(stderr, PROG ": --layout wants aos or da, not '%s'\n", v);
            return 0;
        }
        o->da = strcmp(v, "da") == 0;
        return 1;
    }
}

static int parse(lbm_opts *o, int argc, char **argv)
{
    if (!app_parse_options(PROG, argc, argv, lbm_options, lbm_option, o,
                           &o->common, usage))
        return 0;
    if (o->nx * o->ny * o->nz * CELL_FLOATS > (long)INT_MAX) {
        fprintf(stderr,
                PROG ": lattice %ldx%ldx%ld too large (the kernels "
                     "index with int)\n",
                o->nx, o->ny, o->nz);
        return 0;
    }
    return 1;
}

/* Equilibrium distributions of density rho and velocity u, in float with
 * the same expression as the kernels. */
static void equilibrium(float *cell, float rho, float ux, float uy, float uz)
{
    const float u2 = 1.5f * (ux * ux + uy * uy + uz * uz);
    for (int q = 0; q < Q; q++) {
        const float w =
            q == 0 ? 1.0f / 3.0f : (q <= 6 ? 1.0f / 18.0f : 1.0f / 36.0f);
        const float cu =
            (float)CX[q] * ux + (float)CY[q] * uy + (float)CZ[q] * uz;
        cell[q] = w * rho * (1.0f + 3.0f * cu + 4.5f * cu * cu - u2);
    }
}

static void init_lattice(float *lat, const lbm_opts *o)
{
    app_rng rng;
    app_rng_seed(&rng, o->seed);
    const long yc = o->ny / 2, zc = o->nz / 4;
    long rad = o->ny / 10;
    if (rad < 1)
        rad = 1;
    size_t n = 0;
    for (long z = 0; z < o->nz; z++)
        for (long y = 0; y < o->ny; y++)
            for (long x = 0; x < o->nx; x++, n++) {
                float *cell = lat + n * CELL_FLOATS;
                /* draw the same numbers for every cell, solid or not */
                const int sprinkle = app_rng_below(&rng, 1000) < 5;
                const float drho = app_rng_range(&rng, -0.01f, 0.01f);
                const float dux = app_rng_range(&rng, -0.005f, 0.005f);
                const float duy = app_rng_range(&rng, -0.005f, 0.005f);
                const float duz = app_rng_range(&rng, -0.005f, 0.005f);
                const long dy = y - yc, dz = z - zc;
                const int solid = y == 0 || y == o->ny - 1 ||
                                  dy * dy + dz * dz <= rad * rad || sprinkle;
                if (solid)
                    equilibrium(cell, 1.0f, 0.0f, 0.0f, 0.0f);
                else
                    equilibrium(cell, 1.0f + drho, dux, duy, 0.05f + duz);
                cell[FLAG] = solid ? 1.0f : 0.0f;
            }
}

/* AoS <-> DA (element k of cell n at k*stride + n; stride >= ncells) */
static void aos_to_da(float *da, const float *aos, size_t ncells, size_t stride)
{
    for (size_t n = 0; n < ncells; n++)
        for (size_t k = 0; k < CELL_FLOATS; k++)
            da[k * stride + n] = aos[n * CELL_FLOATS + k];
}

static void da_to_aos(float *aos, const float *da, size_t ncells, size_t stride)
{
    for (size_t k = 0; k < CELL_FLOATS; k++)
        for (size_t n = 0; n < ncells; n++)
            aos[n * CELL_FLOATS + k] = da[k * stride + n];
}

int main(int argc, char **argv)
{
    lbm_opts o = {120, 120, 150, 10, 1, 1.5, 0, 0, {0}};
    app_common_defaults(&o.common);
    if (!parse(&o, argc, argv)) {
        fprintf(stderr, "(" PROG " --help lists the options)\n");
        return APP_EXIT_USAGE;
    }

    const size_t ncells = (size_t)o.nx * o.ny * o.nz;
    const size_t bytes = ncells * CELL_FLOATS * sizeof(float);
    /* DA's planes start `stride` cells apart: its buffers hold the slack;
     * AoS's buffers hold it after the lattice, unused by the program */
    const size_t stride = ncells + (o.da ? (size_t)o.da_pad : 0);
    const size_t dev_bytes =
        (ncells + (size_t)o.da_pad) * CELL_FLOATS * sizeof(float);
    const size_t moved = o.da ? dev_bytes : bytes; /* written, read back */
    int rc = APP_EXIT_FAIL;
    float *lat = app_alloc(PROG, bytes, "lattice");
    float *tmp = o.da ? app_alloc(PROG, dev_bytes, "DA copy") : NULL;
    cl_event *events = calloc((size_t)o.steps, sizeof *events);
    char *kpath = NULL;
    cl_mem buf[2] = {NULL, NULL};
    cl_kernel kernel = NULL;
    app_cl cl;
    memset(&cl, 0, sizeof cl);
    if (!lat || (o.da && !tmp) || !events)
        goto out;
    init_lattice(lat, &o);

    kpath =
        app_find_kernel(PROG, o.common.kernel, o.da ? "lbm_da.cl" : "lbm.cl");
    if (!kpath || !app_cl_open(&cl, PROG, &o.common))
        goto out;
    char opts[256];
    snprintf(opts, sizeof opts,
             "-DNX=%ld -DNY=%ld -DNZ=%ld -DOMEGA=%.9ff -DNCELLS=%zu", o.nx,
             o.ny, o.nz, o.omega, stride);
    if (!app_cl_build(&cl, kpath, opts))
        goto out;
    cl_int err;
    kernel = clCreateKernel(cl.program, "lbm_step", &err);
    if (!app_cl_ok(PROG, err, "clCreateKernel(lbm_step)"))
        goto out;
    for (int i = 0; i < 2; i++)
        if (!(buf[i] =
                  app_cl_buffer(&cl, CL_MEM_READ_WRITE, dev_bytes, "lattice")))
            goto out;

    size_t local[3] = {(size_t)o.common.local, 1, 1};
    size_t global[3] = {app_round_up((size_t)o.nx, local[0]), (size_t)o.ny,
                        (size_t)o.nz};

    const double t0 = app_now_ms();
    const float *upload = lat;
    if (o.da) {
        memset(tmp, 0, dev_bytes); /* the slack between the planes */
        aos_to_da(tmp, lat, ncells, stride);
        upload = tmp;
    }
    /* both lattices start from the initial state (so the flags are valid
     * in both from the start) */
    for (int i = 0; i < 2; i++)
        if (!app_cl_ok(PROG,
                       clEnqueueWriteBuffer(cl.queue, buf[i], CL_TRUE, 0, moved,
                                            upload, 0, NULL, NULL),
                       "clEnqueueWriteBuffer(lattice)"))
            goto out;
    for (long s = 0; s < o.steps; s++) {
        cl_mem src = buf[s & 1], dst = buf[(s + 1) & 1];
        if (!app_cl_ok(PROG, clSetKernelArg(kernel, 0, sizeof src, &src),
                       "clSetKernelArg(0)") ||
            !app_cl_ok(PROG, clSetKernelArg(kernel, 1, sizeof dst, &dst),
                       "clSetKernelArg(1)") ||
            !app_cl_ok(PROG,
                       clEnqueueNDRangeKernel(cl.queue, kernel, 3, NULL, global,
                                              local[0] ? local : NULL, 0, NULL,
                                              &events[s]),
                       "clEnqueueNDRangeKernel(lbm_step)"))
            goto out;
    }
    float *download = o.da ? tmp : lat;
    if (!app_cl_ok(PROG,
                   clEnqueueReadBuffer(cl.queue, buf[o.steps & 1], CL_TRUE, 0,
                                       moved, download, 0, NULL, NULL),
                   "clEnqueueReadBuffer(lattice)"))
        goto out;
    if (o.da)
        da_to_aos(lat, tmp, ncells, stride);
    const double total_ms = app_now_ms() - t0;
    double min_ms = 0.0;
    const double kernel_ms =
        app_cl_events_ms(&cl, events, (size_t)o.steps, &min_ms);

    /* digest: fluid mass and z momentum (double, fixed order), FNV-1a */
    double mass = 0.0, mom_z = 0.0;
    size_t fluid = 0;
    for (size_t n = 0; n < ncells; n++) {
        const float *cell = lat + n * CELL_FLOATS;
        if (cell[FLAG] != 0.0f)
            continue;
        fluid++;
        for (int q = 0; q < Q; q++) {
            mass += cell[q];
            mom_z += (double)CZ[q] * cell[q];
        }
    }
    printf("lbm nx=%ld ny=%ld nz=%ld steps=%ld seed=%llu omega=%g "
           "fluid_cells=%zu mass=%.9e momentum_z=%.9e fnv1a64=%016llx\n",
           o.nx, o.ny, o.nz, o.steps, (unsigned long long)o.seed, o.omega,
           fluid, mass, mom_z, (unsigned long long)app_fnv1a64(lat, bytes));
    fflush(stdout);
    if (!o.common.quiet)
        fprintf(stderr,
                PROG ": device=\"%s\" layout=%s kernel=%s "
                     "steps=%ld kernel_ms=%.3f kernel_ms_per_step=%.3f "
                     "kernel_ms_min=%.3f mlups=%.2f total_ms=%.3f\n",
                cl.device_name, o.da ? "da" : "aos", kpath, o.steps, kernel_ms,
                kernel_ms / (double)o.steps, min_ms,
                kernel_ms > 0
                    ? (double)ncells * (double)o.steps / (kernel_ms * 1e3)
                    : 0.0,
                total_ms);
    if (o.common.output && !app_write_file(PROG, o.common.output, lat, bytes))
        goto out;
    rc = APP_EXIT_OK;

out:
    if (events)
        for (long s = 0; s < o.steps; s++)
            if (events[s])
                clReleaseEvent(events[s]);
    for (int i = 0; i < 2; i++)
        if (buf[i])
            clReleaseMemObject(buf[i]);
    if (kernel)
        clReleaseKernel(kernel);
    app_cl_close(&cl);
    free(kpath);
    free(events);
    free(tmp);
    free(lat);
    return rc;
}
