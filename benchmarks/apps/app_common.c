/* app_common.c - option parsing, OpenCL setup, kernel lookup, timing,
 * generator and digest shared by the application programs. */
#define _GNU_SOURCE
#include "app_common.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef DL_APPS_KERNEL_DIR
#define DL_APPS_KERNEL_DIR "/usr/local/share/dlayout/apps"
#endif
/* The kernels' folder relative to the installed executable's (libexec/
 * dlayout -> share/dlayout/apps); "" if the install dirs are absolute. */
#ifndef DL_APPS_KERNEL_REL
#define DL_APPS_KERNEL_REL ""
#endif

/* ------------------------------------------------------------ options */

int app_parse_long(const char *prog, const char *opt, const char *text, long lo,
                   long hi, long *out)
{
    char *end = NULL;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end != '\0' || v < lo || v > hi) {
        fprintf(stderr, "%s: --%s wants an integer in %ld..%ld, not '%s'\n",
                prog, opt, lo, hi, text);
        return 0;
    }
    *out = v;
    return 1;
}

int app_parse_u64(const char *prog, const char *opt, const char *text,
                  uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    if (errno || end == text || *end != '\0' || text[0] == '-') {
        fprintf(stderr, "%s: --%s wants an unsigned integer, not '%s'\n", prog,
                opt, text);
        return 0;
    }
    *out = (uint64_t)v;
    return 1;
}

int app_parse_double(const char *prog, const char *opt, const char *text,
                     double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !(v >= lo && v <= hi)) {
        fprintf(stderr, "%s: --%s wants a number in [%g, %g], not '%s'\n", prog,
                opt, lo, hi, text);
        return 0;
    }
    *out = v;
    return 1;
}

void app_common_defaults(app_common_opts *o)
{
    o->kernel = NULL;
    o->output = NULL;
    o->platform = DEVICE_PICK_ALL_PLATFORMS;
    o->device = 0;
    o->local = 0;
    o->quiet = 0;
}

enum {
    OPT_KERNEL = APP_OPT_COMMON,
    OPT_OUTPUT,
    OPT_PLATFORM,
    OPT_DEVICE,
    OPT_LOCAL,
    OPT_QUIET,
    OPT_HELP,
    OPT_VERSION
};

static const struct option common_options[] = {
    {"kernel", required_argument, NULL, OPT_KERNEL},
    {"output", required_argument, NULL, OPT_OUTPUT},
    {"platform", required_argument, NULL, OPT_PLATFORM},
    {"device", required_argument, NULL, OPT_DEVICE},
    {"local", required_argument, NULL, OPT_LOCAL},
    {"quiet", no_argument, NULL, OPT_QUIET},
    {"help", no_argument, NULL, OPT_HELP},
    {"version", no_argument, NULL, OPT_VERSION},
};

#define NCOMMON (sizeof common_options / sizeof *common_options)

/* One of the common options; 1, or 0 after a message. */
static int common_option(const char *prog, int code, const char *name,
                         const char *v, app_common_opts *o)
{
    switch (code) {
    case OPT_KERNEL:
        o->kernel = v;
        return 1;
    case OPT_OUTPUT:
        o->output = v;
        return 1;
    case OPT_PLATFORM:
        return app_parse_long(prog, name, v, 0, 1023, &o->platform);
    case OPT_DEVICE:
        return app_parse_long(prog, name, v, 0, 1023, &o->device);
    case OPT_LOCAL:
        return app_parse_long(prog, name, v, 0, 4096, &o->local);
    default: /* OPT_QUIET */
        o->quiet = 1;
        return 1;
    }
}

/* The program's options followed by the common ones, zero-terminated. */
static struct option *all_options(const struct option *own, size_t *nown)
{
    for (*nown = 0; own[*nown].name; (*nown)++)
        ;
    struct option *all = calloc(*nown + NCOMMON + 1, sizeof *all);
    if (all) {
        memcpy(all, own, *nown * sizeof *all);
        memcpy(all + *nown, common_options, sizeof common_options);
    }
    return all;
}

/* getopt_long's complaint ('?' or ':') as one line. */
static void option_error(const char *prog, int c, char **argv)
{
    const char *arg = argv[optind - 1];
    if (c == ':')
        fprintf(stderr, "%s: option %s needs a value\n", prog, arg);
    else if (optopt >= APP_OPT_OWN)
        fprintf(stderr, "%s: option %s takes no value\n", prog, arg);
    else if (optopt > 0 && optopt < APP_OPT_OWN) /* no such short option */
        fprintf(stderr, "%s: unknown option '-%c'\n", prog, optopt);
    else
        fprintf(stderr, "%s: unknown option '%s'\n", prog, arg);
}

