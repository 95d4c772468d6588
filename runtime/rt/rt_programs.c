/* rt_programs.c - the program table: the source of every program created
 * from source, its annotations, DL_DUMP_DIR / DL_INJECT_DIR by content
 * hash, and the name messages give it (program_label).  The application's
 * program is built as written; the activated variant (docs/annotations.md,
 * "Activation") is a second program built from the same source, on
 * demand. */
#define _GNU_SOURCE /* asprintf */
#include "rt_internal.h"
#include "rt_permute.h"
#include "rt_renumber.h"
#include "rt_padding.h"
#include "rt_reorder.h"
#include "hash.h"
#include "clock.h"
#include "tuner_calib.h"
#include "srcmacros.h"
#include "text.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* asta(auto) without DL_TILE, when the device has no calibration yet
 * (tuner_calib.h): the first run; later runs take the device's best
 * measured ASTA tile for the record's size. */
#define RT_DEFAULT_TILE 32

/* The strings of clCreateProgramWithSource joined into one text. */
static char *join_source(cl_uint count, const char **strings,
                         const size_t *lengths, size_t *len_out)
{
    size_t len = 0;
    for (cl_uint i = 0; i < count; i++)
        len += (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
    char *text = malloc(len + 1);
    if (!text)
        return NULL;
    size_t at = 0;
    for (cl_uint i = 0; i < count; i++) {
        size_t n = (lengths && lengths[i]) ? lengths[i] : strlen(strings[i]);
        memcpy(text + at, strings[i], n);
        at += n;
    }
    text[len] = '\0';
    *len_out = len;
    return text;
}

static char *read_file(const char *path, size_t *len_out)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            cap = cap ? cap * 2 : 65536;
            char *grown = realloc(text, cap);
            if (!grown) {
                free(text);
                fclose(f);
                return NULL;
            }
            text = grown;
        }
        size_t n = fread(text + len, 1, cap - len - 1, f);
        len += n;
        if (n == 0)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed) {
        free(text);
        return NULL;
    }
    text[len] = '\0';
    *len_out = len;
    return text;
}

/* Writes the source to DIR/NAME; returns that path (malloc'd), or NULL
 * after a warning. */
static char *dump_source(const char *dir, const char *name, const char *text,
                         size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len) {
        DL_LOG_WARN("cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return NULL;
    }
    if (fclose(f) != 0) {
        DL_LOG_WARN("cannot write %s: %s", path, strerror(errno));
        return NULL;
    }
    DL_LOG_INFO("dumped a program source to %s", path);
    return strdup(path);
}

/* What messages call a program whose source came from no file dlayout
 * knows: its number among the programs created from source and its
 * first line that is not blank, e.g. `program 3 "// lbm.cl - D3Q19"`, so
 * that a user can tell which of the program's sources it is.  The lines
 * messages give (`NAME:LINE:`) count from the start of that source. */
#define LABEL_FIRST_LINE_MAX 40

static char *program_label(const char *source, size_t len)
{
    static unsigned programs; /* atomic */
    unsigned n = __atomic_add_fetch(&programs, 1, __ATOMIC_RELAXED);
    const char *end = source + len, *s = source;
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    const char *eol = s;
    while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
    int cut = eol - s > LABEL_FIRST_LINE_MAX;
    int shown = cut ? LABEL_FIRST_LINE_MAX : (int)(eol - s);
    char *label = NULL;
    if (asprintf(&label, "program %u \"%.*s%s\"", n, shown, s,
                 cut ? "..." : "") < 0)
        return NULL;
    return label;
}

rt_program *rt_program_find(cl_program program)
{
    return rt_map_get(&dl_rt.programs, program);
}

