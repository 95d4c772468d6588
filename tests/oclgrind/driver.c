/* driver.c - runs the marshal kernels on small representative shapes, for
 * run_oclgrind.sh to watch under `oclgrind --data-races`.  Under oclgrind
 * the only OpenCL platform is oclgrind's own simulator.
 *
 *   oclgrind-driver CASE     one of the cases below, "gather" (gather.cl),
 *                            "permute" (permute.cl, permute_case.c),
 *                            "offset-da" (AoS <-> offset DA, run_offsets),
 *                            or "racy": a kernel with a deliberate data
 *                            race (the wrapper's self-test).
 * Every conversion is also checked against dl_convert_host and converted
 * back, and every gather against gather_ref, so a kernel that is
 * race-free but wrong fails too. */
#include "internal.h" /* dl_engine: the GPU routes on this CPU-typed device */
#include "gather.h"
#include "permute_case.h"
#include "../unit/gather_ref.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CONVS 6

typedef struct conv {
    int rec; /* index into recs[] */
    size_t count, from, to;
    dl_algo algo;
    const char *step; /* must appear in dl_plan_describe() */
} conv;

static const struct {
    dl_field f[3];
    uint32_t n, size;
} recs[] = {
    {{{0, 4}, {4, 4}, {8, 4}}, 3, 0},   /* uniform, W = 4             */
    {{{0, 8}, {8, 4}, {16, 16}}, 3, 0}, /* padding gap, parts of 1..4 words */
    {{{0, 2}, {3, 1}}, 2, 6},           /* W = 1, gaps inside and after */
    {{{0, 16}, {16, 16}, {32, 16}}, 3, 0}, /* 3 x float4, W = 16        */
};

#define DA DL_TILE_DA
static const struct {
    const char *name;
    conv convs[MAX_CONVS];
} cases[] = {
    {"bs",
     {{0, 64, 1, 8, DL_ALGO_BS, "bs"},
      {1, 48, 1, 8, DL_ALGO_BS, "bs"},
      {2, 40, 1, 8, DL_ALGO_BS, "bs"}}},
    {"bs-tail",
     {{0, 45, 1, 8, DL_ALGO_BS, "bs"},
      {1, 21, 1, 8, DL_ALGO_BS, "bs"},
      {0, 30, 1, DA, DL_ALGO_BS, "bs"}}},
    {"pttwac-instance",
     {{0, 64, 1, 8, DL_ALGO_PTTWAC, "pttwac"},
      {1, 45, 1, 8, DL_ALGO_PTTWAC, "pttwac"},
      {2, 37, 1, 4, DL_ALGO_PTTWAC, "pttwac"}}},
    {"pttwac-tiles",
     {{0, 64, DA, 8, DL_ALGO_PTTWAC, "pttwac"},
      {1, 40, DA, 8, DL_ALGO_PTTWAC, "pttwac"},
      {2, 48, DA, 4, DL_ALGO_PTTWAC, "pttwac"},
      {3, 2001, DA, 7, DL_ALGO_PTTWAC, "pttwac"}}},
    {"pipt",
     {{0, 64, DA, 8, DL_ALGO_PIPT, "pipt"},
      {1, 40, DA, 8, DL_ALGO_PIPT, "pipt"},
      {2, 48, DA, 4, DL_ALGO_PIPT, "pipt"}}},
    /* ... and on CPUs the split by two work-groups (a range per 65,536
     * words): a cut that moves past the end (a tail longer than half a
     * tile), and one that stays, with the swap of the carries. */
    {"tail",
     {{0, 45, DA, 8, DL_ALGO_PTTWAC, "pttwac"},
      {1, 43, DA, 8, DL_ALGO_PIPT, "pipt"},
      {2, 50, DA, 4, DL_ALGO_AUTO, ""},
      {0, 6007, 1, DA, DL_ALGO_AUTO, " -> "},
      {0, 44000, DA, 27500, DL_ALGO_AUTO, "cycles(T=27500"},
      {1, 20011, DA, 32, DL_ALGO_AUTO, "cycles(T=32"}}},
    /* Staged DA <-> ASTA (CPU devices): blocks dividing Q; a partial last
     * block; a single block (the regroup alone). */
    {"staged",
     {{0, 5600, DA, 8, DL_ALGO_AUTO, "cycles(T=2800"},
      {1, 3001, DA, 4, DL_ALGO_AUTO, "regroup"},
      {2, 11000, DA, 64, DL_ALGO_AUTO, "regroup"},
      {1, 300, DA, 4, DL_ALGO_AUTO, "regroup"}}},
    /* Cycle following without atomics (CPU devices): full tiles, a tail
     * (rotated into place, uniform and mixed records), 16-byte words, a
     * single full tile and a tail, and AoS <-> DA through ASTA(1000). */
    {"cycles",
     {{0, 3001, DA, 32, DL_ALGO_AUTO, "cycles(T=32"},
      {1, 2000, DA, 64, DL_ALGO_AUTO, "cycles(T=64"},
      {3, 999, DA, 8, DL_ALGO_AUTO, "cycles(T=8"},
      {3, 3000, 1, DA, DL_ALGO_AUTO, "cycles(T=1000"},
      {1, 2003, DA, 32, DL_ALGO_AUTO, "cycles(T=32"},
      {2, 211, DA, 128, DL_ALGO_AUTO, "cycles(T=128"}}},
    {"oop",
     {{0, 45, 1, 8, DL_ALGO_OOP, "oop"},
      {1, 40, DA, 8, DL_ALGO_OOP, "oop"},
      {2, 37, 4, 8, DL_ALGO_OOP, "oop"}}},
};
#define NCASES (sizeof cases / sizeof *cases)

