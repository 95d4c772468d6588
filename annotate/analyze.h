/* analyze.h - what the parts of the analysis share: the state of one
 * kernel's analysis and the helpers every part uses.  analyze.c drives
 * (kernels, arguments), fields.c reads records, access.c classifies the
 * uses of an argument, count.c infers record counts. */
#ifndef DLA_ANALYZE_H
#define DLA_ANALYZE_H

#include "ast.h"

typedef struct ctx {
    CXTranslationUnit tu;
    CXFile file;
    dla_program *prog;
    const dla_options *opt;
    dla_tree tree;
    dla_kernel *k;
    CXCursor *params;
    CXCursor gid_checked; /* index_is_gid's last answer, per kernel */
    int gid_ok;
} ctx;

/* Records why an argument is declined (the first reason wins); -1. */
int decline(dla_arg *a, const char *why);
/* A zeroed access appended to the argument's, or NULL. */
dla_access *new_access(dla_arg *a);
int node_range(const ctx *c, int node, dla_range *r);
/* node is a DeclRefExpr naming decl. */
int refers_to(const ctx *c, int node, CXCursor decl);
/* node is a call to a function whose name starts with prefix. */
int is_call_to(const ctx *c, int node, const char *prefix);
/* An index must be evaluable more than once: no side effects, no calls
 * other than the work-item functions.  0, or -1 (declined). */
int check_index(ctx *c, dla_arg *a, int node, dla_range r);

/* fields.c: the record's parts (fields and gaps, from Clang) and the
 * record type as code (NULL for an anonymous struct). */
int record_parts(dla_arg *a, CXType pointee);
char *record_type_name(CXType pointee);

/* access.c: one use (a DeclRefExpr node) of a struct pointer argument or
 * of an annotated scalar array: 0 with its accesses added, or -1. */
int struct_use(ctx *c, dla_arg *a, int d);
int scalar_use(ctx *c, dla_arg *a, int d);

/* count.c: the count dims ("[n]") of an argument without annotation,
 * or NULL (declined). */
char *infer_count(ctx *c, dla_arg *a);

#endif