static void free_build(rt_program *p)
{
    if (p->tiles)
        for (uint32_t k = 0; k < p->annot->nkernels; k++)
            free(p->tiles[k]);
    free(p->tiles);
    free(p->active);
    free(p->ran);
    free(p->options);
    free(p->xform_options);
    free(p->devices);
    if (p->xform) /* built with the previous options */
        dl_cl.clReleaseProgram(p->xform);
    if (p->wide)
        dl_cl.clReleaseProgram(p->wide);
    if (p->flat)
        dl_cl.clReleaseProgram(p->flat);
    free(p->bounded_kernel);
    rt_offset_free(p);
    p->xform = p->wide = p->flat = NULL;
    p->xform_failed = p->wide_failed = p->flat_failed = 0;
    p->bounded_kernel = NULL;
    p->bound.set = 0;
    p->tiles = NULL;
    p->active = NULL;
    p->ran = NULL;
    p->options = NULL;
    p->xform_options = NULL;
    p->devices = NULL;
    p->ndevices = 0;
    p->activated = 0;
}

void rt_program_unref(rt_program *p)
{
    if (--p->refs)
        return;
    free_build(p);
    dl_annot_free(p->annot);
    pthread_mutex_destroy(&p->xform_lock);
    free(p->source);
    free(p->name);
    free(p);
}

/* Whether the program is tracked: some kernel has an argument's layout,
 * the launch flag, a jobs key or a rejected annotation (counted as
 * declined), or
 * indirect references that DL_COALESCING counts or that are reordered
 * (rt_reorder.h).  A program with only indirect references otherwise
 * runs exactly as without dlayout. */
static int worth_tracking(const dl_annot_program *annot)
{
    for (uint32_t i = 0; i < annot->nkernels; i++) {
        const dl_annot_kernel *k = &annot->kernels[i];
        if (k->nargs || k->tiled || !k->nindirect || k->njobs ||
            dl_rt.controls.coalescing || rt_reorder_wanted(k) ||
            rt_permute_considered(k) || rt_padding_considered(k) ||
            rt_renumber_considered(k))
            return 1;
    }
    return 0;
}

cl_program dl_rt_clCreateProgramWithSource(cl_context context, cl_uint count,
                                           const char **strings,
                                           const size_t *lengths,
                                           cl_int *errcode_ret)
{
    size_t len = 0;
    int valid = count && strings;
    for (cl_uint i = 0; valid && i < count; i++)
        valid = strings[i] != NULL;
    char *source = valid ? join_source(count, strings, lengths, &len) : NULL;
    if (!source) /* invalid arguments (the real call says so) or no memory */
        return rt_fwd.clCreateProgramWithSource(context, count, strings,
                                                lengths, errcode_ret);

    char name[64];
    snprintf(name, sizeof name, "%016" PRIx64 ".cl",
             dl_hash(DL_HASH_SEED, source, len));
    const dl_controls *ctl = &dl_rt.controls;
    /* Messages name the file the source is in where there is one: the
     * injected file, else the dump, else program_label. */
    char *dumped =
        ctl->dump_dir ? dump_source(ctl->dump_dir, name, source, len) : NULL;
    char *label = NULL;
    if (ctl->inject_dir) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", ctl->inject_dir, name);
        size_t ilen = 0;
        char *injected = read_file(path, &ilen);
        if (injected) {
            DL_LOG_INFO("building %s instead of the application's source",
                        path);
            free(source);
            source = injected;
            len = ilen;
            label = strdup(path);
        }
    }
    if (!label)
        label = dumped ? dumped : program_label(source, len);
    else
        free(dumped);

    const char *text = source;
    cl_program program =
        rt_fwd.clCreateProgramWithSource(context, 1, &text, &len, errcode_ret);
    dl_annot_program *annot = NULL;
    if (program && label &&
        (dl_annot_parse(source, len, label, &annot) != DL_SUCCESS ||
         dl_annot_refuse_unselected(annot, source, len) != DL_SUCCESS)) {
        dl_annot_free(annot);
        DL_LOG_WARN("%s: annotations not read: %s", label, dl_last_error());
        annot = NULL;
    }
    if (program && RT_LOAD(dl_rt.annotated)) {
        /* A handle the implementation reuses must not keep the entry of a
         * program released behind our back (kernels kept it alive). */
        rt_lock();
        rt_program *stale = rt_map_del(&dl_rt.programs, program);
        if (stale)
            rt_program_unref(stale);
        rt_unlock();
    }
    if (!program || !annot || !worth_tracking(annot)) {
        /* Nothing to transform: the program is not tracked at all. */
        dl_annot_free(annot);
        free(source);
        free(label);
        return program;
    }

    rt_program *p = calloc(1, sizeof *p);
    if (!p) {
        DL_LOG_ERROR("%s: out of memory; the program runs untransformed",
                     label);
        dl_annot_free(annot);
        free(source);
        free(label);
        return program;
    }
    p->program = program;
    p->context = context;
    p->refs = 1;
    p->source = source;
    p->source_len = len;
    p->name = label;
    p->annot = annot;
    pthread_mutex_init(&p->xform_lock, NULL);
    rt_lock();
    dl_status st = rt_map_put(&dl_rt.programs, program, p);
    rt_unlock();
    if (st != DL_SUCCESS) {
        DL_LOG_ERROR("%s: out of memory; the program runs untransformed",
                     label);
        rt_program_unref(p);
        return program;
    }
    RT_ADD(dl_rt.stats.programs_annotated, 1);
    /* -1 under helgrind: the access wrappers' lock-free lookups are off
     * there (rt_access.c). */
    __atomic_store_n(&dl_rt.annotated, rt_hg_active ? -1 : 1, __ATOMIC_RELEASE);
    return program;
}

