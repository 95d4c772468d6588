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

#endif