/* Run as well, planned as for a GPU (oclgrind's device is typed CPU):
 * the tail split by work-groups with halo copies, which CPUs replace by
 * one work-item rotating the tails; one and several groups; and bs's
 * barrier schedule (full tiles in registers of a work-group, the partial
 * tile by its own kernel), both directions of one program. */
static const struct {
    const char *name;
    conv convs[MAX_CONVS];
} gpu_cases[] = {
    {"bs",
     {{0, 64, 1, 8, DL_ALGO_BS, "bs"},
      {1, 45, 1, 8, DL_ALGO_BS, "bs"},
      {2, 40, 1, 32, DL_ALGO_BS, "bs"},
      {3, 21, 1, 4, DL_ALGO_BS, "bs"}}},
    {"tail",
     {{0, 45, DA, 8, DL_ALGO_PTTWAC, "pttwac"},
      {1, 43, DA, 8, DL_ALGO_PIPT, "pipt"},
      {2, 21889, DA, 128, DL_ALGO_PIPT, "pipt"}}},
};
#define NGPU_CASES (sizeof gpu_cases / sizeof *gpu_cases)

static int fail(const char *what, cl_int err)
{
    fprintf(stderr, "oclgrind-driver: %s failed (%d)\n", what, (int)err);
    return 1;
}

/* a -> b and back, checked against the host reference; the plan must
 * have a `step` step. */
