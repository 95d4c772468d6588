/* annotations.h - `// DL:` annotations of OpenCL C sources: for every
 * annotated kernel, which arguments hold records, how many, in which
 * layout, and which layout the (transformed) kernel wants.  These are the
 * argument descriptors K_i of the DL paper (section 5.2).
 *
 * The grammar and examples are in docs/annotations.md.  In short:
 *
 *   //DL: AoS: f[global_size(0)]                         (user form)
 *   //DL: AoS: grid[N][20]                               (scalar array)
 *   //DL: v1 aos: f[global_size(0)] record(size=32; 0:16, 16:4, 24:8)
 *         -> asta(32)                  (annotator's form, on one line)
 *
 * An annotation describes an argument of the next kernel function of the
 * source.  A rejected annotation costs only its kernel: the kernel is
 * marked `ok = 0` (run it untransformed), one warning names the source
 * line, and parsing goes on. */
#ifndef DL_ANNOTATIONS_H
#define DL_ANNOTATIONS_H

#include "clsource.h" /* dl_kernel_param */
#include "dims.h"
#include "dlayout.h"

#define DL_ANNOT_MAX_DIMS    8   /* [..] groups of one annotation         */
#define DL_ANNOT_MAX_DIAGS   64  /* messages kept (and logged) per source */
#define DL_ANNOT_MAX_PENDING 256 /* annotations waiting for one kernel    */
#define DL_ANNOT_MAX_TILE    ((size_t)1 << 31)
/* The largest tile of a tiled launch ("launch: tiled"): the tile is the
 * NDRange's dimension 0, and dl-annotate's tiled variant is selected by
 * the same bound (1 < T <= this), so both sides agree on it. */
#define DL_ANNOT_TILED_MAX_TILE 1024

/* A layout of the ASTA(T) family as written in an annotation. */
typedef struct dl_annot_layout {
    dl_kind kind; /* as written: aos, da, asta(T) */
    size_t tile;  /* AOS: 1, DA: DL_TILE_DA, ASTA: T; 0 = asta(auto) */
} dl_annot_layout;

typedef struct dl_annot_arg {
    unsigned line;        /* of the annotation                          */
    uint32_t index;       /* kernel argument index                      */
    const char *name;     /* the parameter's name (owned by the kernel) */
    dl_annot_layout from; /* the layout the host code uses             */
    dl_annot_layout to;   /* the layout the kernel wants (= from if the
                             annotation names no target)               */
    uint32_t ndims;
    dl_dims_expr **dims; /* as written, bound to the kernel's arguments */
    dl_dims_expr *count; /* number of records: the product of the dims
                            that count records (all, or all but the last
                            one for scalar arrays)                     */
    /* The record: from record(...) or derived from a scalar element
     * type.  nfields == 0 (and record NULL) when unknown, which is only
     * allowed when no conversion is asked for. */
    uint32_t nfields;
    dl_field *fields;
    uint32_t record_size;
    int explicit_record; /* written as record(...)                     */
    dl_record *record;
} dl_annot_arg;

/* A bound of a row-bounded loop: element B[index] of an integer array
 * argument, index affine in gid. */
typedef struct dl_annot_bound {
    uint32_t array;   /* argument index of B      */
    const char *name; /* owned by the kernel      */
    dl_int_type type; /* B's element type         */
    dl_dims_expr *index;
} dl_annot_bound;

/* An indirect reference "indirect: read A[P[index] + offset]"
 * (docs/annotations.md, "Indirect references"): work-item gid reads (or
 * writes) element P[index] + offset of A, where index is affine in gid
 * and, inside a loop, in the loop variable j (0 <= j < trips). */
typedef struct dl_annot_indirect {
    unsigned line;       /* of the annotation                          */
    int write;           /* the reference stores into A                */
    uint32_t array, via; /* argument indexes of A and P                */
    const char *array_name, *via_name; /* owned by the kernel           */
    dl_int_type via_type; /* P's element type                           */
    uint32_t elem_size;   /* bytes of one element (record) of A         */
    /* The bytes of the element the reference touches: the span of the
     * fields of record(...), else the whole element. */
    uint32_t field_offset, field_size;
    int explicit_record; /* written as record(...)                     */
    uint32_t nfields;
    dl_field *fields;
    /* Bound names: a kernel argument's index, or nparams + one of
     * DL_ANNOT_NAME_GID, _LOOP, _MACRO (a build-option macro, looked up
     * by name when the reference is evaluated). */
    dl_dims_expr *index;
    dl_dims_expr *offset; /* NULL: 0 */
    char *loop_var;       /* NULL: no loop */
    dl_dims_expr *trips;  /* NULL: no loop, or a row-bounded one */
    /* "for(k in B[lo] .. E[hi])" (CSR): k runs from B[lo] up to E[hi] - 1,
     * values only B's and E's contents say; rows[0].index NULL: none. */
    dl_annot_bound rows[2];
} dl_annot_indirect;

