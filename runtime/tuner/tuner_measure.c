/* tuner_measure.c - measures a device for the calibration (tuner_calib.h)
 * and keeps the result in the per-user cache.
 *
 * Every command is timed on the host, from its enqueue to the end of a
 * wait for its event, on the caller's queue; each figure is the fastest
 * of a few runs after a warm-up (the first run of a POCL kernel compiles
 * it).  Budget:
 * about 2 s on the 2-core machine this was tuned on; later runs read the
 * cache file. */
#include "tuner_calib.h"
#include "clock.h"

#include "clapi.h"
#include "error.h"
#include "internal.h"
#include "log.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Must match CALIB_SIZE in marshal_kernels/calib_access.cl. */
static const uint32_t calib_words[] = {4, 19};
static const struct {
    const char *suffix;
    uint32_t tile;
} calib_layouts[] = {{"aos", 1}, {"da", DL_CALIB_TILE_DA}, {"t8", 8}};
/* Conversions timed through the public API: AoS -> tile at S words. */
static const dl_calib_convert calib_conversions[] = {
    {DL_ALGO_AUTO, 19, DL_CALIB_TILE_DA, 0, 4},
    {DL_ALGO_AUTO, 8, 8, 0, 4},
    /* A record of mixed fields (particle_fields). */
    {DL_ALGO_AUTO, 6, 8, 0, 1},
};
/* Fields of 4, 4, 8, 2 and 1 bytes and 5 bytes of padding: a C struct
 * with a char and a short converts 25-75x slower than one of floats. */
static const dl_field particle_fields[] = {
    {0, 4}, {4, 4}, {8, 8}, {16, 2}, {18, 1}};

#define NWORDS      (sizeof calib_words / sizeof *calib_words)
#define NLAYOUTS    (sizeof calib_layouts / sizeof *calib_layouts)
#define NCONV       (sizeof calib_conversions / sizeof *calib_conversions)
#define CALIB_BYTES ((size_t)8 << 20) /* per buffer */
#define CALIB_RUNS  3
/* The record size at which DA is measured a second time, aliased. */
#define CALIB_TRAP_WORDS 19u

typedef struct calib_ctx {
    uint64_t t0; /* the start, for the debug log */
    cl_context context;
    cl_device_id device;
    cl_command_queue queue;
    cl_mem buf;
    dl_calib_progress_fn progress;
    void *user;
    unsigned done, total;
    double spread; /* the largest of the access measurements' */
} calib_ctx;

static void step(calib_ctx *x, const char *what)
{
    x->done++;
    DL_LOG_DEBUG("calibration: %s done at %.0f ms", what,
                 (double)(dl_now_ns() - x->t0) / 1e6);
    if (x->progress)
        x->progress(what, x->done, x->total, x->user);
}

/* Waits for the command and returns the host time since t0.  Host
 * timing works on any queue (profiling needs a queue made for it); the
 * enqueue latency it adds is small against the milliseconds measured. */
static dl_status wait_ns(cl_event ev, uint64_t t0, double *ns)
{
    cl_int err = dl_cl.clWaitForEvents(1, &ev);
    uint64_t t1 = dl_now_ns();
    dl_cl.clReleaseEvent(ev);
    DL_RETURN_ON_CL(err, "waiting for a calibration command");
    *ns = t1 > t0 ? (double)(t1 - t0) : 1.0;
    return DL_SUCCESS;
}

