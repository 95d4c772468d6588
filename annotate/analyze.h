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
    const char *helper; /* analysing this helper's body (helper.c)   */
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

/* helper.c: a record pointer (`&p[E]`, `p + E`: index node idx; `p`:
 * idx < 0; an alias q of `&p[E]`: idx < 0 and its index variable
 * alias_index) is argument node `arg` of call node `call`: the helper
 * must be a function of the source whose uses of it are known forms.  0
 * with the call's accesses and the helper added, or -1 (declined). */
int helper_call(ctx *c, dla_arg *a, int call, int arg, int idx,
                const char *alias_index);
/* Whether the use (node) is spelled inside a macro's arguments. */
int from_macro_call(ctx *c, int use);
/* A use (node) spelled in a macro's arguments inside a call of a function
 * of the source: declined (-1); else 0. */
int helper_in_macro(ctx *c, dla_arg *a, int use);
/* macro.c: the macro invocation of the input whose expansion is the
 * node (with parentheses around it, nothing else): its text, or 0. */
int dla_invocation_of(ctx *c, int node, dla_range *inv);
/* analyze.c: the function definition is an OpenCL kernel. */
int dla_is_kernel(CXTranslationUnit tu, CXCursor fn);

/* count.c: the count dims ("[n]") of an argument without annotation,
 * or NULL (declined). */
char *infer_count(ctx *c, dla_arg *a);
/* count.c: whether var is set once from get_global_id(0) and never
 * changed; whether an access's index is the work-item's own record (that
 * variable, or get_global_id(0) itself); `gid < n` (negate: `gid >= n`)
 * with n an integer argument: n's name, else NULL. */
int gid_var(ctx *c, CXCursor var);
int index_is_own(ctx *c, const dla_access *acc);
char *guard_compare(ctx *c, int cond, CXCursor gid, int negate);

/* tiled.c: decides c->k->tiled, once its arguments are analysed: the
 * work-item calls to rewrite, the own-record accesses, the padding
 * bound.  0, or -1 when out of memory. */
int dla_tiled(ctx *c);

/* indirect.c: the kernel's indirect references A[P[E] + c], each with
 * its annotation or the reason it has none, and the redirected form of
 * the annotated ones (or why not).  0, or -1 when out of memory. */
int dla_find_indirect(ctx *c, CXCursor fn);

/* chunks.c: decides c->k->chunks for a kernel with the redirected form
 * (or why not).  0, or -1 when out of memory. */
int dla_chunks(ctx *c);
/* tiled.c: whether a function of this name ties a work-item to its
 * work-group or to the shape of the range. */
int dla_group_bound(const char *name);

/* jobswap.c: whether the kernel, which has annotated indirect references,
 * can run its jobs in another order (sets k->jobswap or
 * k->jobswap_reason, and k->params_end).  -1 when out of memory. */
int dla_jobswap(ctx *c, CXCursor fn);

/* share.c: whether the kernel, after dla_jobswap, gets the shared form
 * (sets k->share or k->share_reason).  -1 when out of memory. */
int dla_share(ctx *c);

#endif