static int round_trip(cl_context ctx, cl_command_queue q, dl_engine *e,
                      dl_layout a, dl_layout b, dl_algo algo, const char *step)
{
    size_t bytes = dl_layout_bytes(dl_layout_span(&a) > dl_layout_span(&b)
                                       ? &a
                                       : &b); /* an offset DA's slack */
    unsigned char *in = malloc(bytes + 1), *want = malloc(bytes + 1);
    unsigned char *got = malloc(bytes + 1);
    if (!in || !want || !got)
        return fail("malloc", 0);
    for (size_t i = 0; i < bytes; i++)
        in[i] = (unsigned char)(i * 131u + 7u);
    memcpy(want, in, bytes);
    if (dl_convert_host(want, bytes, &a, &b) != DL_SUCCESS)
        return fail(dl_last_error(), 0);

    cl_int err;
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                bytes, in, &err);
    if (err != CL_SUCCESS)
        return fail("clCreateBuffer", err);
    int bad = 0;
    for (int dir = 0; dir < 2 && !bad; dir++) {
        const dl_layout *from = dir ? &b : &a, *to = dir ? &a : &b;
        dl_plan *p;
        dl_status st = dl_plan_create(e, from, to, algo, &p);
        if (st != DL_SUCCESS) {
            fprintf(stderr, "dl_plan_create: %s\n", dl_last_error());
            bad = 1;
            break;
        }
        const char *desc = dl_plan_describe(p);
        printf("  M=%zu (span %zu) %zu -> %zu: %s\n", a.count,
               dl_layout_span(from), dl_layout_tile(from), dl_layout_tile(to),
               desc);
        if (!strstr(desc, step)) {
            fprintf(stderr, "plan '%s' has no %s step\n", desc, step);
            bad = 1;
        }
        st = dl_plan_enqueue(p, q, buf, 0, NULL, NULL);
        if (st != DL_SUCCESS) {
            fprintf(stderr, "dl_plan_enqueue: %s\n", dl_last_error());
            bad = 1;
        }
        dl_plan_release(p);
        err =
            clEnqueueReadBuffer(q, buf, CL_TRUE, 0, bytes, got, 0, NULL, NULL);
        if (!bad &&
            (err != CL_SUCCESS || memcmp(got, dir ? in : want, bytes) != 0)) {
            fprintf(stderr, "wrong result (M=%zu, %s)\n", a.count, desc);
            bad = 1;
        }
    }
    clReleaseMemObject(buf);
    free(in);
    free(want);
    free(got);
    return bad;
}

static dl_record *make_record(int index)
{
    dl_record *rec = NULL;
    if (dl_record_create(recs[index].f, recs[index].n, recs[index].size,
                         &rec) != DL_SUCCESS)
        fail(dl_last_error(), 0);
    return rec;
}

/* One conversion there and back, checked against the host reference. */
static int run_conv(cl_context ctx, cl_command_queue q, dl_engine *e,
                    const conv *c)
{
    dl_record *rec = make_record(c->rec);
    if (!rec)
        return 1;
    int bad =
        round_trip(ctx, q, e, dl_layout_asta(rec, c->count, c->from),
                   dl_layout_asta(rec, c->count, c->to), c->algo, c->step);
    dl_record_release(rec);
    return bad;
}

/* Offset DA (docs/layouts.md): AoS <-> DA of `stride` records whose first
 * `count` are the data, in a buffer with that slack; the route of AoS <->
 * DA (bs on one tile, or through ASTA(t) by cycles) on M' records. */
static const struct {
    int rec;
    size_t count, stride;
} offsets[] = {{0, 45, 61}, {1, 64, 80}, {2, 1, 17}, {3, 3000, 3016}};

static int run_offsets(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    int bad = 0;
    for (size_t i = 0; i < sizeof offsets / sizeof *offsets; i++) {
        dl_engine *e;
        dl_record *rec = make_record(offsets[i].rec);
        if (!rec || dl_engine_create(ctx, dev, &e) != DL_SUCCESS)
            return fail(dl_last_error(), 0);
        bad |= round_trip(
            ctx, q, e, dl_layout_aos(rec, offsets[i].count),
            dl_layout_da_offset(rec, offsets[i].count, offsets[i].stride),
            DL_ALGO_AUTO, "");
        dl_engine_release(e);
        dl_record_release(rec);
    }
    return bad;
}