/* Whether kernel `k` asks for a conversion the runtime can do. */
static int wants_conversion(const dl_annot_kernel *k)
{
    int any = 0;
    for (uint32_t a = 0; a < k->nargs; a++) {
        const dl_annot_arg *arg = &k->args[a];
        if (arg->from.kind == arg->to.kind && arg->from.tile == arg->to.tile)
            continue;
        if (!arg->record)
            return 0;
        any = 1;
    }
    return any;
}

/* `calib`: the device's cached calibration, or NULL. */
static size_t target_tile(const dl_annot_arg *arg, const dl_calibration *calib)
{
    switch (arg->to.kind) {
    case DL_KIND_AOS:
        return 1;
    case DL_KIND_DA:
        return DL_TILE_DA;
    case DL_KIND_ASTA:
    default:
        if (dl_rt.controls.tile != DL_CONTROL_TILE_AUTO)
            return dl_rt.controls.tile;
        if (arg->to.tile)
            return arg->to.tile;
        uint32_t words =
            arg->record ? (uint32_t)((dl_record_size(arg->record) + 3) / 4) : 0;
        uint32_t t = calib && words ? dl_calib_best_asta_tile(calib, words) : 0;
        return t ? t : RT_DEFAULT_TILE;
    }
}

/* Reads the macros that the kernel's record counts and launch bound name
 * from this build's options or the program's own #defines (`src`, NULL
 * when the scan ran out of memory).  0, with a warning at the
 * annotation, when one has no value dlayout can be sure of: the kernel
 * runs as written. */
static int define_macros(rt_program *p, const dl_annot_kernel *ak,
                         const char *options, const dl_srcmacros *src)
{
    for (uint32_t a = 0; a < ak->nargs; a++)
        if (ak->args[a].count &&
            dl_dims_define_src(ak->args[a].count, options, src) != DL_SUCCESS) {
            DL_LOG_WARN_AT(p->name, ak->args[a].line,
                           "kernel '%s' runs as "
                           "written: %s",
                           ak->name, dl_last_error());
            return 0;
        }
    if (ak->tiled_bound &&
        dl_dims_define_src(ak->tiled_bound, options, src) != DL_SUCCESS) {
        DL_LOG_WARN_AT(p->name, ak->tiled_line,
                       "kernel '%s' runs as "
                       "written: %s",
                       ak->name, dl_last_error());
        return 0;
    }
    return 1;
}

