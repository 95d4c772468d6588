/* dl_test.c - shared test helpers; see dl_test.h. */
#include "dl_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------- randomness */

static uint64_t rng_state;

uint64_t dl_test_seed(const char *test_name)
{
    const char *env = getenv("DL_TEST_SEED");
    uint64_t seed;
    if (env && *env) {
        seed = strtoull(env, NULL, 0);
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        seed = (uint64_t)ts.tv_sec * 1000003u ^ (uint64_t)ts.tv_nsec;
    }
    rng_state = seed;
    printf("%s: seed %llu (replay with DL_TEST_SEED=%llu)\n", test_name,
           (unsigned long long)seed, (unsigned long long)seed);
    fflush(stdout);
    return seed;
}

/* splitmix64 */
uint64_t dl_test_rand(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

size_t dl_test_range(size_t lo, size_t hi)
{
    return lo + (size_t)(dl_test_rand() % (uint64_t)(hi - lo + 1));
}

void dl_test_fill(void *buf, size_t bytes)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < bytes; i++)
        p[i] = (unsigned char)dl_test_rand();
}

/* ------------------------------------------------------------ naive model */

uint32_t naive_parts(const dl_record *rec, naive_part *parts)
{
    uint32_t size = dl_record_size(rec), nf = dl_record_nfields(rec);
    /* owner[b]: 1 + index of the field that owns byte b, 0 for padding */
    uint32_t *owner = calloc(size ? size : 1, sizeof *owner);
    if (!owner)
        abort();
    for (uint32_t f = 0; f < nf; f++) {
        dl_field fd = dl_record_field(rec, f);
        for (uint32_t b = 0; b < fd.size; b++)
            owner[fd.offset + b] = f + 1;
    }
    uint32_t n = 0;
    for (uint32_t b = 0; b < size;) {
        uint32_t e = b + 1;
        if (owner[b])
            e = b + dl_record_field(rec, owner[b] - 1).size;
        else
            while (e < size && !owner[e])
                e++;
        parts[n++] = (naive_part){b, e - b};
        b = e;
    }
    free(owner);
    return n;
}

size_t naive_tile(size_t count, size_t tile)
{
    size_t cap = count ? count : 1;
    return tile < cap ? tile : cap;
}

size_t naive_offset(size_t count, size_t tile, uint32_t rec_size, size_t i,
                    uint32_t o, uint32_t z)
{
    size_t t = naive_tile(count, tile);
    size_t q = i / t, slot = i % t;
    size_t width = (q + 1) * t <= count ? t : count % t;
    return q * t * rec_size + (size_t)o * width + slot * z;
}

void naive_convert(void *dst, const void *src, const dl_record *rec,
                   size_t count, size_t from_tile, size_t to_tile)
{
    static naive_part parts[NAIVE_MAX_PARTS];
    uint32_t n = naive_parts(rec, parts), s = dl_record_size(rec);
    for (size_t i = 0; i < count; i++)
        for (uint32_t p = 0; p < n; p++) {
            uint32_t o = parts[p].offset, z = parts[p].size;
            memcpy((char *)dst + naive_offset(count, to_tile, s, i, o, z),
                   (const char *)src +
                       naive_offset(count, from_tile, s, i, o, z),
                   z);
        }
}

/* ---------------------------------------------------------- test records */

const dl_test_rec dl_test_recs[] = {
    {"3 x float (W4)", {{0, 4}, {4, 4}, {8, 4}}, 3, 0},
    {"2 x char (W1)", {{0, 1}, {1, 1}}, 2, 0},
    {"5 x short (W2)", {{0, 2}, {2, 2}, {4, 2}, {6, 2}}, 4, 10},
    {"2 x double (W8)", {{0, 8}, {8, 8}}, 2, 0},
    {"3 x float4 (W16)", {{0, 16}, {16, 16}, {32, 16}}, 3, 0},
    {"float3,char,double,short (W1)",
     {{0, 12}, {12, 1}, {16, 8}, {24, 2}},
     4,
     32},
    {"double,int,float4 (W4)", {{0, 8}, {8, 4}, {16, 16}}, 3, 0},
};
const size_t dl_test_nrecs = sizeof dl_test_recs / sizeof *dl_test_recs;