static dl_status measure_copy(calib_ctx *x, dl_calibration *out)
{
    cl_int err;
    cl_mem dst = dl_cl.clCreateBuffer(x->context, CL_MEM_READ_WRITE,
                                      CALIB_BYTES, NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer");
    double best = 0;
    dl_status st = DL_SUCCESS;
    for (int r = 0; r <= CALIB_RUNS && st == DL_SUCCESS; r++) {
        cl_event ev = NULL;
        uint64_t t0 = dl_now_ns();
        err = dl_cl.clEnqueueCopyBuffer(x->queue, x->buf, dst, 0, 0,
                                        CALIB_BYTES, 0, NULL, &ev);
        if (err != CL_SUCCESS) {
            st = dl_fail(DL_OPENCL_ERROR, "clEnqueueCopyBuffer: %d", err);
            break;
        }
        double ns = 0;
        st = wait_ns(ev, t0, &ns);
        if (st == DL_SUCCESS && r > 0 && (best == 0 || ns < best))
            best = ns;
    }
    dl_cl.clReleaseMemObject(dst);
    if (st == DL_SUCCESS)
        out->copy_bytes_per_ns = (double)CALIB_BYTES / best;
    step(x, "copy bandwidth");
    return st;
}

/* The fastest of CALIB_RUNS runs after a warm-up, and their spread. */
static dl_status time_kernel(calib_ctx *x, cl_kernel k, size_t n, double *best,
                             double *spread)
{
    cl_uint un = (cl_uint)n;
    cl_float a = 0.5f;
    cl_int err = dl_cl.clSetKernelArg(k, 0, sizeof x->buf, &x->buf);
    if (err == CL_SUCCESS)
        err = dl_cl.clSetKernelArg(k, 1, sizeof un, &un);
    if (err == CL_SUCCESS)
        err = dl_cl.clSetKernelArg(k, 2, sizeof a, &a);
    DL_RETURN_ON_CL(err, "clSetKernelArg (calibration)");
    *best = 0;
    double runs[CALIB_RUNS];
    for (int r = 0; r <= CALIB_RUNS; r++) {
        cl_event ev = NULL;
        uint64_t t0 = dl_now_ns();
        err = dl_cl.clEnqueueNDRangeKernel(x->queue, k, 1, NULL, &n, NULL, 0,
                                           NULL, &ev);
        DL_RETURN_ON_CL(err, "clEnqueueNDRangeKernel (calibration)");
        double ns = 0;
        DL_RETURN_IF_FAIL(wait_ns(ev, t0, &ns));
        if (r > 0)
            runs[r - 1] = ns;
        if (r > 0 && (*best == 0 || ns < *best))
            *best = ns;
    }
    *spread = dl_calib_spread(runs, CALIB_RUNS);
    return DL_SUCCESS;
}

/* The record count of an access measurement at `words` per record: as
 * many as fill the buffer, less a cache line's worth, and a multiple of
 * 1024 records (4 KiB per field) plus 16 (64 bytes) so that DA's field
 * arrays start a cache line apart modulo 4 KiB (tuner_alias.c), except
 * for the trap's measurement, which wants them a multiple of 4 KiB apart.
 * A multiple of 16, so of the ASTA tile (the kernels have no guard). */
static size_t access_count(uint32_t words, uint32_t tile)
{
    size_t n = (CALIB_BYTES / (4u * words) - 16u) / 1024u * 1024u;
    return tile == DL_CALIB_TILE_DA_4K ? n : n + 16u;
}

static dl_status measure_one_access(calib_ctx *x, cl_program prog,
                                    uint32_t words, const char *suffix,
                                    uint32_t tile, dl_calibration *out)
{
    char name[64];
    snprintf(name, sizeof name, "calib_%u_%s", (unsigned)words, suffix);
    cl_int err;
    cl_kernel k = dl_cl.clCreateKernel(prog, name, &err);
    if (err != CL_SUCCESS)
        return dl_fail(DL_BUILD_ERROR, "kernel %s: error %d", name, err);
    size_t n = access_count(words, tile);
    double ns = 0, spread = 0;
    dl_status st = time_kernel(x, k, n, &ns, &spread);
    dl_cl.clReleaseKernel(k);
    /* The runs after the warm-up should agree; when they do not, the
     * machine is busy and the calibration says so (tuner_keep.c).  Not
     * the trap's: aliasing itself makes its runs differ (15-25% here). */
    if (tile != DL_CALIB_TILE_DA_4K && spread > x->spread)
        x->spread = spread;
    if (st == DL_SUCCESS && out->naccess < DL_CALIB_MAX_ACCESS)
        out->access[out->naccess++] =
            (dl_calib_access){words, tile, ns / (double)n};
    return st;
}

/* The same program built a second time: POCL serves it from its cache,
 * which still costs tens of milliseconds (50-120 here on a loaded
 * machine), what every marshal program a conversion needs costs at
 * least. */
static dl_status measure_cached_build(calib_ctx *x, const char *src,
                                      dl_calibration *out)
{
    cl_int err;
    uint64_t t0 = dl_now_ns();
    cl_program again =
        dl_cl.clCreateProgramWithSource(x->context, 1, &src, NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateProgramWithSource (calibration)");
    err = dl_cl.clBuildProgram(again, 1, &x->device, "", NULL, NULL);
    uint64_t t1 = dl_now_ns();
    dl_cl.clReleaseProgram(again);
    DL_RETURN_ON_CL(err, "clBuildProgram (calibration)");
    out->build_ms = t1 > t0 ? (double)(t1 - t0) / 1e6 : 0.001;
    return DL_SUCCESS;
}

static dl_status measure_access(calib_ctx *x, dl_calibration *out)
{
    dl_status st_build;
    const char *src = dl_kernel_source("calib_access.cl");
    DL_RETURN_ERROR_ON(!src, DL_BUILD_ERROR, "calib_access.cl is missing");
    cl_int err;
    cl_program prog =
        dl_cl.clCreateProgramWithSource(x->context, 1, &src, NULL, &err);
    DL_RETURN_ON_CL(err, "clCreateProgramWithSource (calibration)");
    err = dl_cl.clBuildProgram(prog, 1, &x->device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        dl_cl.clReleaseProgram(prog);
        return dl_fail(DL_BUILD_ERROR, "calib_access.cl: build error %d", err);
    }
    step(x, "access kernels built");
    st_build = measure_cached_build(x, src, out);
    dl_status st = st_build;
    for (size_t w = 0; w < NWORDS && st == DL_SUCCESS; w++) {
        uint32_t words = calib_words[w];
        for (size_t l = 0; l < NLAYOUTS && st == DL_SUCCESS; l++)
            st = measure_one_access(x, prog, words, calib_layouts[l].suffix,
                                    calib_layouts[l].tile, out);
        /* DA once more with its field arrays a multiple of 4 KiB apart:
         * what the trap costs on this device (tuner_alias.c). */
        if (st == DL_SUCCESS && words == CALIB_TRAP_WORDS)
            st = measure_one_access(x, prog, words, "da", DL_CALIB_TILE_DA_4K,
                                    out);
        step(x, "access costs");
    }
    dl_cl.clReleaseProgram(prog);
    return st;
}

/* A conversion may be several commands; its event is the last one's. */
static dl_status time_conversion(calib_ctx *x, dl_engine *engine,
                                 const dl_layout *from, const dl_layout *to,
                                 double *ns)
{
    cl_event ev = NULL;
    uint64_t t0 = dl_now_ns();
    DL_RETURN_IF_FAIL(dl_enqueue_convert(engine, x->queue, x->buf, from, to,
                                         DL_ALGO_AUTO, 0, NULL, &ev));
    return wait_ns(ev, t0, ns);
}

static dl_status measure_one_conversion(calib_ctx *x, dl_engine *engine,
                                        const dl_calib_convert *c,
                                        dl_calibration *out)
{
    dl_record *rec = NULL;
    DL_RETURN_IF_FAIL(
        c->min_field == 4
            ? dl_record_create_uniform(c->words, 4, &rec)
            : dl_record_create(particle_fields,
                               sizeof particle_fields / sizeof *particle_fields,
                               4u * c->words, &rec));
    size_t count = CALIB_BYTES / (4u * c->words) / 64u * 64u;
    dl_layout aos = dl_layout_aos(rec, count);
    dl_layout to = c->tile == DL_CALIB_TILE_DA
                       ? dl_layout_da(rec, count)
                       : dl_layout_asta(rec, count, c->tile);
    double best = 0, ns = 0;
    dl_status st = DL_SUCCESS;
    /* Run 0 compiles the kernels; runs 1..2 are timed.  Only this
     * direction: the buffer's bytes are AoS again to the next run as
     * far as the timing goes, and the way back costs about the same
     * (tuner_static.c) while compiling it would add its kernels to the
     * first calibration. */
    for (int r = 0; r < 3 && st == DL_SUCCESS; r++) {
        st = time_conversion(x, engine, &aos, &to, &ns);
        if (st == DL_SUCCESS && r > 0 && (best == 0 || ns < best))
            best = ns;
    }
    dl_record_release(rec);
    if (st == DL_SUCCESS && out->nconvert < DL_CALIB_MAX_CONVERT) {
        dl_calib_convert m = *c;
        m.bytes_per_ns = (double)(count * 4u * c->words) / best;
        out->convert[out->nconvert++] = m;
    }
    step(x, "conversion throughput");
    return st;
}

static dl_status measure_conversions(calib_ctx *x, dl_calibration *out)
{
    dl_engine *engine = NULL;
    DL_RETURN_IF_FAIL(dl_engine_create(x->context, x->device, &engine));
    dl_status st = DL_SUCCESS;
    for (size_t i = 0; i < NCONV && st == DL_SUCCESS; i++)
        st = measure_one_conversion(x, engine, &calib_conversions[i], out);
    dl_engine_release(engine);
    return st;
}

/* The driver's platform name needs clGetPlatformInfo, which not every
 * dispatch table of libdlayout fills: then the platform reads "unknown". */
dl_status dl_calib_identity(cl_device_id device, dl_calibration *out)
{
    dl_cl_init_default();
    cl_platform_id platform = NULL;
    char pname[DL_CALIB_TEXT_MAX] = "unknown", dname[DL_CALIB_TEXT_MAX] = "",
         driver[DL_CALIB_TEXT_MAX] = "";
    cl_int err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_PLATFORM,
                                       sizeof platform, &platform, NULL);
    if (err == CL_SUCCESS && dl_cl.clGetPlatformInfo)
        err = dl_cl.clGetPlatformInfo(platform, CL_PLATFORM_NAME,
                                      sizeof pname - 1, pname, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dname - 1,
                                    dname, NULL);
    if (err == CL_SUCCESS)
        err = dl_cl.clGetDeviceInfo(device, CL_DRIVER_VERSION,
                                    sizeof driver - 1, driver, NULL);
    DL_RETURN_ON_CL(err, "querying the device's identity");
    dl_calib_set_identity(out, pname, dname, driver);
    return DL_SUCCESS;
}

static dl_status measure_all(calib_ctx *x, dl_calibration *out)
{
    DL_RETURN_IF_FAIL(measure_copy(x, out));
    DL_RETURN_IF_FAIL(measure_access(x, out));
    return measure_conversions(x, out);
}

dl_status dl_calib_measure(cl_context context, cl_device_id device,
                           cl_command_queue queue,
                           dl_calib_progress_fn progress, void *user,
                           dl_calibration *out)
{
    dl_cl_init_default();
    uint64_t t0 = dl_now_ns();
    memset(out, 0, sizeof *out);
    DL_RETURN_IF_FAIL(dl_calib_identity(device, out));
    calib_ctx x = {.t0 = t0,
                   .context = context,
                   .device = device,
                   .queue = queue,
                   .progress = progress,
                   .user = user,
                   .total = 2 + NWORDS + NCONV};
    cl_int err;
    x.buf = dl_cl.clCreateBuffer(context, CL_MEM_READ_WRITE, CALIB_BYTES, NULL,
                                 &err);
    DL_RETURN_ON_CL(err, "clCreateBuffer (calibration)");
    /* Defined contents: the kernels compute on them. */
    cl_float zero = 0.0f;
    cl_event filled = NULL;
    err = dl_cl.clEnqueueFillBuffer(queue, x.buf, &zero, sizeof zero, 0,
                                    CALIB_BYTES, 0, NULL, &filled);
    if (err == CL_SUCCESS) {
        err = dl_cl.clWaitForEvents(1, &filled);
        dl_cl.clReleaseEvent(filled);
    }
    dl_status st = err == CL_SUCCESS
                       ? measure_all(&x, out)
                       : dl_fail(DL_OPENCL_ERROR,
                                 "filling the calibration buffer: %d", err);
    dl_cl.clReleaseMemObject(x.buf);
    out->spread = x.spread;
    out->measure_ms = (double)(dl_now_ns() - t0) / 1e6;
    return st;
}

/* Whether the cached calibration at `path` can be used as it is (1, in
 * *out).  A noisy one due to be measured again is copied to *noisy, and
 * *has_noisy set. */
static int read_cache(const char *path, const dl_calibration *want,
                      dl_calibration *out, dl_calibration *noisy,
                      int *has_noisy)
{
    dl_status ld = dl_calib_load(path, want, out);
    if (ld == DL_SUCCESS && !dl_calib_remeasure(out)) {
        DL_LOG_INFO("calibration of '%s' read from %s", want->device, path);
        return 1;
    }
    if (ld == DL_SUCCESS) {
        *noisy = *out;
        *has_noisy = 1;
    } else if (ld != DL_UNSUPPORTED) { /* corrupt or foreign: say so once */
        DL_LOG_WARN("ignoring the calibration cache: %s; measuring again",
                    dl_last_error());
    }
    return 0;
}

dl_status dl_calib_get(cl_context context, cl_device_id device,
                       cl_command_queue queue, int force, dl_calibration *out)
{
    dl_cl_init_default();
    dl_calibration *want = calloc(2, sizeof *want);
    DL_RETURN_ERROR_ON(!want, DL_OUT_OF_MEMORY, "out of memory");
    dl_calibration *noisy = want + 1; /* the cached one, if noisy */
    int has_noisy = 0;
    dl_status st = dl_calib_identity(device, want);
    char path[4096];
    dl_status have_path =
        st == DL_SUCCESS ? dl_calib_path(want->key, path, sizeof path) : st;
    if (st == DL_SUCCESS && !force && have_path == DL_SUCCESS &&
        read_cache(path, want, out, noisy, &has_noisy)) {
        free(want);
        return DL_SUCCESS;
    }
    if (st == DL_SUCCESS)
        dl_calib_announce(want->device, have_path == DL_SUCCESS ? path : NULL,
                          has_noisy);
    if (st == DL_SUCCESS)
        st = dl_calib_measure(context, device, queue, NULL, NULL, out);
    if (st == DL_SUCCESS) {
        DL_LOG_INFO("calibrated '%s' in %.0f ms (spread %.0f%%)", out->device,
                    out->measure_ms, out->spread * 100);
        dl_calib_settle(has_noisy ? noisy : NULL, out);
        (void)dl_calib_keep(have_path == DL_SUCCESS ? path : NULL, out);
    }
    free(want);
    return st;
}

dl_status dl_calib_cached(cl_device_id device, dl_calibration *out)
{
    dl_cl_init_default();
    dl_calibration *want = calloc(1, sizeof *want);
    DL_RETURN_ERROR_ON(!want, DL_OUT_OF_MEMORY, "out of memory");
    char path[4096];
    dl_status st = dl_calib_identity(device, want);
    if (st == DL_SUCCESS)
        st = dl_calib_path(want->key, path, sizeof path);
    if (st == DL_SUCCESS)
        st = dl_calib_load(path, want, out);
    free(want);
    return st;
}

/* Calibrations of this process, one per device; never freed. */
typedef struct device_calib {
    struct device_calib *next;
    cl_device_id device;
    dl_calibration *calib; /* NULL: failed, not tried again */
} device_calib;

static pthread_mutex_t device_calibs_lock = PTHREAD_MUTEX_INITIALIZER;
static device_calib *device_calibs;

const dl_calibration *dl_calib_for_device(cl_context context,
                                          cl_device_id device,
                                          cl_command_queue queue)
{
    /* Held while measuring, so a device is calibrated once; no OpenCL
     * callback takes this lock. */
    pthread_mutex_lock(&device_calibs_lock);
    device_calib *d = device_calibs;
    while (d && d->device != device)
        d = d->next;
    if (!d && (d = calloc(1, sizeof *d)) != NULL) {
        d->device = device;
        d->calib = calloc(1, sizeof *d->calib);
        if (d->calib &&
            dl_calib_get(context, device, queue, 0, d->calib) != DL_SUCCESS) {
            DL_LOG_INFO("no calibration, the tuner measures only: %s",
                        dl_last_error());
            free(d->calib);
            d->calib = NULL;
        }
        d->next = device_calibs;
        device_calibs = d;
    }
    const dl_calibration *c = d ? d->calib : NULL;
    pthread_mutex_unlock(&device_calibs_lock);
    return c;
}
