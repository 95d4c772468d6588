/* dla.h - the shared model of dl-annotate: the options, the source text,
 * and what the analysis found in each kernel (which arguments hold
 * records, how they are accessed, why others are declined).  Analysis
 * (analyze.c) fills it from libclang's AST; emit.c turns it into text. */
#ifndef DLA_H
#define DLA_H

#include <clang-c/Index.h>
#include <stdarg.h>
#include <stddef.h>

#include "annotations.h"

typedef enum dla_target { DLA_TARGET_DA, DLA_TARGET_ASTA } dla_target;

typedef struct dla_options {
    const char *input;
    const char *output; /* NULL: stdout */
    int in_place;
    int check;
    int explain;
    dla_target layout;
    size_t tile; /* 0: auto */
    int nclang;
    const char **clang_args; /* after the base arguments of the parse */
    const char *parse_input; /* what clang opens, if not `input` (-p) */
} dla_options;

/* args.c: the command line into `o`.  Returns 0, an exit status, or -1
 * after --help and --version. */
int dla_parse_args(int argc, char **argv, dla_options *o);

/* The input file as bytes; libclang's offsets index it. */
typedef struct dla_source {
    const char *name;
    char *text;
    size_t len;
} dla_source;

/* A byte range [begin, end) of the input. */
typedef struct dla_range {
    unsigned begin, end;
} dla_range;

typedef enum dla_access_kind {
    DLA_FIELD,       /* a field (or a part of one) as an lvalue        */
    DLA_FIELD_ARRAY, /* an array field, as a pointer to its elements   */
    DLA_LOAD,        /* a whole record read                            */
    DLA_STORE,       /* `p[E] = r` as a statement                      */
    DLA_ALIAS_DECL,  /* `T *q = &p[E]` becomes `size_t dla_i_q = E`     */
    DLA_ELEMENT,     /* scalar array element `grid[E]`                 */
    DLA_CALL_NAME,   /* the callee of a helper call: its copy's name   */
    DLA_CALL_ARG,    /* `&p[E]`, `p + E` or `p` passed to a helper:
                        `p, E, dla_M_p` (the copy's three parameters) */
    DLA_BUMP         /* `p += C` at the top of the body: goes, and every
                        access through p adds C (dla_arg.bump) */
} dla_access_kind;

/* One rewrite: the text of `whole` is replaced.  The record index is the
 * text of `index` (itself rendered with the rewrites inside it), or the
 * name `index_name` (an alias variable). */
typedef struct dla_access {
    dla_access_kind kind;
    dla_range whole;
    dla_range index;
    const char *index_name; /* alias: "dla_i_q"; else NULL */
    int index_node;         /* the index's AST node (analysis only)  */
    dla_range value;        /* DLA_STORE: the stored record        */
    unsigned part_off, part_size, inner_off;
    char *leaf_type; /* DLA_FIELD: lvalue type; FIELD_ARRAY: element */
    /* DLA_ELEMENT split as record*K + element when both are in the text
     * and the element is a constant or a loop variable in [0, K); else
     * element_const < 0, !element_var and the index is divided by K. */
    dla_range record;
    long element_const;
    dla_range element; /* the element as text (a bounded loop variable),
                          when element_var */
    int element_var;
    int in_macro;       /* DLA_ELEMENT: `whole` is a macro invocation that
                           expands to the access; its index is read as
                           `&(invocation) - p` */
    char *alias_name;   /* DLA_ALIAS_DECL: the variable's name */
    int whole_part;     /* DLA_FIELD: the lvalue is a whole top-level field */
    int own;            /* the index is the work-item's own record i (its
                           get_global_id(0)): the tiled form applies     */
    const char *callee; /* DLA_CALL_NAME: the helper copy's name        */
    int count_node;     /* DLA_CALL_ARG: the node that stands for the
                           record index in count inference, or -1      */
} dla_access;

/* A function of the source that receives a record pointer (helper.c):
 * under the kernel's activation macro it gets a copy, `dla_<kernel>_
 * <arg>_<fn>`, whose pointer parameter q is followed by `size_t dla_x_q`
 * (the record q points at) and `size_t dla_M_<arg>` (the count); q's
 * accesses in the copy index records dla_x_q + E. */
