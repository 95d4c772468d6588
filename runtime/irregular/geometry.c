/* geometry.c - W and S per device class, and the report line. */
#include "clapi.h"
#include "coalesce.h"
#include "error.h"

#include <stdio.h>

/* The papers' GPU: a 32-thread warp, 128-byte segments. */
#define GPU_SIMD_WIDTH    32u
#define GPU_SEGMENT_BYTES 128u
/* The cache line of the x86 and ARM cores POCL runs on. */
#define CPU_LINE_BYTES 64u

double dl_coalesce_per_access(uint64_t transactions, uint64_t accesses)
{
    return accesses ? (double)transactions / (double)accesses : 0.0;
}

double dl_coalesce_saving_percent(const dl_coalesce_counts *c)
{
    if (c->before == 0)
        return 0.0;
    return 100.0 * ((double)c->before - (double)c->after) / (double)c->before;
}

int dl_coalesce_format(const dl_coalesce_geometry *g,
                       const dl_coalesce_counts *c, char *buf, size_t size)
{
    if (c->accesses == 0)
        return snprintf(buf, size, "W=%u S=%u: no accesses", g->simd_width,
                        g->segment_bytes);
    double saving = dl_coalesce_saving_percent(c);
    return snprintf(buf, size,
                    "W=%u S=%u: %.1f -> %.1f transactions per warp-access "
                    "(%.1f%% %s)",
                    g->simd_width, g->segment_bytes,
                    dl_coalesce_per_access(c->before, c->accesses),
                    dl_coalesce_per_access(c->after, c->accesses),
                    saving < 0 ? -saving : saving,
                    saving < 0 ? "more" : "fewer");
}

dl_coalesce_geometry dl_coalesce_geometry_gpu(void)
{
    dl_coalesce_geometry g = {GPU_SIMD_WIDTH, GPU_SEGMENT_BYTES};
    return g;
}

dl_coalesce_geometry dl_coalesce_geometry_cpu(unsigned simd_bytes,
                                              size_t load_bytes)
{
    size_t lanes = load_bytes ? simd_bytes / load_bytes : simd_bytes;
    dl_coalesce_geometry g = {lanes ? (unsigned)lanes : 1u, CPU_LINE_BYTES};
    return g;
}

static cl_uint device_uint(cl_device_id device, cl_device_info what)
{
    cl_uint v = 0;
    if (dl_cl.clGetDeviceInfo(device, what, sizeof v, &v, NULL) != CL_SUCCESS)
        return 0;
    return v;
}

/* Bytes of one SIMD register, as the device's preferred vector widths
 * say: the widest of width x type size. */
static unsigned simd_bytes(cl_device_id device)
{
    static const struct {
        cl_device_info what;
        unsigned bytes;
    } types[] = {
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, 1},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, 2},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, 4},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, 8},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, 4},
        {CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, 8},
    };
    unsigned best = 0;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++) {
        unsigned b = device_uint(device, types[i].what) * types[i].bytes;
        best = b > best ? b : best;
    }
    return best;
}

/* The preferred width of the scalar type of load_bytes, 0 for others. */
static unsigned scalar_width(cl_device_id device, size_t load_bytes)
{
    switch (load_bytes) {
    case 1:
        return device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR);
    case 2:
        return device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT);
    case 4:
        return device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT);
    case 8:
        return device_uint(device, CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG);
    default:
        return 0;
    }
}

dl_status dl_coalesce_geometry_for_device(cl_device_id device,
                                          size_t load_bytes,
                                          dl_coalesce_geometry *out)
{
    DL_RETURN_ERROR_ON(!device || !out, DL_INVALID_ARGUMENT,
                       "coalescing: NULL device or geometry");
    dl_cl_init_default();
    cl_device_type type = 0;
    cl_int err =
        dl_cl.clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    DL_RETURN_ON_CL(err, "clGetDeviceInfo(CL_DEVICE_TYPE)");
    if (!(type & CL_DEVICE_TYPE_CPU)) {
        *out = dl_coalesce_geometry_gpu();
        return DL_SUCCESS;
    }
    *out = dl_coalesce_geometry_cpu(simd_bytes(device), load_bytes);
    unsigned w = scalar_width(device, load_bytes);
    if (w)
        out->simd_width = w;
    cl_uint line = device_uint(device, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE);
    if (line)
        out->segment_bytes = line;
    return DL_SUCCESS;
}