int app_parse_options(const char *prog, int argc, char **argv,
                      const struct option *own, app_option_fn fn, void *opts,
                      app_common_opts *common, void (*usage)(FILE *))
{
    size_t nown;
    struct option *all = all_options(own, &nown);
    if (!all) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return 0;
    }
    int ok = 1, c, at;
    opterr = 0; /* our messages, naming the program */
    while (ok && (c = getopt_long(argc, argv, ":", all, &at)) != -1) {
        if (c == '?' || c == ':') {
            option_error(prog, c, argv);
            ok = 0;
        } else if (c == OPT_HELP || c == OPT_VERSION) {
            if (c == OPT_HELP)
                usage(stdout);
            else
                printf("%s (dlayout) %s\n", prog, DL_VERSION);
            free(all);
            exit(APP_EXIT_OK);
        } else if (c >= APP_OPT_COMMON) {
            ok = common_option(prog, c, all[at].name, optarg, common);
        } else {
            ok = fn(opts, c, all[at].name, optarg);
        }
    }
    free(all);
    if (ok && optind < argc) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[optind]);
        ok = 0;
    }
    return ok;
}

void app_common_usage(FILE *out)
{
    fputs("common options:\n"
          "  --kernel PATH   kernel source to build (default: found next to\n"
          "                  the executable, in share/dlayout/apps relative\n"
          "                  to it, then in " DL_APPS_KERNEL_DIR ")\n"
          "  --output FILE   write the raw result bytes to FILE\n"
          "  --platform P    OpenCL platform number, in clGetPlatformIDs\n"
          "                  order; then --device counts its devices\n"
          "  --device N      OpenCL device number: of platform P, or without\n"
          "                  --platform counting all devices of all\n"
          "                  platforms in order (default 0)\n"
          "  --local N       work-group size (default: chosen by the\n"
          "                  program, 0 lets the implementation choose)\n"
          "  --quiet         no timing line on stderr\n"
          "  --help          this text\n"
          "  --version       print the version\n",
          out);
}

/* ------------------------------------------------------------- OpenCL */

const char *app_cl_errstr(cl_int err)
{
    switch (err) {
        /* A table of cases, one macro each, kept as written. */
        // clang-format off
#define E(x) case x: return #x;
    E(CL_SUCCESS) E(CL_DEVICE_NOT_FOUND) E(CL_DEVICE_NOT_AVAILABLE)
    E(CL_COMPILER_NOT_AVAILABLE) E(CL_MEM_OBJECT_ALLOCATION_FAILURE)
    E(CL_OUT_OF_RESOURCES) E(CL_OUT_OF_HOST_MEMORY)
    E(CL_PROFILING_INFO_NOT_AVAILABLE) E(CL_MEM_COPY_OVERLAP)
    E(CL_IMAGE_FORMAT_MISMATCH) E(CL_IMAGE_FORMAT_NOT_SUPPORTED)
    E(CL_BUILD_PROGRAM_FAILURE) E(CL_MAP_FAILURE)
    E(CL_MISALIGNED_SUB_BUFFER_OFFSET)
    E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    E(CL_COMPILE_PROGRAM_FAILURE) E(CL_LINKER_NOT_AVAILABLE)
    E(CL_LINK_PROGRAM_FAILURE) E(CL_DEVICE_PARTITION_FAILED)
    E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE) E(CL_INVALID_VALUE)
    E(CL_INVALID_DEVICE_TYPE) E(CL_INVALID_PLATFORM) E(CL_INVALID_DEVICE)
    E(CL_INVALID_CONTEXT) E(CL_INVALID_QUEUE_PROPERTIES)
    E(CL_INVALID_COMMAND_QUEUE) E(CL_INVALID_HOST_PTR)
    E(CL_INVALID_MEM_OBJECT) E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    E(CL_INVALID_IMAGE_SIZE) E(CL_INVALID_SAMPLER) E(CL_INVALID_BINARY)
    E(CL_INVALID_BUILD_OPTIONS) E(CL_INVALID_PROGRAM)
    E(CL_INVALID_PROGRAM_EXECUTABLE) E(CL_INVALID_KERNEL_NAME)
    E(CL_INVALID_KERNEL_DEFINITION) E(CL_INVALID_KERNEL)
    E(CL_INVALID_ARG_INDEX) E(CL_INVALID_ARG_VALUE) E(CL_INVALID_ARG_SIZE)
    E(CL_INVALID_KERNEL_ARGS) E(CL_INVALID_WORK_DIMENSION)
    E(CL_INVALID_WORK_GROUP_SIZE) E(CL_INVALID_WORK_ITEM_SIZE)
    E(CL_INVALID_GLOBAL_OFFSET) E(CL_INVALID_EVENT_WAIT_LIST)
    E(CL_INVALID_EVENT) E(CL_INVALID_OPERATION) E(CL_INVALID_GL_OBJECT)
    E(CL_INVALID_BUFFER_SIZE) E(CL_INVALID_MIP_LEVEL)
    E(CL_INVALID_GLOBAL_WORK_SIZE) E(CL_INVALID_PROPERTY)
    E(CL_INVALID_IMAGE_DESCRIPTOR) E(CL_INVALID_COMPILER_OPTIONS)
    E(CL_INVALID_LINKER_OPTIONS) E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef E
            // clang-format on
            case -1001 : return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL error";
    }
}