typedef struct dla_helper {
    char *fn;        /* the helper's name                          */
    char *copy;      /* the copy's name                            */
    dla_range decl;  /* the whole definition                       */
    dla_range fname; /* its name in the definition                 */
    dla_range param; /* the pointer parameter's declaration        */
    char *param_name;
    unsigned param_pos;
    int count_class; /* the helper's record indices: -1 all q->f (the
                        record passed), j >= 0 all parameter j (never
                        changed), -2 anything else                 */
    unsigned naccesses;
    dla_access *accesses;
} dla_helper;

typedef struct dla_part {
    unsigned off, size;
    int gap;
    char *name; /* the field's name; NULL for gaps and unnamed members */
} dla_part;

typedef struct dla_arg {
    unsigned index; /* parameter position */
    char *name;
    int candidate; /* a struct pointer or an annotated scalar array */
    int transformed;
    char *reason; /* why not, when not transformed */
    int scalar;   /* scalar array: elements per record = per_record */
    unsigned per_record, elem_size;
    char *record_type; /* spelling for whole-record copies, or NULL  */
    char *lane_type;   /* a vector record (float4): its lanes' type,
                          else NULL; its parts are the lanes         */
    unsigned record_size;
    unsigned nparts;
    dla_part *parts;          /* fields and gaps, sorted (struct records)   */
    unsigned nfields;         /* the fields among parts                      */
    const dl_annot_arg *user; /* the user's annotation, or NULL       */
    char *count; /* annotation count dims, e.g. "[n]" or "[N][20]" */
    dla_target target;
    size_t tile;         /* asta: 0 = auto */
    char *annotation;    /* canonical full form written before the kernel */
    char *m_code;        /* the record count as OpenCL C (long)       */
    char *m_code_tiled;  /* the same in the tiled range (T is
                            get_global_size(0) there), or NULL when it
                            names what a tiled launch changes (local
                            sizes, groups, dimensions other than 0)    */
    int count_uses_size; /* the count names global_size(0)           */
    char *count_note;    /* the user's count names a macro of the source
                            which the runtime cannot read: a warning    */
    char *neutral;       /* a user annotation asking for a conversion of
                            an argument that cannot be rewritten, without
                            its target: what replaces it in the output  */
    char *bump;          /* `p += C;` moved p once, first thing: C as code
                            (records of a struct, elements of an array),
                            or NULL */
    unsigned naccesses;
    dla_access *accesses;
    unsigned nhelpers;
    dla_helper *helpers; /* functions of the source it is passed to   */
} dla_arg;

/* A work-item function call of a kernel that takes the tiled launch:
 * get_global_id(0), get_global_size(0) or get_global_offset(0), which the
 * tiled variant reads from the 2-D range instead. */
typedef enum dla_call_kind {
    DLA_CALL_ID,
    DLA_CALL_SIZE,
    DLA_CALL_OFFSET
} dla_call_kind;

typedef struct dla_call {
    dla_call_kind kind;
    dla_range whole;
} dla_call;

/* An indirect reference of a kernel, A[P[E] + c] with E affine in the
 * global id (indirect.c): its annotation (docs/annotations.md, "Indirect
 * references"), or why it has none. */
typedef struct dla_indirect {
    char *array, *via;
    char *annotation; /* canonical; NULL when declined              */
    char *reason;     /* why declined                               */
    int present;      /* the source already has this annotation    */
} dla_indirect;

/* One annotated read A[P[E] + c] in the redirected form: the text of
 * `whole` becomes dl_gather_...[E], E the text of `index`. */
typedef struct dla_redirect {
    dla_range whole, index;
    unsigned gather; /* into dla_kernel.gathers */
    int rows;        /* read in a row-bounded (CSR) loop */
} dla_redirect;

/* A reordered array A'[e] = A[P[e] + c], an extra kernel parameter of
 * the redirected form that the runtime sets. */
typedef struct dla_gather {
    char *key;  /* "A P c": one parameter per array, buffer and offset */
    char *name; /* dl_gather_<A>_<P>, then _2, _3, ... for other c     */
    char *decl; /* "__global const T *name"                            */
} dla_gather;