enum { DL_ANNOT_NAME_GID, DL_ANNOT_NAME_LOOP, DL_ANNOT_NAME_MACRO };

typedef struct dl_annot_kernel {
    char *name;
    unsigned line; /* of the kernel's name */
    /* 0 if any annotation of the kernel was rejected: the runtime must
     * then leave all of its arguments alone. */
    int ok;
    int defined; /* seen with a body, not only as a prototype */
    uint32_t nparams;
    dl_kernel_param *params;
    uint32_t nargs; /* annotated arguments, in annotation order */
    dl_annot_arg *args;
    /* "//DL: launch: tiled": the kernel (as rewritten) also runs on the
     * tiled NDRange, global (T, G/T), reading its record index as
     * get_global_id(1)*T + get_global_id(0).  tiled(bound): work-items
     * whose index is bound or more do nothing, so the range may be
     * padded to a multiple of T; NULL when absent. */
    int tiled;
    unsigned tiled_line;
    dl_dims_expr *tiled_bound;
    /* "//DL: launch: chunks": no work-item of the kernel depends on the
     * shape of the launch (it calls no get_global_size, get_global_offset,
     * group, local or barrier function), so the runtime may run its
     * range as several launches of whole work-groups (docs/irregular.md,
     * "Chunked launches"). */
    int chunks;
    unsigned chunks_line;
    /* Indirect references, in annotation order.  They ask for no
     * conversion: a kernel with only these runs as written. */
    uint32_t nindirect;
    dl_annot_indirect *indirect;
    /* "//DL: jobs: by E[hi] - B[lo]" (njobs 2) or "by L[i]" (1): job
     * gid's key, its trip count, jobs[0] minus jobs[1], each an element of
     * an integer array argument the kernel reads at an index affine in
     * gid.  Job swapping sorts the jobs by it (docs/irregular.md, "Trip
     * counts").  0: none. */
    uint32_t njobs;
    dl_annot_bound jobs[2];
    unsigned jobs_line;
} dl_annot_kernel;

typedef struct dl_annot_diag {
    unsigned line; /* 0: about the whole source */
    char *message;
} dl_annot_diag;

typedef struct dl_annot_program {
    char *source_name;
    uint32_t nkernels; /* kernels with at least one annotation */
    dl_annot_kernel *kernels;
    uint32_t ndiags;
    dl_annot_diag *diags;
    uint32_t suppressed; /* diagnostics beyond DL_ANNOT_MAX_DIAGS */
} dl_annot_program;

/* Scans source[0..len) (NUL bytes included; it need not be terminated).
 * `source_name` names it in messages ("<source>" if NULL).  Returns an
 * error only for invalid arguments or lack of memory: problems of the
 * source become diagnostics, each also logged as a warning. */
dl_status dl_annot_parse(const char *source, size_t len,
                         const char *source_name, dl_annot_program **out);

/* The clCreateProgramWithSource form: `count` strings, each of lengths[i]
 * bytes, or NUL-terminated where lengths is NULL or lengths[i] is 0. */
dl_status dl_annot_parse_strings(cl_uint count, const char **strings,
                                 const size_t *lengths, const char *source_name,
                                 dl_annot_program **out);

/* Marks `ok = 0`, with a diagnostic, every kernel whose annotations ask
 * for a conversion although source[0..len) never names its
 * DL_ACTIVE_<kernel> macro: such a kernel cannot index the converted
 * layout.  The runtime calls it on the source it builds; dl-annotate,
 * which writes that branch, does not. */
dl_status dl_annot_refuse_unselected(dl_annot_program *program,
                                     const char *source, size_t len);

void dl_annot_free(dl_annot_program *program);

const dl_annot_kernel *dl_annot_find(const dl_annot_program *program,
                                     const char *kernel);
/* The kernel's parameter named `name` (its index in *index), or NULL. */
const dl_kernel_param *dl_annot_find_param(const dl_annot_kernel *kernel,
                                           const char *name, uint32_t *index);