int app_cl_ok(const char *prog, cl_int err, const char *what)
{
    if (err == CL_SUCCESS)
        return 1;
    fprintf(stderr, "%s: %s failed: %s (%d)\n", prog, what, app_cl_errstr(err),
            (int)err);
    return 0;
}

int app_cl_open(app_cl *cl, const char *prog, const app_common_opts *o)
{
    memset(cl, 0, sizeof *cl);
    cl->prog = prog;
    char why[256];
    device_choice choice = {o->platform, o->device};
    if (!device_pick(choice, &cl->platform, &cl->device, why, sizeof why)) {
        fprintf(stderr, "%s: %s\n", prog, why);
        return 0;
    }
    clGetDeviceInfo(cl->device, CL_DEVICE_NAME, sizeof cl->device_name,
                    cl->device_name, NULL);
    cl->device_name[sizeof cl->device_name - 1] = '\0';

    cl_context_properties props[] = {CL_CONTEXT_PLATFORM,
                                     (cl_context_properties)cl->platform, 0};
    cl_int err;
    cl->context = clCreateContext(props, 1, &cl->device, NULL, NULL, &err);
    if (!app_cl_ok(prog, err, "clCreateContext"))
        return 0;
    cl->queue = clCreateCommandQueue(cl->context, cl->device,
                                     CL_QUEUE_PROFILING_ENABLE, &err);
    if (!app_cl_ok(prog, err, "clCreateCommandQueue")) {
        app_cl_close(cl);
        return 0;
    }
    return 1;
}

static char *read_text(const char *prog, const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "%s: cannot open kernel file %s: %s\n", prog, path,
                strerror(errno));
        return NULL;
    }
    char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (cap - n < 4096) {
            cap = cap ? 2 * cap : 16384;
            char *nb = realloc(buf, cap + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                fprintf(stderr, "%s: out of memory\n", prog);
                return NULL;
            }
            buf = nb;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        fprintf(stderr, "%s: error reading %s\n", prog, path);
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

int app_cl_build(app_cl *cl, const char *path, const char *options)
{
    size_t len = 0;
    char *src = read_text(cl->prog, path, &len);
    if (!src)
        return 0;
    cl_int err;
    const char *srcs[] = {src};
    cl->program = clCreateProgramWithSource(cl->context, 1, srcs, &len, &err);
    free(src);
    if (!app_cl_ok(cl->prog, err, "clCreateProgramWithSource"))
        return 0;
    err = clBuildProgram(cl->program, 1, &cl->device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "%s: building %s with \"%s\" failed: %s (%d)\n",
                cl->prog, path, options, app_cl_errstr(err), (int)err);
        size_t loglen = 0;
        if (clGetProgramBuildInfo(cl->program, cl->device, CL_PROGRAM_BUILD_LOG,
                                  0, NULL, &loglen) == CL_SUCCESS &&
            loglen > 1) {
            char *log = malloc(loglen + 1);
            if (log && clGetProgramBuildInfo(cl->program, cl->device,
                                             CL_PROGRAM_BUILD_LOG, loglen, log,
                                             NULL) == CL_SUCCESS) {
                log[loglen] = '\0';
                fprintf(stderr, "--- build log ---\n%s\n-----------------\n",
                        log);
            }
            free(log);
        }
        return 0;
    }
    return 1;
}

void app_cl_close(app_cl *cl)
{
    if (cl->program)
        clReleaseProgram(cl->program);
    if (cl->queue)
        clReleaseCommandQueue(cl->queue);
    if (cl->context)
        clReleaseContext(cl->context);
    cl->program = NULL;
    cl->queue = NULL;
    cl->context = NULL;
}

cl_mem app_cl_buffer(app_cl *cl, cl_mem_flags flags, size_t bytes,
                     const char *what)
{
    cl_int err;
    cl_mem m = clCreateBuffer(cl->context, flags, bytes, NULL, &err);
    if (err != CL_SUCCESS) {
        fprintf(stderr,
                "%s: clCreateBuffer (%s, %zu bytes) failed: %s "
                "(%d)\n",
                cl->prog, what, bytes, app_cl_errstr(err), (int)err);
        return NULL;
    }
    return m;
}

