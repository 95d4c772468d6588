/* bench_coalesce.c - `dl-bench coalesce FILE`: the memory transactions of
 * A[P[e] + c] for an index array P on disk, before and after the
 * duplication layout, at the W and S of a GPU-class and a CPU-class device
 * (runtime/irregular/, docs/irregular.md); with --remap also after
 * graph-partitioned remapping (bench_remap.c). */
#include "bench.h"
#include "bench_index.h"
#include "bench_remap.h"

#include "dlayout_irregular.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void bench_coalesce_usage(FILE *out)
{
    fputs("usage: dl-bench coalesce FILE [options]\n\n"
          "Counts the memory transactions of A[P[e] + c] for the index array\n"
          "P in FILE: per warp of W work-items and step, the distinct S-byte\n"
          "segments touched, before and after the duplication layout\n"
          "A'[e] = A[P[e] + c].  Work-item t at step j reads entry\n"
          "e = base + t*t_stride + j*j_stride; entries past P are inactive.\n\n"
          "  --index-bytes 4|8    raw little-endian signed entries (4)\n"
          "  --text               FILE has one integer per line\n"
          "  --elem BYTES         element size of A (4)\n"
          "  --field OFF:BYTES    the part of the element read (all of it)\n"
          "  --offset C           c (0)\n"
          "  --threads N          work-items (enough to cover P at step 0)\n"
          "  --steps N --t-stride N --j-stride N --base N   (1, 1, 0, 0)\n"
          "  --device-class gpu|cpu  one preset (both): gpu W=32 S=128;\n"
          "                       cpu W = SIMD bytes / load bytes, S=64\n"
          "  --simd-bytes B       the CPU preset's SIMD register (32)\n"
          "  --simd-width W --segment-bytes S   override the preset's\n"
          "  --platform P --device N   the geometry of this OpenCL device\n"
          "  --remap clique|hypergraph  also the transactions after\n"
          "                       graph-partitioned remapping with METIS\n"
          "  --sample F           share of warp-accesses it profiles (1)\n"
          "  --min-pattern N      leave out patterns of fewer elements (0)\n"
          "  --a-count N          elements of A (one past the largest read)\n"
          "  --version\n",
          out);
}

enum { CLASS_GPU = 1, CLASS_CPU = 2 };

typedef struct coalesce_opts {
    const char *path;
    unsigned index_bytes;
    int text, classes, threads_given, device_given;
    dl_coalesce_ref ref;
    dl_coalesce_range range;
    size_t simd_width, segment_bytes, simd_bytes; /* 0: the preset's */
    device_choice device;
    bench_remap_opts remap;
    size_t min_pattern;
} coalesce_opts;

enum {
    OPT_INDEX_BYTES = 0x100,
    OPT_TEXT,
    OPT_ELEM,
    OPT_FIELD,
    OPT_OFFSET,
    OPT_THREADS,
    OPT_STEPS,
    OPT_T_STRIDE,
    OPT_J_STRIDE,
    OPT_BASE,
    OPT_CLASS,
    OPT_SIMD_BYTES,
    OPT_SIMD_WIDTH,
    OPT_SEGMENT,
    OPT_REMAP,
    OPT_SAMPLE,
    OPT_MIN_PATTERN,
    OPT_A_COUNT
};

static const struct option options[] = {
    {"index-bytes", required_argument, NULL, OPT_INDEX_BYTES},
    {"text", no_argument, NULL, OPT_TEXT},
    {"elem", required_argument, NULL, OPT_ELEM},
    {"field", required_argument, NULL, OPT_FIELD},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"threads", required_argument, NULL, OPT_THREADS},
    {"steps", required_argument, NULL, OPT_STEPS},
    {"t-stride", required_argument, NULL, OPT_T_STRIDE},
    {"j-stride", required_argument, NULL, OPT_J_STRIDE},
    {"base", required_argument, NULL, OPT_BASE},
    {"device-class", required_argument, NULL, OPT_CLASS},
    {"simd-bytes", required_argument, NULL, OPT_SIMD_BYTES},
    {"simd-width", required_argument, NULL, OPT_SIMD_WIDTH},
    {"segment-bytes", required_argument, NULL, OPT_SEGMENT},
    {"remap", required_argument, NULL, OPT_REMAP},
    {"sample", required_argument, NULL, OPT_SAMPLE},
    {"min-pattern", required_argument, NULL, OPT_MIN_PATTERN},
    {"a-count", required_argument, NULL, OPT_A_COUNT},
    {"help", no_argument, NULL, 'h'},
    BENCH_COMMON_OPTIONS,
    {NULL, 0, NULL, 0},
};

