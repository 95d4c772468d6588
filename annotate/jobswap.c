/* jobswap.c - whether a kernel with indirect references may run its jobs
 * in another order (job swapping, 002 sections 3.2.2 and 4): the runtime
 * then launches it with work-item g doing job R[g], R a permutation of
 * the range that it plans from the index buffer's contents.
 *
 * The job-swapped form leaves the body as written: under
 * DL_JOBSWAP_<kernel>, a macro makes get_global_id(0) read
 * dl_job[get_global_id(0)] (the macro's own name is not expanded again
 * inside it) for the kernel's text only, and dl_job is a parameter the
 * runtime sets.  Each job then runs the same arithmetic in the same order
 * inside one work-item, so results are identical when jobs depend neither
 * on the launch's shape nor on one another.  This file checks that:
 *   - no work-group or range-shape functions (local ids, groups, local
 *     sizes, barriers, fences, work-group and sub-group functions), which
 *     would see another work-item's position;
 *   - no __local memory (parameters or variables), no atomics and no
 *     printf, through which jobs could see one another or their order;
 *   - no calls of the source's own functions (get_global_id inside them
 *     would not follow the macro);
 *   - its parameters are spelled in the file (dl_job is appended).
 * With the form, a row loop's trip count, or a loop's bound read per job
 * (j < len[gid], whose references no annotation can say), becomes the
 * kernel's jobs key (docs/annotations.md, "The jobs key"). */
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

static int no_jobswap(dla_kernel *k, char *why)
{
    if (!why)
        return -1;
    if (k->jobswap_reason)
        free(why);
    else
        k->jobswap_reason = why;
    return 0;
}

/* Functions through which jobs see one another or their order. */
static int communicates(const char *name)
{
    return !strncmp(name, "atomic_", 7) || !strncmp(name, "atom_", 5) ||
           !strcmp(name, "printf");
}

/* A call that job swapping cannot keep identical, or NULL. */
static char *bad_call(ctx *c, int node)
{
    CXCursor cur = c->tree.nodes[node].cur;
    char *name = dla_spelling(cur);
    if (!name)
        return NULL;
    char *why = NULL;
    CXCursor def = clang_getCursorDefinition(clang_getCursorReferenced(cur));
    if (dla_group_bound(name))
        why = dla_printf("it calls %s, which depends on the work-group or "
                         "the range's shape",
                         name);
    else if (communicates(name))
        why = dla_printf("it calls %s: jobs would see one another or their "
                         "order",
                         name);
    else if (!clang_Cursor_isNull(def) &&
             !clang_Location_isInSystemHeader(clang_getCursorLocation(def)))
        why = dla_printf("it calls %s, a function of the source that the "
                         "job map would not reach",
                         name);
    free(name);
    return why;
}

static int is_local(CXType t)
{
    CXString s = clang_getTypeSpelling(t);
    const char *text = clang_getCString(s);
    int local = text && (strstr(text, "__local") || strstr(text, "local "));
    clang_disposeString(s);
    return local;
}

/* The first reason the body forbids job swapping, or NULL. */
static char *body_reason(ctx *c)
{
    dla_tree *t = &c->tree;
    for (int i = 0; i < t->n; i++) {
        if (t->nodes[i].kind == CXCursor_CallExpr) {
            char *why = bad_call(c, i);
            if (why)
                return why;
        }
        if (t->nodes[i].kind == CXCursor_VarDecl &&
            is_local(clang_getCursorType(t->nodes[i].cur)))
            return dla_strdup("it declares __local memory");
    }
    return NULL;
}

static int annotated_indirect(const dla_kernel *k)
{
    for (unsigned i = 0; i < k->nindirect; i++)
        if (k->indirect[i].annotation)
            return 1;
    return 0;
}

/* The jobs key of a row loop from its canonical reference, "... for(k in
 * B[lo] .. E[hi])": "//DL: v1 jobs: by E[hi] - B[lo]", the row's trip
 * count, by which the runtime sorts the jobs.  NULL: not a row loop. */
static char *rows_key(const char *annotation)
{
    const char *in = strstr(annotation, " for(");
    in = in ? strstr(in, " in ") : NULL;
    const char *dots = in ? strstr(in, " .. ") : NULL;
    size_t n = dots ? strlen(dots + 4) : 0;
    if (n < 2 || dots[3 + n] != ')')
        return NULL;
    return dla_printf("//DL: v1 jobs: by %.*s - %.*s", (int)(n - 1), dots + 4,
                      (int)(dots - in - 4), in + 4);
}

/* The first row loop's key, else a per-job loop bound's, where the
 * source has none yet. */
static void jobs_key(dla_kernel *k)
{
    if (k->annot && k->annot->njobs)
        return;
    for (unsigned i = 0; i < k->nindirect && !k->jobs_key; i++)
        if (k->indirect[i].annotation)
            k->jobs_key = rows_key(k->indirect[i].annotation);
    if (!k->jobs_key && k->loop_key)
        k->jobs_key = dla_printf("//DL: v1 jobs: by %s", k->loop_key);
}

int dla_jobswap(ctx *c, CXCursor fn)
{
    dla_kernel *k = c->k;
    if ((!annotated_indirect(k) && !k->loop_key) ||
        (k->signature && strstr(k->signature, "DL_JOBSWAP_")))
        return 0; /* nothing to swap, or written already */
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            return no_jobswap(k, dla_strdup("the kernel's records are "
                                            "rewritten: not both yet"));
    if (k->already)
        return no_jobswap(k, dla_strdup("the kernel is already rewritten"));
    for (unsigned i = 0; i < k->nargs; i++)
        if (is_local(clang_getCursorType(clang_Cursor_getArgument(fn, i))))
            return no_jobswap(k, dla_printf("its parameter '%s' is __local "
                                            "memory, shared by a work-group",
                                            k->args[i].name));
    char *why = body_reason(c);
    if (why)
        return no_jobswap(k, why);
    dla_range last;
    if (!k->nargs ||
        !dla_cursor_range(clang_Cursor_getArgument(fn, k->nargs - 1), &last))
        return no_jobswap(k, dla_strdup("its parameters are spelled by a "
                                        "macro"));
    k->params_end = last.end;
    k->jobswap = 1;
    jobs_key(k);
    return 0;
}
