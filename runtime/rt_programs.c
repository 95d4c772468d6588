/* rt_programs.c - the program table: the source of every program created
 * from source, its annotations, DL_DUMP_DIR / DL_INJECT_DIR by content
 * hash, and the activated build (docs/annotations.md, "Activation") with
 * its fallback to the build as written. */
#include "rt_internal.h"
#include "tuner_calib.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* asta(auto) without DL_TILE, when the device has no calibration yet
 * (tuner_calib.h): the first run; later runs take the device's best
 * measured ASTA tile for the record's size. */
#define RT_DEFAULT_TILE 32

static uint64_t fnv1a64(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

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

static void dump_source(const char *dir, const char *name, const char *text,
                        size_t len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(text, 1, len, f) != len) {
        DL_LOG_WARN("cannot write %s: %s", path, strerror(errno));
        if (f)
            fclose(f);
        return;
    }
    if (fclose(f) != 0)
        DL_LOG_WARN("cannot write %s: %s", path, strerror(errno));
    else
        DL_LOG_INFO("dumped a program source to %s", path);
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
    free(p->options);
    free(p->devices);
    p->tiles = NULL;
    p->active = NULL;
    p->options = NULL;
    p->devices = NULL;
    p->ndevices = 0;
    p->activated = 0;
}