/* The size_t each plain numeric option sets, NULL for the others. */
static size_t *size_target(coalesce_opts *o, int code)
{
    switch (code) {
    case OPT_ELEM:
        return &o->ref.elem_bytes;
    case OPT_THREADS:
        o->threads_given = 1;
        return &o->range.threads;
    case OPT_STEPS:
        return &o->range.steps;
    case OPT_T_STRIDE:
        return &o->range.t_stride;
    case OPT_J_STRIDE:
        return &o->range.j_stride;
    case OPT_BASE:
        return &o->range.base;
    case OPT_SIMD_BYTES:
        return &o->simd_bytes;
    case OPT_SIMD_WIDTH:
        return &o->simd_width;
    case OPT_SEGMENT:
        return &o->segment_bytes;
    case OPT_MIN_PATTERN:
        return &o->min_pattern;
    case OPT_A_COUNT:
        return &o->remap.a_count;
    default:
        return NULL;
    }
}

static int parse_offset(const char *text, long long *out)
{
    char *end;
    errno = 0;
    *out = strtoll(text, &end, 10);
    if (errno || end == text || *end) {
        fprintf(stderr,
                "dl-bench coalesce: --offset expects an integer, "
                "got '%s'\n",
                text);
        return 0;
    }
    return 1;
}

static int parse_field(const char *text, dl_coalesce_ref *ref)
{
    const char *colon = strchr(text, ':');
    char off[32];
    if (!colon || (size_t)(colon - text) >= sizeof off) {
        fprintf(stderr,
                "dl-bench coalesce: --field expects OFF:BYTES, "
                "got '%s'\n",
                text);
        return 0;
    }
    memcpy(off, text, (size_t)(colon - text));
    off[colon - text] = '\0';
    return bench_parse_size("--field", off, &ref->field_offset) &&
           bench_parse_size("--field", colon + 1, &ref->field_bytes);
}

/* The options that are not plain sizes: 1 to go on, 0 on a bad value. */
static int parse_other(coalesce_opts *o, int code, const char *value)
{
    switch (code) {
    case OPT_INDEX_BYTES:
        o->index_bytes = strcmp(value, "4") == 0   ? 4
                         : strcmp(value, "8") == 0 ? 8
                                                   : 0;
        if (!o->index_bytes)
            fprintf(stderr, "dl-bench coalesce: --index-bytes is 4 or 8\n");
        return o->index_bytes != 0;
    case OPT_TEXT:
        o->text = 1;
        return 1;
    case OPT_FIELD:
        return parse_field(value, &o->ref);
    case OPT_REMAP:
        return bench_remap_form(value, &o->remap);
    case OPT_SAMPLE:
        return bench_remap_sample(value, &o->remap);
    case OPT_OFFSET:
        return parse_offset(value, &o->ref.offset);
    case OPT_CLASS:
        o->classes = strcmp(value, "gpu") == 0   ? CLASS_GPU
                     : strcmp(value, "cpu") == 0 ? CLASS_CPU
                                                 : 0;
        if (!o->classes)
            fprintf(stderr, "dl-bench coalesce: --device-class is gpu or "
                            "cpu\n");
        return o->classes != 0;
    case BENCH_OPT_PLATFORM:
    case BENCH_OPT_DEVICE:
        o->device_given = 1;
        return bench_device_option(code, value, &o->device);
    default:
        return 0;
    }
}

/* One option: -1 to go on, else an exit code. */
static int parse_one(coalesce_opts *o, int code, char **argv)
{
    size_t *target = size_target(o, code);
    if (target)
        return bench_parse_size(argv[optind - 1], optarg, target)
                   ? -1
                   : BENCH_EXIT_USAGE;
    if (code == 'h' || code == BENCH_OPT_VERSION) {
        if (code == 'h')
            bench_coalesce_usage(stdout);
        else
            bench_print_version();
        return BENCH_EXIT_OK;
    }
    if (code != '?' && code != ':')
        return parse_other(o, code, optarg) ? -1 : BENCH_EXIT_USAGE;
    bench_option_error("coalesce", code, argv);
    fputc('\n', stderr);
    bench_coalesce_usage(stderr);
    return BENCH_EXIT_USAGE;
}

/* -1 to go on, else an exit code.  argv[0] is the subcommand's name. */
static int parse(int argc, char **argv, coalesce_opts *o)
{
    opterr = 0;
    for (int code;
         (code = getopt_long(argc, argv, ":h", options, NULL)) != -1;) {
        int rc = parse_one(o, code, argv);
        if (rc >= 0)
            return rc;
    }
    if (optind + 1 != argc) {
        fprintf(stderr,
                optind < argc ? "dl-bench coalesce: one FILE, not "
                                "'%s'\n"
                              : "dl-bench coalesce: no FILE%s\n",
                optind < argc ? argv[optind + 1] : "");
        return BENCH_EXIT_USAGE;
    }
    o->path = argv[optind];
    return -1;
}