dl_record *dl_test_record(size_t index)
{
    const dl_test_rec *d = &dl_test_recs[index];
    dl_record *r = NULL;
    if (dl_record_create(d->fields, d->nfields, d->size, &r) != DL_SUCCESS) {
        fprintf(stderr, "record %s: %s\n", d->name, dl_last_error());
        abort();
    }
    return r;
}

const char *dl_test_layout_name(char *out, size_t n, size_t count, size_t tile)
{
    size_t t = naive_tile(count, tile);
    if (t == 1)
        snprintf(out, n, "AoS");
    else if (t == (count ? count : 1))
        snprintf(out, n, "DA");
    else
        snprintf(out, n, "ASTA(%zu)", t);
    return out;
}

/* ----------------------------------------------------------------- OpenCL */

static int platform_wanted(cl_platform_id p)
{
    const char *want = getenv("DL_TEST_PLATFORM");
    char name[256] = "";
    if (!want || !*want)
        return 1;
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    return strstr(name, want) != NULL;
}

int dl_test_cl_open(dl_test_cl *cl)
{
    memset(cl, 0, sizeof *cl);
    cl_platform_id plats[16];
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(16, plats, &np);
    if (err != CL_SUCCESS || np == 0) {
        fprintf(stderr,
                "no OpenCL platform (error %d); is pocl-opencl-icd "
                "installed?\n",
                (int)err);
        return -1;
    }
    for (cl_uint i = 0; i < np && !cl->device; i++)
        if (platform_wanted(plats[i]) &&
            clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 1, &cl->device,
                           NULL) == CL_SUCCESS)
            cl->platform = plats[i];
    if (!cl->device) {
        fprintf(stderr, "no OpenCL device found\n");
        return -1;
    }
    cl->context = clCreateContext(NULL, 1, &cl->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateContext failed (%d)\n", (int)err);
        return -1;
    }
    cl->queue = clCreateCommandQueue(cl->context, cl->device, 0, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateCommandQueue failed (%d)\n", (int)err);
        clReleaseContext(cl->context);
        return -1;
    }
    return 0;
}

void dl_test_cl_close(dl_test_cl *cl)
{
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    memset(cl, 0, sizeof *cl);
}

cl_mem dl_test_buffer(const dl_test_cl *cl, const void *data, size_t bytes)
{
    cl_int err;
    cl_mem m =
        clCreateBuffer(cl->context, CL_MEM_READ_WRITE, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clCreateBuffer(%zu) failed (%d)\n", bytes, (int)err);
        abort();
    }
    err = clEnqueueWriteBuffer(cl->queue, m, CL_TRUE, 0, bytes, data, 0, NULL,
                               NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clEnqueueWriteBuffer failed (%d)\n", (int)err);
        abort();
    }
    return m;
}

void dl_test_read(const dl_test_cl *cl, cl_mem buf, void *out, size_t bytes)
{
    cl_int err = clEnqueueReadBuffer(cl->queue, buf, CL_TRUE, 0, bytes, out, 0,
                                     NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "clEnqueueReadBuffer failed (%d)\n", (int)err);
        abort();
    }
}

int dl_test_fixture_setup(void **state, const char *seed_name)
{
    static dl_test_fixture fx;
    if (dl_test_cl_open(&fx.cl) != 0)
        return -1;
    if (dl_engine_create(fx.cl.context, fx.cl.device, &fx.engine) !=
        DL_SUCCESS) {
        fprintf(stderr, "dl_engine_create: %s\n", dl_last_error());
        return -1;
    }
    dl_test_seed(seed_name);
    *state = &fx;
    return 0;
}

int dl_test_fixture_teardown(void **state)
{
    dl_test_fixture *fx = *state;
    dl_engine_release(fx->engine);
    dl_test_cl_close(&fx->cl);
    return 0;
}