/* Decides which kernels this build transforms and writes the options.
 * Returns NULL (nothing to activate) or the activated options. */
static char *plan_kernels(rt_program *p, const char *options,
                          const dl_calibration *calib, const dl_srcmacros *src)
{
    const dl_annot_program *ap = p->annot;
    p->active = calloc(ap->nkernels, sizeof *p->active);
    p->ran = calloc(ap->nkernels, sizeof *p->ran);
    p->tiles = calloc(ap->nkernels, sizeof *p->tiles);
    if (!p->active || !p->ran || !p->tiles)
        return NULL;
    dl_text opt = {0};
    dl_text_puts(&opt, options ? options : "");
    int any = 0;
    for (uint32_t k = 0; k < ap->nkernels; k++) {
        const dl_annot_kernel *ak = &ap->kernels[k];
        if (!ak->ok || !(wants_conversion(ak) || rt_reorder_wanted(ak))) {
            if (!ak->ok)
                RT_ADD(dl_rt.stats.declined, 1);
            continue;
        }
        if (dl_rt.controls.policy == DL_POLICY_NEVER ||
            !define_macros(p, ak, options, src)) {
            RT_ADD(dl_rt.stats.declined, 1);
            continue;
        }
        p->tiles[k] = calloc(ak->nargs ? ak->nargs : 1, sizeof(size_t));
        if (!p->tiles[k]) {
            free(opt.text);
            return NULL;
        }
        dl_text_printf(&opt, " -D DL_ACTIVE_%s=1", ak->name);
        for (uint32_t a = 0; a < ak->nargs; a++) {
            const dl_annot_arg *arg = &ak->args[a];
            p->tiles[k][a] = target_tile(arg, calib);
            if (arg->to.kind != DL_KIND_ASTA)
                continue;
            dl_text_printf(&opt, " -D DL_TILE_%s_%s=%zu", ak->name, arg->name,
                           p->tiles[k][a]);
        }
        p->active[k] = 1;
        any = 1;
    }
    /* DL_POLICY=auto: every kernel that asks is transformed for now; the
     * cost model that can say no is a later issue (the tuner). */
    dl_text_puts(&opt, " -D DLAYOUT_ACTIVE=1");
    if (!any || opt.failed) {
        free(opt.text);
        return NULL;
    }
    return opt.text;
}

/* plan_kernels with the source's #defines, which counts may name. */
static char *plan_build(rt_program *p, const char *options,
                        const dl_calibration *calib)
{
    dl_srcmacros *src = NULL;
    if (dl_srcmacros_scan_opts(p->source, p->source_len, p->name, options,
                               &src) != DL_SUCCESS)
        DL_LOG_WARN("%s: %s; the source's #defines are not read", p->name,
                    dl_last_error());
    char *opt = plan_kernels(p, options, calib, src);
    dl_srcmacros_free(src);
    return opt;
}

/* The build log of `failed` for its first device (malloc'd), or NULL. */
static char *build_log(rt_program *p, cl_program failed)
{
    cl_device_id dev = p->ndevices ? p->devices[0] : NULL;
    if (!dev && failed)
        dl_cl.clGetProgramInfo(failed, CL_PROGRAM_DEVICES, sizeof dev, &dev,
                               NULL);
    size_t n = 0;
    if (!dev || !failed ||
        dl_cl.clGetProgramBuildInfo(failed, dev, CL_PROGRAM_BUILD_LOG, 0, NULL,
                                    &n) != CL_SUCCESS)
        return NULL;
    char *log = malloc(n + 1);
    if (log && dl_cl.clGetProgramBuildInfo(failed, dev, CL_PROGRAM_BUILD_LOG, n,
                                           log, NULL) != CL_SUCCESS) {
        free(log);
        return NULL;
    }
    if (log)
        log[n] = '\0';
    return log;
}

