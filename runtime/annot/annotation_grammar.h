/* annotation_grammar.h - the text of one `// DL:` annotation (grammar:
 * docs/annotations.md).  Reading one needs no kernel: names are bound to
 * the kernel's arguments later, by annotations.c, once the kernel that
 * follows the annotation is known. */
#ifndef DL_ANNOTATION_GRAMMAR_H
#define DL_ANNOTATION_GRAMMAR_H

#include "annotations.h"

/* An annotation read from a comment, waiting for its kernel. */
typedef struct dl_annot_pending {
    unsigned line;
    char *error; /* the syntax error, or NULL */
    dl_annot_layout from, to;
    char *name;
    uint32_t ndims;
    dl_dims_expr *dims[DL_ANNOT_MAX_DIMS];
    uint32_t nfields;
    dl_field *fields;
    uint32_t record_size; /* 0: absent or derived */
    int has_record;
    /* A kernel flag rather than an argument: "launch: tiled", with its
     * guard bound (if any) in dims[0] and no name. */
    int tiled_launch;
    /* The other kernel flag, "launch: chunks" (no name, no dims). */
    int chunks_launch;
    /* An indirect reference rather than an argument's layout:
     * "indirect: read A[P[index] + offset] record(...) for(j < trips)".
     * name is A; the record, if any, is in fields/record_size. */
    int indirect;         /* 1 for an indirect reference                  */
    int write;            /* "write": the reference stores into A         */
    char *via;            /* P, the index buffer                          */
    dl_dims_expr *index;  /* into P: affine in gid and the loop variable */
    dl_dims_expr *offset; /* c, added to P's element; NULL: none         */
    char *loop_var;       /* the loop variable, NULL: no loop            */
    dl_dims_expr *trips;  /* the loop's trip count                       */
    /* Or a row-bounded loop "for(k in B[lo] .. E[hi])": the bounds
     * arrays' names and their indexes (trips is then NULL). */
    char *rows_array[2];
    dl_dims_expr *rows_index[2];
    /* A kernel flag, "jobs: by E[hi] - B[lo]" or "by L[i]": each job's
     * key in the bound slots (rows_array[1] NULL: one term), no name. */
    int jobs;
} dl_annot_pending;

/* Parses the text of an annotation comment, after its "//" (which is in
 * source column `col`: messages give source columns), into *p.  On a
 * syntax error, dl_last_error() says what and where; *p keeps what was
 * read and must still be freed. */
dl_status dl_annot_read_comment(const char *body, size_t len, unsigned col,
                                dl_annot_pending *p);

/* Frees what p owns and zeroes it. */
void dl_annot_pending_free(dl_annot_pending *p);

/* asta(1) is aos: the same layout under two names. */
int dl_annot_same_layout(dl_annot_layout a, dl_annot_layout b);

#endif