typedef struct dla_kernel {
    char *name;
    unsigned line;
    dla_range decl;      /* the whole definition                      */
    dla_range body;      /* the braces of the body, included          */
    unsigned line_start; /* where annotations go: the start of the line
                            of `decl`, or decl.begin if code precedes
                            it on that line (mid_line)                */
    int mid_line;
    char *signature; /* text from decl.begin to the body's '{'     */
    const dl_annot_kernel *annot; /* user annotations, or NULL        */
    int already;       /* already rewritten (uses DL_ACTIVE_)        */
    int already_tiled; /* ... with a tiled variant                   */
    unsigned nargs;
    dla_arg *args;
    /* The tiled launch (docs/annotations.md, "launch: tiled"): the
     * kernel uses only dimension 0 of its NDRange, so the runtime may run
     * it on global (T, G/T); its ASTA accesses of the own record then use
     * the simple per-tile form that vectorises. */
    int tiled;
    char *tiled_reason;     /* why not (a transformed ASTA argument but
                               no tiled variant), for --explain        */
    char *tiled_bound;      /* ids >= this do nothing: padding is safe */
    char *tiled_annotation; /* the canonical launch flag               */
    char *tiled_tile;       /* the tile's macro, DL_TILE_<k>_<arg>      */
    unsigned ncalls;
    dla_call *calls;
    unsigned nindirect;
    dla_indirect *indirect;
    /* The redirected form of its annotated reads, under DL_ACTIVE_<k>
     * with the gather arrays appended to the parameters after
     * params_end; written when nredirects and not redirect_reason. */
    unsigned nredirects, ngathers;
    dla_redirect *redirects;
    dla_gather *gathers;
    unsigned params_end;
    char *redirect_reason;
    /* The chunks flag (docs/annotations.md, "launch: chunks"): the
     * redirected form depends on no launch shape (chunks.c). */
    int chunks;
    char *chunks_reason; /* why not, for --explain */
    /* The job-swapped form (docs/annotations.md, "Job swapping"): under
     * DL_JOBSWAP_<k>, get_global_id(0) reads dl_job[get_global_id(0)].
     * Written when jobswap; else jobswap_reason says why (for a kernel
     * with annotated indirect references). */
    int jobswap;
    char *jobswap_reason;
    /* With it, the jobs key written before the kernel (a row loop's trip
     * count: "//DL: v1 jobs: by E[hi] - B[lo]", else a loop bound's,
     * "by L[E]"), or NULL. */
    char *jobs_key;
    /* The bound "L[E]" of a loop j < L[E] around a reference: a trip
     * count per job (indirect.c), or NULL. */
    char *loop_key;
    /* The shared form (docs/annotations.md, "Sharing"; share.c): under
     * DL_SHARE_<k>, the group's block of A copied into __local dl_share
     * of share_type elements, and A[P[E]] read as dl_share[P[E]], A
     * spelled share_array, P share_via.  Written when share; else share_reason
     * says why (for a kernel with annotated reads). */
    int share;
    char *share_type, *share_array, *share_via, *share_reason;
} dla_kernel;

typedef struct dla_program {
    dla_source src;
    dl_annot_program *annots;
    unsigned nkernels;
    dla_kernel *kernels;
} dla_program;

/* analyze.c: finds kernels and classifies their record arguments. */
int dla_analyze(CXTranslationUnit tu, dla_program *prog,
                const dla_options *opt);

/* annot.c: the runtime's view of annotations. */
/* Writes the canonical annotation of `arg` by parsing the short form with
 * the runtime's parser against the kernel's signature.  Returns 0, or -1
 * with a reason in arg->reason. */
int dla_annot_canonical(const dla_kernel *k, dla_arg *arg);
/* Whether the record of a scalar or vector array's annotation is one
 * field per element of `elem_size` bytes: the only record whose element
 * k is field k, as the rewritten index `A*per_record + k` assumes. */
int dla_annot_elementwise(const dl_annot_arg *user, uint32_t elem_size);
/* The record count of an annotated argument as OpenCL C code; with
 * `tile` (code for T), as read in the tiled range, or NULL when it
 * cannot be (local sizes, groups, dimensions other than 0). */
char *dla_count_code(const dl_dims_expr *count, const char *tile);
/* Writes k->tiled_annotation through the runtime's parser; 0 or -1. */
int dla_annot_launch(dla_kernel *k);

/* emit.c (preamble.c, rewrite.c): the output text.  The tiled variant
 * starts with a comment holding DLA_TILED_MARK (--check looks for it). */
#define DLA_TILED_MARK "dl-annotate: the tiled range"
char *dla_emit(const dla_program *prog, size_t *len);

/* util */
char *dla_strdup(const char *s);
char *dla_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *dla_vprintf(const char *fmt, va_list ap)
    __attribute__((format(printf, 1, 0)));
char *dla_substr(const dla_source *src, dla_range r);

#endif
