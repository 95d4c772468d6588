/* rt_renumber_form.h - which kernels may run unchanged on a symmetrically
 * renumbered graph (docs/irregular.md, "Renumbering a graph loop"): the
 * kernel's source read to prove that its global id is only a vertex (one
 * CSR row a work-item, the rows guarded by an argument), that every vertex
 * array is indexed only by that vertex or by a column, the row pointer
 * only by v and v + 1, the column and entry arrays only by the row loop's
 * k, and the columns only as vertex indices.  Then every work-item
 * computes for vertex pi^-1(i) what work-item pi^-1(i) computed, in the
 * same order, when the row structure is renumbered and every vertex array
 * permuted by pi (rt_renumber.h). */
#ifndef DL_RT_RENUMBER_FORM_H
#define DL_RT_RENUMBER_FORM_H

#include <stddef.h>
#include <stdint.h>

/* Vertex arrays and entry arrays a kernel may have. */
#define RT_RENUM_MAX 8

/* The kernel's arguments by role. */
typedef struct rt_renum_form {
    uint32_t rowptr, col, rows; /* int or uint buffers; an integer value */
    uint32_t nvertex, nedge;
    uint32_t vertex[RT_RENUM_MAX]; /* indexed by v or col[k]         */
    uint32_t edge[RT_RENUM_MAX];   /* read only at k (val)           */
    size_t vertex_elem;            /* bytes of each vertex element   */
    size_t edge_elem[RT_RENUM_MAX];
} rt_renum_form;

/* NULL when `kernel` in src[0..len) qualifies (its one body, after the
 * branches of `#ifdef DL_...`/`#ifndef DL_...` the program's own build
 * leaves out), with *form filled; else why it does not. */
const char *rt_renumber_scan(const char *src, size_t len, const char *kernel,
                             rt_renum_form *form);

/* ----------------------------------- between rt_renumber_*.c only */

#endif