/* The annotation of argument `index`, or NULL. */
const dl_annot_arg *dl_annot_find_arg(const dl_annot_kernel *kernel,
                                      uint32_t index);

/* "aos", "da", "asta(32)", "asta(auto)".  Returns what snprintf would. */
int dl_annot_layout_format(dl_annot_layout layout, char *buf, size_t size);
/* The canonical full form of an annotation, without a newline:
 * "//DL: v1 aos: f[global_size(0)] record(size=8; 0:4, 4:4) -> asta(32)".
 * Parsing it again gives the same argument. */
int dl_annot_format(const dl_annot_arg *arg, char *buf, size_t size);
/* The kernel's launch flag, "//DL: v1 launch: tiled" or
 * "//DL: v1 launch: tiled(n)", or "" when it has none. */
int dl_annot_format_launch(const dl_annot_kernel *kernel, char *buf,
                           size_t size);

/* The kernel's chunks flag, "//DL: v1 launch: chunks", or "". */
int dl_annot_format_chunks(const dl_annot_kernel *kernel, char *buf,
                           size_t size);

/* The kernel's jobs key, "//DL: v1 jobs: by rowptr[gid + 1] -
 * rowptr[gid]", or "" when it has none. */
int dl_annot_format_jobs(const dl_annot_kernel *kernel, char *buf, size_t size);
/* The canonical form of an indirect reference:
 * "//DL: v1 indirect: read x[col[j * n + gid] + 1] for(j < K)". */
int dl_annot_format_indirect(const dl_annot_indirect *ref, char *buf,
                             size_t size);

/* Where an indirect reference reads at one launch: the element of P that
 * work-item gid = global_offset(0) + t reads at loop step j is
 * base + t * t_stride + j * j_stride, for t < global_size(0) and
 * j < steps; it then touches element P[...] + offset of A.  A reference
 * in a row-bounded loop has no such range (its entries depend on the
 * bounds arrays' contents): dl_annot_indirect_eval fails on it, and
 * dl_annot_indirect_offset gives its offset alone. */
typedef struct dl_annot_indirect_range {
    int64_t base, t_stride, j_stride, offset;
    uint64_t steps; /* the trip count; 1 without a loop */
} dl_annot_indirect_range;

/* A build-option macro's value, for names that are no kernel argument. */
typedef dl_status (*dl_annot_macro_fn)(void *user, const char *name,
                                       int64_t *value);

/* Evaluates ref at a launch described by env (kernel arguments by index,
 * sizes and offsets); `nparams` is the kernel's parameter count. */
dl_status dl_annot_indirect_eval(const dl_annot_indirect *ref, uint32_t nparams,
                                 const dl_dims_env *env,
                                 dl_annot_macro_fn macro, void *user,
                                 dl_annot_indirect_range *out);

/* Where a row-bounded reference's bounds lie at one launch: work-item
 * gid = global_offset(0) + t loops from B[base[0] + t * stride[0]] up to
 * E[base[1] + t * stride[1]] - 1 (B, E: ref->rows[0] and [1]). */
typedef struct dl_annot_rows_range {
    int64_t base[2], stride[2], offset;
} dl_annot_rows_range;

/* Evaluates a row-bounded ref's bounds and offset at the launch env
 * describes; fails on other references. */
dl_status dl_annot_indirect_rows_eval(const dl_annot_indirect *ref,
                                      uint32_t nparams, const dl_dims_env *env,
                                      dl_annot_macro_fn macro, void *user,
                                      dl_annot_rows_range *out);

/* Where a kernel's jobs key lies at one launch: job gid =
 * global_offset(0) + t has the key jobs[0][base[0] + t * stride[0]]
 * minus (njobs 2) jobs[1][base[1] + t * stride[1]]; offset is 0. */
dl_status dl_annot_jobs_eval(const dl_annot_kernel *kernel,
                             const dl_dims_env *env, dl_annot_macro_fn macro,
                             void *user, dl_annot_rows_range *out);
/* The offset c of ref at the launch env describes, into *offset (0 without
 * one); also for a reference in a row-bounded loop. */
dl_status dl_annot_indirect_offset(const dl_annot_indirect *ref,
                                   uint32_t nparams, const dl_dims_env *env,
                                   dl_annot_macro_fn macro, void *user,
                                   int64_t *offset);

#endif
