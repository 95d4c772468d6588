/* rt_offset.c - offset DA under dl-run (docs/layouts.md, "Offset DA"):
 * where an annotated argument's DA field arrays would alias at 4 KiB and
 * its buffer has the slack, the activated variant is built with
 * -D DLA_PAD_<kernel>_<arg>=<M' - M> (dl-annotate adds that macro to
 * DA's field stride) and the buffer converts to the DA of M' records.
 *
 * The pads are fixed at the program's first variant build, from the
 * launch that builds it (the tuner's rule, dl_tuner_da_offset_stride);
 * every later variant of the program (wide, flat) has the same pads.  A
 * later launch uses the pad with its own count when the buffer still has
 * the slack, else it runs plain; other kernels of the program have no
 * pad (their DA may alias, as before). */
#include "rt_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The most fields whose sizes the alias rule is told one by one. */
#define MAX_FIELDS 256u

/* The macro dl-annotate's DA variant adds to the field stride. */
static int pad_macro(char *out, size_t size, const char *kernel,
                     const char *arg)
{
    int n = snprintf(out, size, "DLA_PAD_%s_%s", kernel, arg);
    return n > 0 && (size_t)n < size;
}

/* Whether the source's DA variant of the argument takes a pad: annotated
 * by a dl-annotate that writes DLA_PAD_ (an older one, or an annotation
 * by hand, would ignore it and index the plain DA). */
static int source_takes_pad(const rt_program *p, const char *kernel,
                            const char *arg)
{
    char name[512];
    return p->source && pad_macro(name, sizeof name, kernel, arg) &&
           strstr(p->source, name) != NULL;
}

int rt_offset_possible(const rt_program *p)
{
    return p->source && strstr(p->source, "DLA_PAD_") != NULL;
}

/* The pad (records) the tuner's rule wants for `count` records of `rec`
 * in a buffer of `bytes`, saying at info level why where DA aliases. */
static size_t wanted_pad(const rt_kernel *k, const dl_annot_arg *arg,
                         size_t count, size_t bytes)
{
    const dl_record *rec = arg->record;
    uint32_t n = dl_record_nfields(rec);
    uint32_t sizes[MAX_FIELDS];
    if (n == 0 || n > MAX_FIELDS)
        return 0;
    for (uint32_t f = 0; f < n; f++)
        sizes[f] = dl_record_field(rec, f).size;
    dl_tuner_kernel_info info = {.record_size = dl_record_size(rec),
                                 .nfields = n,
                                 .field_sizes = sizes,
                                 .count = count,
                                 .buffer_bytes = bytes};
    if (!dl_tuner_da_aliases(&info))
        return 0;
    const char *why = NULL;
    size_t stride = dl_tuner_da_offset_stride(&info, &why);
    DL_LOG_INFO_AT(k->prog->name, arg->line, "kernel '%s' argument '%s': %s",
                   k->name, arg->name, why);
    return stride > count ? stride - count : 0;
}

unsigned rt_offset_plan(const rt_kernel *k, uint32_t j, const rt_buffer *b,
                        const rt_layout *from, rt_layout *to, size_t *want_pad)
{
    const rt_program *p = k->prog;
    const dl_annot_arg *arg = &k->annot->args[j];
    *want_pad = 0;
    to->stride = 0;
    if (to->tile != DL_TILE_DA || from->tile != 1 || !to->count)
        return 0; /* an offset DA converts only from AoS */
    size_t pad = 0;
    if (__atomic_load_n(&p->pads_fixed, __ATOMIC_ACQUIRE)) {
        pad =
            p->pads && p->pads[k->annot_index] ? p->pads[k->annot_index][j] : 0;
    } else if (source_takes_pad(p, k->name, arg->name)) {
        pad = *want_pad = wanted_pad(k, arg, to->count, b->size);
    }
    if (!pad)
        return 0;
    size_t size = dl_record_size(arg->record);
    size_t span = to->count + pad;
    if (span < pad || span > SIZE_MAX / size || span * size > b->size)
        return RT_CAUSE_OFFSET;
    to->stride = span;
    return 0;
}

size_t rt_offset_buffer_bytes(const rt_kernel *k, uint32_t j, cl_mem mem)
{
    const rt_program *p = k->prog;
    const rt_buffer *b = mem ? rt_buffer_find(mem) : NULL;
    if (!b)
        return 0;
    if (__atomic_load_n(&p->pads_fixed, __ATOMIC_ACQUIRE))
        return p->pads && p->pads[k->annot_index] && p->pads[k->annot_index][j]
                   ? b->size
                   : 0;
    return source_takes_pad(p, k->name, k->annot->args[j].name) ? b->size : 0;
}

/* The -D options of kernel ai's pads (malloc'd), or NULL. */
static char *pad_options(const dl_annot_kernel *ak, const size_t *pads)
{
    size_t cap = 1;
    for (uint32_t j = 0; j < ak->nargs; j++)
        cap += pads[j] ? strlen(ak->name) + strlen(ak->args[j].name) + 48 : 0;
    char *opt = calloc(1, cap);
    size_t len = 0;
    for (uint32_t j = 0; opt && j < ak->nargs; j++)
        if (pads[j])
            len +=
                (size_t)snprintf(opt + len, cap - len, " -D DLA_PAD_%s_%s=%zu",
                                 ak->name, ak->args[j].name, pads[j]);
    return opt;
}

int rt_offset_fix(rt_program *p, const char *kernel, const size_t *pads)
{
    if (__atomic_load_n(&p->pads_fixed, __ATOMIC_ACQUIRE))
        return 1;
    uint32_t ai = 0;
    while (kernel && ai < p->annot->nkernels &&
           strcmp(p->annot->kernels[ai].name, kernel) != 0)
        ai++;
    int any = 0;
    const dl_annot_kernel *ak =
        kernel && ai < p->annot->nkernels ? &p->annot->kernels[ai] : NULL;
    for (uint32_t j = 0; ak && pads && j < ak->nargs; j++)
        any |= pads[j] != 0;
    int ok = 1;
    if (any) {
        p->pads = calloc(p->annot->nkernels, sizeof *p->pads);
        if (p->pads)
            p->pads[ai] = calloc(ak->nargs, sizeof **p->pads);
        p->pad_options = p->pads && p->pads[ai] ? pad_options(ak, pads) : NULL;
        ok = p->pad_options != NULL;
        if (ok)
            memcpy(p->pads[ai], pads, ak->nargs * sizeof *pads);
        else
            rt_offset_free(p);
    }
    __atomic_store_n(&p->pads_fixed, 1, __ATOMIC_RELEASE);
    return ok;
}

void rt_offset_free(rt_program *p)
{
    if (p->pads)
        for (uint32_t k = 0; k < p->annot->nkernels; k++)
            free(p->pads[k]);
    free(p->pads);
    free(p->pad_options);
    p->pads = NULL;
    p->pad_options = NULL;
    __atomic_store_n(&p->pads_fixed, 0, __ATOMIC_RELEASE);
}