void rt_program_unref(rt_program *p)
{
    if (--p->refs)
        return;
    if (p->plain)
        dl_cl.clReleaseProgram(p->plain);
    free_build(p);
    dl_annot_free(p->annot);
    pthread_mutex_destroy(&p->plain_lock);
    free(p->source);
    free(p->name);
    free(p);
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
        return dl_cl.clCreateProgramWithSource(context, count, strings,
                                               lengths, errcode_ret);

    char name[64];
    snprintf(name, sizeof name, "%016" PRIx64 ".cl", fnv1a64(source, len));
    const dl_controls *ctl = &dl_rt.controls;
    if (ctl->dump_dir)
        dump_source(ctl->dump_dir, name, source, len);
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
        label = strdup(name);

    const char *text = source;
    cl_program program =
        dl_cl.clCreateProgramWithSource(context, 1, &text, &len, errcode_ret);
    dl_annot_program *annot = NULL;
    if (program && label &&
        dl_annot_parse(source, len, label, &annot) != DL_SUCCESS) {
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
    if (!program || !annot || annot->nkernels == 0) {
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
    pthread_mutex_init(&p->plain_lock, NULL);
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
    __atomic_store_n(&dl_rt.annotated, 1, __ATOMIC_RELEASE);
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
            arg->record ? (uint32_t)((dl_record_size(arg->record) + 3) / 4)
                        : 0;
        uint32_t t = calib && words ? dl_calib_best_asta_tile(calib, words)
                                    : 0;
        return t ? t : RT_DEFAULT_TILE;
    }
}

/* Appends text to a growing string; returns 0 when out of memory. */
static int append(char **s, size_t *len, size_t *cap, const char *text)
{
    size_t n = strlen(text);
    if (*len + n + 1 > *cap) {
        size_t c = (*len + n + 1) * 2;
        char *g = realloc(*s, c);
        if (!g)
            return 0;
        *s = g;
        *cap = c;
    }
    memcpy(*s + *len, text, n + 1);
    *len += n;
    return 1;
}

/* Decides which kernels this build transforms and writes the options.
 * Returns NULL (nothing to activate) or the activated options. */
static char *plan_build(rt_program *p, const char *options,
                        const dl_calibration *calib)
{
    const dl_annot_program *ap = p->annot;
    p->active = calloc(ap->nkernels, sizeof *p->active);
    p->tiles = calloc(ap->nkernels, sizeof *p->tiles);
    if (!p->active || !p->tiles)
        return NULL;
    char *opt = NULL;
    size_t len = 0, cap = 0;
    if (!append(&opt, &len, &cap, options ? options : ""))
        return NULL;
    int any = 0;
    for (uint32_t k = 0; k < ap->nkernels; k++) {
        const dl_annot_kernel *ak = &ap->kernels[k];
        if (!ak->ok || !wants_conversion(ak)) {
            if (!ak->ok)
                RT_ADD(dl_rt.stats.declined, 1);
            continue;
        }
        if (dl_rt.controls.policy == DL_POLICY_NEVER) {
            RT_ADD(dl_rt.stats.declined, 1);
            continue;
        }
        p->tiles[k] = calloc(ak->nargs ? ak->nargs : 1, sizeof(size_t));
        if (!p->tiles[k]) {
            free(opt);
            return NULL;
        }
        char def[512];
        snprintf(def, sizeof def, " -D DL_ACTIVE_%s=1", ak->name);
        if (!append(&opt, &len, &cap, def)) {
            free(opt);
            return NULL;
        }
        for (uint32_t a = 0; a < ak->nargs; a++) {
            const dl_annot_arg *arg = &ak->args[a];
            p->tiles[k][a] = target_tile(arg, calib);
            if (arg->to.kind != DL_KIND_ASTA)
                continue;
            snprintf(def, sizeof def, " -D DL_TILE_%s_%s=%zu", ak->name,
                     arg->name, p->tiles[k][a]);
            if (!append(&opt, &len, &cap, def)) {
                free(opt);
                return NULL;
            }
        }
        p->active[k] = 1;
        any = 1;
    }
    /* DL_POLICY=auto: every kernel that asks is transformed for now; the
     * cost model that can say no is a later issue (the tuner). */
    if (!any || !append(&opt, &len, &cap, " -D DLAYOUT_ACTIVE=1")) {
        free(opt);
        return NULL;
    }
    return opt;
}

/* The first lines of the build log of a failed build, on one line. */
static void log_build_failure(rt_program *p, cl_int err, cl_uint ndev,
                              const cl_device_id *devs)
{
    char log[1024] = "";
    cl_device_id dev = ndev && devs ? devs[0] : NULL;
    if (!dev && dl_cl.clGetProgramInfo)
        dl_cl.clGetProgramInfo(p->program, CL_PROGRAM_DEVICES, sizeof dev,
                               &dev, NULL);
    if (dev && dl_cl.clGetProgramBuildInfo) {
        size_t n = 0;
        if (dl_cl.clGetProgramBuildInfo(p->program, dev, CL_PROGRAM_BUILD_LOG,
                                        sizeof log - 1, log, &n) != CL_SUCCESS)
            snprintf(log, sizeof log, "(build log too long or unavailable)");
    }
    log[sizeof log - 1] = '\0';
    /* Keep about three lines. */
    unsigned lines = 0;
    for (char *c = log; *c; c++)
        if (*c == '\n' && ++lines < 3)
            *c = ' ';
        else if (*c == '\n') {
            *c = '\0';
            break;
        }
    DL_LOG_WARN("%s: the activated build failed (OpenCL error %d), building "
                "the program as written and transforming nothing: %s",
                p->name, (int)err, log);
}

cl_int dl_rt_clBuildProgram(cl_program program, cl_uint num_devices,
                            const cl_device_id *device_list,
                            const char *options,
                            void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                            void *user_data)
{
    if (!RT_LOAD(dl_rt.annotated))
        return dl_cl.clBuildProgram(program, num_devices, device_list, options,
                                    pfn_notify, user_data);
    rt_lock();
    rt_program *p = rt_program_find(program);
    if (p)
        p->refs++;
    rt_unlock();
    if (!p)
        return dl_cl.clBuildProgram(program, num_devices, device_list, options,
                                    pfn_notify, user_data);

    /* asta(auto) targets take the device's tile from its calibration, if
     * one is cached (read before the lock; nothing is measured here). */
    dl_calibration *calib = calloc(1, sizeof *calib);
    cl_device_id dev = num_devices && device_list ? device_list[0] : NULL;
    cl_device_id devs[16];
    if (!dev && dl_cl.clGetProgramInfo(program, CL_PROGRAM_DEVICES,
                                       sizeof devs, devs, NULL) == CL_SUCCESS)
        dev = devs[0]; /* fails (NULL) beyond 16 devices: default tile */
    if (calib && (!dev || dl_calib_cached(dev, calib) != DL_SUCCESS)) {
        free(calib);
        calib = NULL;
    }

    /* The build state changes only here; a concurrent build of the same
     * program is an application error that OpenCL reports. */
    rt_lock();
    /* plain_lock too: rt_program_plain reads the options and devices. */
    pthread_mutex_lock(&p->plain_lock);
    if (p->plain) /* built with the previous options */
        dl_cl.clReleaseProgram(p->plain);
    p->plain = NULL;
    p->plain_failed = 0;
    free_build(p);
    p->options = strdup(options ? options : "");
    if (num_devices && device_list) {
        p->devices = malloc(num_devices * sizeof *p->devices);
        if (p->devices) {
            memcpy(p->devices, device_list, num_devices * sizeof *p->devices);
            p->ndevices = num_devices;
        }
    }
    pthread_mutex_unlock(&p->plain_lock);
    char *activated = p->options ? plan_build(p, options, calib) : NULL;
    rt_unlock();
    free(calib);

    cl_int err;
    if (!activated) {
        err = dl_cl.clBuildProgram(program, num_devices, device_list, options,
                                   pfn_notify, user_data);
    } else {
        DL_LOG_DEBUG("%s: building with '%s'", p->name, activated);
        /* Synchronously, so that a failure can be retried; the
         * application's callback is then called once, after the build. */
        err = dl_cl.clBuildProgram(program, num_devices, device_list,
                                   activated, NULL, NULL);
        rt_lock();
        if (err == CL_SUCCESS) {
            p->activated = 1;
            for (uint32_t k = 0; k < p->annot->nkernels; k++)
                if (p->active[k])
                    RT_ADD(dl_rt.stats.kernels_transformed, 1);
        } else {
            for (uint32_t k = 0; k < p->annot->nkernels; k++)
                if (p->active[k]) {
                    p->active[k] = 0;
                    RT_ADD(dl_rt.stats.declined, 1);
                }
        }
        rt_unlock();
        if (err != CL_SUCCESS) {
            log_build_failure(p, err, num_devices, device_list);
            err = dl_cl.clBuildProgram(program, num_devices, device_list,
                                       options, NULL, NULL);
        }
        if (pfn_notify)
            pfn_notify(program, user_data);
        free(activated);
    }
    rt_lock();
    rt_program_unref(p);
    rt_unlock();
    return err;
}

cl_program rt_program_plain(rt_program *p)
{
    pthread_mutex_lock(&p->plain_lock);
    if (!p->plain && !p->plain_failed) {
        const char *text = p->source;
        cl_int err = CL_SUCCESS;
        cl_program plain = dl_cl.clCreateProgramWithSource(
            p->context, 1, &text, &p->source_len, &err);
        if (plain)
            err =
                dl_cl.clBuildProgram(plain, p->ndevices, p->devices,
                                     p->options ? p->options : "", NULL, NULL);
        if (err != CL_SUCCESS) {
            DL_LOG_ERROR("%s: building the program as written failed "
                         "(OpenCL error %d)",
                         p->name, (int)err);
            if (plain)
                dl_cl.clReleaseProgram(plain);
            p->plain_failed = 1;
        } else {
            p->plain = plain;
        }
    }
    cl_program plain = p->plain;
    pthread_mutex_unlock(&p->plain_lock);
    return plain;
}

cl_int dl_rt_clGetProgramInfo(cl_program program, cl_program_info param_name,
                              size_t param_value_size, void *param_value,
                              size_t *param_value_size_ret)
{
    if (!RT_LOAD(dl_rt.annotated) || (param_name != CL_PROGRAM_BINARY_SIZES &&
                                      param_name != CL_PROGRAM_BINARIES))
        return dl_cl.clGetProgramInfo(program, param_name, param_value_size,
                                      param_value, param_value_size_ret);
    rt_lock();
    rt_program *p = rt_program_find(program);
    if (p && p->activated)
        p->refs++;
    else
        p = NULL;
    rt_unlock();
    if (!p)
        return dl_cl.clGetProgramInfo(program, param_name, param_value_size,
                                      param_value, param_value_size_ret);
    cl_program plain = rt_program_plain(p);
    if (!plain)
        DL_LOG_ERROR("%s: the application asks for the binary of a program "
                     "built transformed, and the program as written does "
                     "not build; it gets the transformed binary",
                     p->name);
    cl_int err = dl_cl.clGetProgramInfo(plain ? plain : program, param_name,
                                        param_value_size, param_value,
                                        param_value_size_ret);
    rt_lock();
    rt_program_unref(p);
    rt_unlock();
    return err;
}

cl_int dl_rt_clReleaseProgram(cl_program program)
{
    if (!RT_LOAD(dl_rt.annotated))
        return dl_cl.clReleaseProgram(program);
    rt_lock();
    rt_program *p = rt_program_find(program);
    cl_uint refs = 0;
    if (p &&
        dl_cl.clGetProgramInfo(program, CL_PROGRAM_REFERENCE_COUNT,
                               sizeof refs, &refs, NULL) == CL_SUCCESS &&
        refs == 1) {
        rt_map_del(&dl_rt.programs, program);
        rt_program_unref(p);
    }
    rt_unlock();
    return dl_cl.clReleaseProgram(program);
}