/* Every conversion of `convs` on an engine of its own. */
static int run_convs(cl_context ctx, cl_device_id dev, cl_command_queue q,
                     const conv *convs, int gpu)
{
    int bad = 0;
    for (int c = 0; c < MAX_CONVS && convs[c].count; c++) {
        dl_engine *e;
        if (dl_engine_create(ctx, dev, &e) != DL_SUCCESS)
            return fail(dl_last_error(), 0);
        if (gpu)
            e->local_is_global = 0;
        bad |= run_conv(ctx, q, e, &convs[c]);
        dl_engine_release(e);
    }
    return bad;
}

/* gather.cl's forms: words of 4, 16 and 1 bytes, a field, 8-byte
 * indices, a dense ELL range, a sparse one (every other entry), offsets,
 * out-of-range entries and global sizes that are not whole groups. */
static const struct {
    dl_coalesce_ref ref;
    dl_coalesce_range range;
    unsigned index_bytes;
    size_t a_count, p_count;
} gathers[] = {
    {{4, 0, 0, 1}, {300, 1, 0, 1, 0}, 4, 257, 300},
    {{12, 4, 4, -2}, {100, 3, 0, 1, 100}, 8, 90, 300},
    {{16, 0, 16, 0}, {70, 1, 1, 2, 0}, 4, 64, 141},
    {{3, 0, 0, 0}, {33, 4, 0, 5, 1}, 8, 50, 165}, /* 4 of every 5 */
};

static int run_gather(cl_context ctx, cl_command_queue q, dl_engine *e,
                      size_t g)
{
    const dl_coalesce_ref *ref = &gathers[g].ref;
    unsigned ib = gathers[g].index_bytes;
    size_t a_bytes = gathers[g].a_count * ref->elem_bytes;
    size_t p_count = gathers[g].p_count, p_bytes = p_count * ib;
    size_t out_bytes = p_count * ref->elem_bytes;
    unsigned char *a = malloc(a_bytes), *p = malloc(p_bytes);
    unsigned char *want = calloc(1, out_bytes), *got = malloc(out_bytes);
    if (!a || !p || !want || !got)
        return fail("malloc", 0);
    for (size_t i = 0; i < a_bytes; i++)
        a[i] = (unsigned char)(i * 131u + 7u);
    for (size_t i = 0; i < p_count; i++) { /* ~5% out of range */
        long long v = (long long)((i * 7919u) % (gathers[g].a_count + 14)) - 6;
        if (ib == 4)
            ((int32_t *)p)[i] = (int32_t)v;
        else
            ((int64_t *)p)[i] = v;
    }
    gather_ref(a, gathers[g].a_count, p, p_count, ib, ref, &gathers[g].range,
               want);
    cl_int err, e2, e3;
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               a_bytes, a, &err);
    cl_mem dp = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               p_bytes, p, &e2);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 out_bytes, want, &e3); /* defined bytes */
    if (err != CL_SUCCESS || e2 != CL_SUCCESS || e3 != CL_SUCCESS)
        return fail("clCreateBuffer", err | e2 | e3);
    int bad = 0;
    if (dl_enqueue_gather(e, q, da, dp, ref, &gathers[g].range, ib, dout, 0,
                          NULL, NULL) != DL_SUCCESS) {
        fprintf(stderr, "dl_enqueue_gather: %s\n", dl_last_error());
        bad = 1;
    }
    err =
        clEnqueueReadBuffer(q, dout, CL_TRUE, 0, out_bytes, got, 0, NULL, NULL);
    if (!bad && (err != CL_SUCCESS || memcmp(got, want, out_bytes) != 0)) {
        fprintf(stderr, "wrong gather (case %zu)\n", g);
        bad = 1;
    }
    printf("  gather %zu: %zu-byte elements, %u-byte indices: %s\n", g,
           ref->elem_bytes, ib, bad ? "wrong" : "ok");
    clReleaseMemObject(da);
    clReleaseMemObject(dp);
    clReleaseMemObject(dout);
    free(a);
    free(p);
    free(want);
    free(got);
    return bad;
}

