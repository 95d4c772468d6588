/* indirect.h - binding an indirect reference (annotation_grammar.h's
 * pending form) to its kernel; used by annotations.c. */
#ifndef DL_ANNOT_INDIRECT_H
#define DL_ANNOT_INDIRECT_H

#include "annotation_grammar.h"

/* Checks p against kernel k (the arguments exist and suit, the index is
 * affine in gid and the loop variable, not a reference k already has)
 * and fills *out, which owns copies. */
dl_status dl_annot_resolve_indirect(const dl_annot_pending *p,
                                    const dl_annot_kernel *k,
                                    dl_annot_indirect *out);

void dl_annot_indirect_free(dl_annot_indirect *ref);

/* Binds array[index] as a bound of kernel k (a row's, or the jobs
 * key's): an integer array argument, its index affine in gid, not naming
 * loop_var (NULL: none). */
dl_status dl_annot_bind_bound(const dl_annot_kernel *k, const char *array,
                              const dl_dims_expr *index, const char *loop_var,
                              dl_annot_bound *out);

/* Bound b at the launch env describes: work-item global_offset(0) + t
 * reads entry *base + t * *stride. */
dl_status dl_annot_bound_eval(const dl_annot_bound *b, uint32_t nparams,
                              const dl_dims_env *env, dl_annot_macro_fn macro,
                              void *user, int64_t *base, int64_t *stride);

#endif