/* In the first line of `log` that reports an error, the source line it
 * names ("FILE.cl:LINE:COL") and the message after that location.  The
 * compiler names a temporary file; the line is the source's, which the
 * activated build compiles as the application passed it.  Returns 0 when
 * there is no such line. */
static unsigned first_error(const char *log, char *msg, size_t size)
{
    for (const char *at = log; at && *at;) {
        const char *end = strchr(at, '\n');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        const char *err = memmem(at, len, "error", 5);
        const char *loc = err ? memmem(at, len, ".cl:", 4) : NULL;
        char *after = NULL;
        unsigned long line = loc ? strtoul(loc + 4, &after, 10) : 0;
        if (line > 0 && line <= UINT_MAX) {
            const char *text =
                memmem(after, (size_t)(at + len - after), ": ", 2);
            text = text ? text + 2 : after;
            snprintf(msg, size, "%.*s", (int)(at + len - text), text);
            return (unsigned)line;
        }
        at = end ? end + 1 : NULL;
    }
    return 0;
}

/* Says why the activated build failed: at the source line of the first
 * error (a layout check that dl-annotate wrote, say), else with the first
 * lines of the build log on one line. */
static void log_build_failure(rt_program *p, cl_program failed, cl_int err)
{
    char *full = build_log(p, failed);
    char msg[512];
    unsigned line = full ? first_error(full, msg, sizeof msg) : 0;
    if (line) {
        DL_LOG_WARN_AT(p->name, line,
                       "the activated build failed (OpenCL "
                       "error %d), the program runs as written and "
                       "transforms nothing: %s",
                       (int)err, msg);
        free(full);
        return;
    }
    char log[1024] = "";
    snprintf(log, sizeof log, "%s", full ? full : "(no build log)");
    free(full);
    /* Keep about three lines. */
    unsigned lines = 0;
    for (char *c = log; *c; c++)
        if (*c == '\n' && ++lines < 3)
            *c = ' ';
        else if (*c == '\n') {
            *c = '\0';
            break;
        }
    DL_LOG_WARN("%s: the activated build failed (OpenCL error %d), the "
                "program runs as written and transforms nothing: %s",
                p->name, (int)err, log);
}

/* The application's build goes through as written, options and callback
 * unchanged; the runtime only plans the activated variant here (which
 * kernels, which tiles) and builds it now under DL_POLICY=always, later
 * (rt_program_xform, at the first transformed launch) under auto. */
cl_int dl_rt_clBuildProgram(cl_program program, cl_uint num_devices,
                            const cl_device_id *device_list,
                            const char *options,
                            void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                            void *user_data)
{
    if (!RT_LOAD(dl_rt.annotated))
        return rt_fwd.clBuildProgram(program, num_devices, device_list, options,
                                     pfn_notify, user_data);
    rt_lock();
    rt_program *p = rt_program_find(program);
    if (p)
        p->refs++;
    rt_unlock();
    if (!p)
        return rt_fwd.clBuildProgram(program, num_devices, device_list, options,
                                     pfn_notify, user_data);

    /* asta(auto) targets take the device's tile from its calibration, if
     * one is cached (read before the lock; nothing is measured here). */
    dl_calibration *calib = calloc(1, sizeof *calib);
    cl_device_id dev = num_devices && device_list ? device_list[0] : NULL;
    cl_device_id devs[16];
    if (!dev && dl_cl.clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof devs,
                                       devs, NULL) == CL_SUCCESS)
        dev = devs[0]; /* fails (NULL) beyond 16 devices: default tile */
    if (calib && (!dev || dl_calib_cached(dev, calib) != DL_SUCCESS)) {
        free(calib);
        calib = NULL;
    }

    /* The build state changes only here; a concurrent build of the same
     * program is an application error that OpenCL reports, and kernels
     * (which use the state) cannot exist across a rebuild. */
    rt_lock();
    pthread_mutex_lock(&p->xform_lock);
    free_build(p);
    p->options = strdup(options ? options : "");
    if (num_devices && device_list) {
        p->devices = malloc(num_devices * sizeof *p->devices);
        if (p->devices) {
            memcpy(p->devices, device_list, num_devices * sizeof *p->devices);
            p->ndevices = num_devices;
        }
    }
    p->xform_options = p->options ? plan_build(p, options, calib) : NULL;
    pthread_mutex_unlock(&p->xform_lock);
    rt_unlock();
    free(calib);

    uint64_t t0 = dl_now_ns();
    cl_int err = rt_fwd.clBuildProgram(program, num_devices, device_list,
                                       options, pfn_notify, user_data);
    uint64_t t1 = dl_now_ns();
    rt_lock();
    p->build_ns = t1 - t0;
    if (err == CL_SUCCESS && p->xform_options) {
        p->activated = 1;
        for (uint32_t k = 0; k < p->annot->nkernels; k++)
            if (p->active[k])
                RT_ADD(dl_rt.stats.kernels_planned, 1);
    }
    /* A variant whose DA may be offset waits for its first launch: the
     * pads depend on the buffers (rt_offset.c). */
    int eager = p->activated && dl_rt.controls.policy != DL_POLICY_AUTO &&
                !rt_offset_possible(p);
    rt_unlock();
    if (eager)
        rt_program_xform(p, NULL, NULL, NULL, NULL);
    rt_lock();
    rt_program_unref(p);
    rt_unlock();
    return err;
}