/* Both launch forms: runs of entries in groups of one (CPUs), an entry
 * per work-item (GPUs). */
static int run_gathers(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    int bad = 0;
    for (int cpu = 1; cpu >= 0; cpu--) {
        dl_engine *e;
        if (dl_engine_create(ctx, dev, &e) != DL_SUCCESS)
            return fail(dl_last_error(), 0);
        e->local_is_global = cpu;
        printf(" %s form:\n", cpu ? "CPU" : "GPU");
        for (size_t g = 0; g < sizeof gathers / sizeof *gathers; g++)
            bad |= run_gather(ctx, q, e, g);
        dl_engine_release(e);
    }
    return bad;
}

/* Every work-item reads its neighbour's element while the neighbour
 * writes it: a read-write race the wrapper must report. */
static const char *racy_source =
    "__kernel void racy(__global uint *b)\n"
    "{\n"
    "    size_t i = get_global_id(0);\n"
    "    b[i] = b[(i + 1) % get_global_size(0)] + 1u;\n"
    "}\n";

static int run_racy(cl_context ctx, cl_device_id dev, cl_command_queue q)
{
    cl_int err;
    cl_program prog =
        clCreateProgramWithSource(ctx, 1, &racy_source, NULL, &err);
    if (err != CL_SUCCESS ||
        (err = clBuildProgram(prog, 1, &dev, "", NULL, NULL)) != CL_SUCCESS)
        return fail("building the racy kernel", err);
    cl_kernel k = clCreateKernel(prog, "racy", &err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64 * sizeof(cl_uint),
                                NULL, &err);
    size_t global = 64, local = 64;
    clSetKernelArg(k, 0, sizeof buf, &buf);
    err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    clFinish(q);
    clReleaseMemObject(buf);
    clReleaseKernel(k);
    clReleaseProgram(prog);
    return err == CL_SUCCESS ? 0 : fail("clEnqueueNDRangeKernel", err);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CASE  (racy, gather, permute, offset-da",
                argv[0]);
        for (size_t i = 0; i < NCASES; i++)
            fprintf(stderr, ", %s", cases[i].name);
        fprintf(stderr, ")\n");
        return 2;
    }
    cl_platform_id plat;
    cl_device_id dev;
    cl_int err = clGetPlatformIDs(1, &plat, NULL);
    if (err != CL_SUCCESS)
        return fail("clGetPlatformIDs", err);
    err = clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &dev, NULL);
    if (err != CL_SUCCESS)
        return fail("clGetDeviceIDs", err);
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    if (err != CL_SUCCESS)
        return fail("clCreateContext", err);
    cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err);
    if (err != CL_SUCCESS)
        return fail("clCreateCommandQueue", err);
    char name[128] = "";
    clGetPlatformInfo(plat, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    printf("platform: %s\n", name);

    int bad = -1;
    if (strcmp(argv[1], "racy") == 0)
        bad = run_racy(ctx, dev, q);
    if (strcmp(argv[1], "gather") == 0)
        bad = run_gathers(ctx, dev, q);
    if (strcmp(argv[1], "permute") == 0)
        bad = run_permutes(ctx, dev, q);
    if (strcmp(argv[1], "offset-da") == 0)
        bad = run_offsets(ctx, dev, q);
    for (size_t i = 0; i < NCASES; i++) {
        if (strcmp(argv[1], cases[i].name) != 0)
            continue;
        bad = run_convs(ctx, dev, q, cases[i].convs, 0);
        for (size_t g = 0; g < NGPU_CASES; g++)
            if (strcmp(argv[1], gpu_cases[g].name) == 0)
                bad |= run_convs(ctx, dev, q, gpu_cases[g].convs, 1);
    }
    if (bad < 0)
        fprintf(stderr, "unknown case '%s'\n", argv[1]);
    clReleaseCommandQueue(q);
    clReleaseContext(ctx);
    return bad ? 1 : 0;
}