double app_cl_events_ms(app_cl *cl, cl_event *events, size_t n, double *min_ms)
{
    double ms = 0.0, lo = -1.0;
    int warned = 0;
    for (size_t i = 0; i < n; i++) {
        if (!events[i])
            continue;
        cl_ulong t0 = 0, t1 = 0;
        cl_int e1 = clGetEventProfilingInfo(
            events[i], CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
        cl_int e2 = clGetEventProfilingInfo(events[i], CL_PROFILING_COMMAND_END,
                                            sizeof t1, &t1, NULL);
        if ((e1 != CL_SUCCESS || e2 != CL_SUCCESS) && !warned) {
            app_cl_ok(cl->prog, e1 != CL_SUCCESS ? e1 : e2,
                      "clGetEventProfilingInfo");
            warned = 1;
        } else if (t1 >= t0) {
            const double span = (double)(t1 - t0) * 1e-6;
            ms += span;
            if (lo < 0.0 || span < lo)
                lo = span;
        }
        clReleaseEvent(events[i]);
        events[i] = NULL;
    }
    if (min_ms)
        *min_ms = lo < 0.0 ? 0.0 : lo;
    return ms;
}

size_t app_round_up(size_t n, size_t local)
{
    if (local == 0)
        return n;
    return (n + local - 1) / local * local;
}

/* --------------------------------------------------- kernel files */

static char *join(const char *dir, size_t dirlen, const char *name)
{
    size_t nl = strlen(name);
    char *p = malloc(dirlen + 1 + nl + 1);
    if (!p)
        return NULL;
    memcpy(p, dir, dirlen);
    p[dirlen] = '/';
    memcpy(p + dirlen + 1, name, nl + 1);
    return p;
}

char *app_find_kernel(const char *prog, const char *override, const char *name)
{
    if (override) {
        char *p = strdup(override);
        if (!p)
            fprintf(stderr, "%s: out of memory\n", prog);
        return p;
    }
    /* Next to the executable (the build tree), relative to it as
     * installed, then in the prefix it was built for. */
    enum { TRIES = 3 };
    char exe[PATH_MAX];
    char *tried[TRIES] = {NULL, NULL, NULL};
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    char *slash = NULL;
    if (n > 0) {
        exe[n] = '\0';
        slash = strrchr(exe, '/');
    }
    if (slash) {
        tried[0] = join(exe, (size_t)(slash - exe), name);
        if (*DL_APPS_KERNEL_REL) {
            char dir[PATH_MAX];
            int len = snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - exe),
                               exe, DL_APPS_KERNEL_REL);
            if (len > 0 && (size_t)len < sizeof dir)
                tried[1] = join(dir, (size_t)len, name);
        }
    }
    tried[2] = join(DL_APPS_KERNEL_DIR, strlen(DL_APPS_KERNEL_DIR), name);
    char *hit = NULL;
    for (int i = 0; i < TRIES && !hit; i++)
        if (tried[i] && access(tried[i], R_OK) == 0) {
            hit = tried[i];
            tried[i] = NULL;
        }
    if (!hit) {
        fprintf(stderr, "%s: kernel file %s not found; looked in:\n", prog,
                name);
        for (int i = 0; i < TRIES; i++)
            if (tried[i])
                fprintf(stderr, "  %s\n", tried[i]);
        fprintf(stderr, "  (give its path with --kernel PATH)\n");
    }
    for (int i = 0; i < TRIES; i++)
        free(tried[i]);
    return hit;
}

/* ------------------------------------------------------------- misc */

double app_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void app_rng_seed(app_rng *r, uint64_t seed)
{
    r->state = seed;
}

uint64_t app_rng_next(app_rng *r)
{
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

float app_rng_float(app_rng *r)
{
    return (float)(app_rng_next(r) >> 40) * (1.0f / 16777216.0f);
}

float app_rng_range(app_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * app_rng_float(r);
}

uint32_t app_rng_below(app_rng *r, uint32_t n)
{
    /* multiply-shift; the tiny bias is irrelevant for test data */
    return (uint32_t)(((app_rng_next(r) >> 32) * (uint64_t)n) >> 32);
}

uint64_t app_fnv1a64(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

int app_write_file(const char *prog, const char *path, const void *data,
                   size_t bytes)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "%s: cannot create %s: %s\n", prog, path,
                strerror(errno));
        return 0;
    }
    size_t put = fwrite(data, 1, bytes, f);
    int bad = (put != bytes);
    if (fclose(f) != 0)
        bad = 1;
    if (bad) {
        fprintf(stderr, "%s: error writing %s\n", prog, path);
        return 0;
    }
    return 1;
}

void *app_alloc(const char *prog, size_t bytes, const char *what)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p)
        fprintf(stderr, "%s: out of memory (%s, %zu bytes)\n", prog, what,
                bytes);
    return p;
}