/* Locked.  The activated build failed: no kernel of the program is
 * transformed from now on. */
static void deactivate(rt_program *p)
{
    for (uint32_t k = 0; k < p->annot->nkernels; k++)
        if (p->active[k]) {
            p->active[k] = 0;
            RT_ADD(dl_rt.stats.kernels_planned, (uint64_t)-1); /* -1 */
            RT_ADD(dl_rt.stats.declined, 1);
        }
    p->activated = 0;
    rt_kernel *k;
    for (size_t i = 0; i < rt_map_cap(&dl_rt.kernels); i++)
        if ((k = rt_map_at(&dl_rt.kernels, i)) && k->prog == p)
            k->transformed = k->reorder = 0;
}

/* Under xform_lock.  The activated variant built with `extra` after its
 * options, or NULL.  Failures of the plain activated build are logged;
 * a bounded one that fails is only noted (the caller builds it
 * unbounded, which says why if it fails too). */
static cl_program build_variant(rt_program *p, const char *extra)
{
    char *with = NULL;
    const char *pads = p->pad_options ? p->pad_options : "";
    if ((extra || *pads) && asprintf(&with, "%s%s %s", p->xform_options, pads,
                                     extra ? extra : "") < 0)
        return NULL;
    const char *options = with ? with : p->xform_options;
    DL_LOG_DEBUG("%s: building the activated variant with '%s'", p->name,
                 options);
    const char *text = p->source;
    cl_int err = CL_SUCCESS;
    cl_program xform = dl_cl.clCreateProgramWithSource(p->context, 1, &text,
                                                       &p->source_len, &err);
    if (xform)
        err = dl_cl.clBuildProgram(xform, p->ndevices, p->devices, options,
                                   NULL, NULL);
    if (err != CL_SUCCESS) {
        if (extra)
            DL_LOG_DEBUG("%s: the bounded build failed (OpenCL error %d)",
                         p->name, (int)err);
        else
            log_build_failure(p, xform, err);
        if (xform)
            dl_cl.clReleaseProgram(xform);
        xform = NULL;
    }
    free(with);
    return xform;
}

/* Under xform_lock: the first build, for `kernel` bounded by *want if
 * given.  The bound is a hint to the device compiler only
 * (DLA_ASSUME_GLOBAL_END): a kernel's bounds guards can then go, which
 * POCL otherwise compiles to masked vector loads (1.4x slower). */