/* Enough work-items to cover P at step 0. */
static size_t default_threads(const coalesce_opts *o, size_t count)
{
    const dl_coalesce_range *r = &o->range;
    if (r->t_stride == 0)
        return count > r->base;
    return count > r->base ? (count - r->base - 1) / r->t_stride + 1 : 0;
}

static dl_coalesce_geometry with_overrides(const coalesce_opts *o,
                                           dl_coalesce_geometry g)
{
    if (o->simd_width)
        g.simd_width = (unsigned)o->simd_width;
    if (o->segment_bytes)
        g.segment_bytes = (unsigned)o->segment_bytes;
    return g;
}

static size_t load_bytes(const dl_coalesce_ref *ref)
{
    return ref->field_bytes ? ref->field_bytes : ref->elem_bytes;
}

/* "LABEL: W=.. S=..: x -> y transactions per warp-access (..% fewer);
 * N warp-accesses, B -> A transactions" */
static int report(const char *label, dl_coalesce_geometry g,
                  const coalesce_opts *o, const bench_index *p)
{
    dl_coalesce_counts c;
    if (dl_coalesce_count(&g, &o->ref, &o->range, p->data, p->count, p->bytes,
                          &c) != DL_SUCCESS) {
        fprintf(stderr, "dl-bench coalesce: %s\n", dl_last_error());
        return 0;
    }
    char line[256];
    dl_coalesce_format(&g, &c, line, sizeof line);
    printf("%s: %s; %llu warp-accesses, %llu -> %llu transactions\n", label,
           line, (unsigned long long)c.accesses, (unsigned long long)c.before,
           (unsigned long long)c.after);
    return !o->remap.on ||
           bench_remap_report(label, g, &o->ref, &o->range, p, &o->remap);
}

/* The line of the device --platform/--device name. */
static int report_device(const coalesce_opts *o, const bench_index *p)
{
    cl_platform_id platform;
    cl_device_id device;
    char why[512], name[256] = "", label[300];
    dl_coalesce_geometry g;
    if (!device_pick(o->device, &platform, &device, why, sizeof why)) {
        fprintf(stderr, "dl-bench coalesce: %s\n", why);
        return 0;
    }
    if (dl_coalesce_geometry_for_device(device, load_bytes(&o->ref), &g) !=
        DL_SUCCESS) {
        fprintf(stderr, "dl-bench coalesce: %s\n", dl_last_error());
        return 0;
    }
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    snprintf(label, sizeof label, "device '%s'", name);
    return report(label, with_overrides(o, g), o, p);
}

static int report_all(const coalesce_opts *o, const bench_index *p)
{
    if (o->device_given)
        return report_device(o, p);
    if ((o->classes & CLASS_GPU) &&
        !report("gpu", with_overrides(o, dl_coalesce_geometry_gpu()), o, p))
        return 0;
    dl_coalesce_geometry cpu =
        dl_coalesce_geometry_cpu((unsigned)o->simd_bytes, load_bytes(&o->ref));
    return !(o->classes & CLASS_CPU) ||
           report("cpu", with_overrides(o, cpu), o, p);
}

/* The sizes that must fit an unsigned. */
static int check_ranges(const coalesce_opts *o)
{
    if (o->simd_width > 1u << 20 || o->segment_bytes > 1u << 30 ||
        o->simd_bytes > 1u << 20 || o->simd_bytes == 0 ||
        o->min_pattern > 1u << 20) {
        fprintf(stderr, "dl-bench coalesce: --simd-width, --segment-bytes, "
                        "--simd-bytes or --min-pattern out of range\n");
        return 0;
    }
    return 1;
}

int bench_coalesce_main(int argc, char **argv)
{
    coalesce_opts o = {
        .index_bytes = 4,
        .classes = CLASS_GPU | CLASS_CPU,
        .ref = {4, 0, 0, 0},
        .range = {0, 1, 0, 1, 0},
        .simd_bytes = 32,
        .device = {DEVICE_PICK_ALL_PLATFORMS, 0},
        .remap = {.params = {DL_REMAP_CLIQUE, 1.0, 0, 1, dl_metis_linked()}},
    };
    int code = parse(argc, argv, &o);
    if (code >= 0)
        return code;
    if (!check_ranges(&o))
        return BENCH_EXIT_USAGE;
    o.remap.params.min_pattern = (unsigned)o.min_pattern;
    bench_index p;
    if (!bench_index_load(o.path, o.index_bytes, o.text, &p))
        return BENCH_EXIT_FAIL;
    if (!o.threads_given)
        o.range.threads = default_threads(&o, p.count);
    int ok = report_all(&o, &p);
    bench_index_free(&p);
    return ok ? BENCH_EXIT_OK : BENCH_EXIT_FAIL;
}