static void build_first(rt_program *p, const char *kernel,
                        const rt_global_end *want, const size_t *pads)
{
    char *extra = NULL;
    if (!rt_offset_fix(p, kernel, pads))
        DL_LOG_WARN("%s: out of memory; no offset DA", p->name);
    if (kernel && want && want->set &&
        asprintf(&extra, "-DDL_GLOBAL_END_%s=%zuUL,%zuUL,%zuUL", kernel,
                 want->end[0], want->end[1], want->end[2]) < 0)
        extra = NULL;
    if (extra && (p->bounded_kernel = strdup(kernel)) &&
        (p->xform = build_variant(p, extra))) {
        p->bound = *want;
    } else {
        free(p->bounded_kernel);
        p->bounded_kernel = NULL;
        p->xform = build_variant(p, NULL);
    }
    free(extra);
}

cl_program rt_program_xform(rt_program *p, const char *kernel,
                            const rt_global_end *want, rt_global_end *got,
                            const size_t *pads)
{
    int failed = 0;
    pthread_mutex_lock(&p->xform_lock);
    if (!p->xform && !p->xform_failed && p->xform_options) {
        build_first(p, kernel, want, pads);
        p->xform_failed = failed = !p->xform;
    }
    cl_program xform = p->xform;
    if (got) {
        got->set = 0;
        if (xform && kernel && p->bounded_kernel &&
            strcmp(kernel, p->bounded_kernel) == 0)
            *got = p->bound;
    }
    pthread_mutex_unlock(&p->xform_lock);
    if (failed) { /* after xform_lock: the lock order is rt_lock first */
        rt_lock();
        deactivate(p);
        rt_unlock();
    }
    return xform;
}

cl_program rt_program_xform_wide(rt_program *p)
{
    pthread_mutex_lock(&p->xform_lock);
    cl_program wide = p->xform;
    if (wide && p->bounded_kernel) {
        if (!p->wide && !p->wide_failed) {
            p->wide = build_variant(p, NULL);
            p->wide_failed = !p->wide;
        }
        wide = p->wide;
    }
    pthread_mutex_unlock(&p->xform_lock);
    return wide;
}

/* The build options that put every tiled kernel of the activated
 * variant in its flat form (malloc'd), or NULL. */
static char *flat_options(const rt_program *p)
{
    dl_text opt = {0};
    dl_text_puts(&opt, "");
    for (uint32_t k = 0; k < p->annot->nkernels; k++) {
        const dl_annot_kernel *ak = &p->annot->kernels[k];
        if (p->active[k] && ak->tiled)
            dl_text_printf(&opt, " -D DL_FLAT_%s=1", ak->name);
    }
    if (opt.failed) {
        free(opt.text);
        return NULL;
    }
    return opt.text;
}

cl_program rt_program_xform_flat(rt_program *p)
{
    pthread_mutex_lock(&p->xform_lock);
    if (!p->flat && !p->flat_failed && p->xform_options) {
        /* Built before xform: no kernel gets an offset DA pad. */
        rt_offset_fix(p, NULL, NULL);
        char *extra = flat_options(p);
        p->flat = extra ? build_variant(p, extra) : NULL;
        if (extra && !p->flat) /* build_variant only noted it */
            DL_LOG_WARN("%s: the flat form of the tiled kernels did not "
                        "build; ranges that cannot be tiled run as written",
                        p->name);
        p->flat_failed = !p->flat;
        free(extra);
    }
    cl_program flat = p->flat;
    pthread_mutex_unlock(&p->xform_lock);
    return flat;
}

cl_int dl_rt_clReleaseProgram(cl_program program)
{
    if (!RT_LOAD(dl_rt.annotated))
        return rt_fwd.clReleaseProgram(program);
    rt_lock();
    rt_program *p = rt_program_find(program);
    cl_uint refs = 0;
    if (p &&
        dl_cl.clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT, sizeof refs,
                               &refs, NULL) == CL_SUCCESS &&
        refs == 1) {
        rt_map_del(&dl_rt.programs, program);
        rt_program_unref(p);
    }
    rt_unlock();
    return rt_fwd.clReleaseProgram(program);
}
