/* chunks.c - whether a kernel may run its range as several launches
 * (docs/annotations.md, "launch: chunks"; docs/irregular.md, "Chunked
 * launches").  The runtime splits a launch of the redirected form into
 * launches of whole work-groups with global_work_offset, so each work-item
 * still sees its own global id, local id and group size; what changes per
 * chunk is the shape of the launch: the global size, the offset, the
 * number of groups and the group ids.  The flag is written only when the
 * body calls none of those, nothing that ties work-items of a group
 * together (barriers, work-group and sub-group functions, local ids and
 * sizes, which a launch without a local size leaves to the device per
 * chunk), no atomics (whose order between work-items could change), no
 * __local memory (shared by a work-group, whose make-up a chunk without
 * a local size may change) and no function of the source (which could
 * call any of them).  Nor for a kernel with a reference read in a
 * row-bounded (CSR) loop: which entries of its index buffer a chunk of
 * rows reads is in the row pointers' contents, so the runtime never
 * chunks such a launch (rt_chunks.c). */
#define _GNU_SOURCE /* vasprintf */
#include "analyze.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Work-item functions whose value does not change with the chunk. */
static const char *const chunk_safe[] = {"get_global_id", "get_work_dim", NULL};

/* Prefixes of what changes per chunk or ties work-items together. */
static const char *const chunk_bound[] = {"get_",
                                          "barrier",
                                          "work_group_",
                                          "sub_group_",
                                          "mem_fence",
                                          "read_mem_fence",
                                          "write_mem_fence",
                                          "async_work_group_",
                                          "wait_group_events",
                                          "atomic_",
                                          "atom_",
                                          NULL};

static int listed(const char *name, const char *const *list, int prefix)
{
    for (int i = 0; list[i]; i++)
        if (prefix ? !strncmp(name, list[i], strlen(list[i]))
                   : !strcmp(name, list[i]))
            return 1;
    return 0;
}

/* Why one call keeps the kernel whole (allocated), or NULL; *oom when
 * the reason could not be allocated. */
static char *call_reason(ctx *c, int node, int *oom)
{
    dla_tree *t = &c->tree;
    char *name = dla_spelling(t->nodes[node].cur);
    if (!name) {
        *oom = 1;
        return NULL;
    }
    CXCursor def = clang_getCursorDefinition(
        clang_getCursorReferenced(t->nodes[node].cur));
    int own = !clang_Cursor_isNull(def) &&
              !clang_Location_isInSystemHeader(clang_getCursorLocation(def));
    const char *fmt = NULL;
    if (listed(name, chunk_safe, 0))
        fmt = NULL;
    else if (listed(name, chunk_bound, 1))
        fmt = "it calls %s";
    else if (own)
        fmt = "it calls %s, a function of the source";
    char *why = fmt ? dla_printf(fmt, name) : NULL;
    *oom = fmt && !why;
    free(name);
    return why;
}

/* Whether text names `local` or `__local` as a word (an address space:
 * work-items of a group sharing memory; comments count too, which only
 * keeps a kernel whole). */
static int names_local(const char *text)
{
    for (const char *p = text ? strstr(text, "local") : NULL; p;
         p = strstr(p + 1, "local")) {
        const char *start =
            p >= text + 2 && !strncmp(p - 2, "__", 2) ? p - 2 : p;
        int before = start > text &&
                     (isalnum((unsigned char)start[-1]) || start[-1] == '_');
        int after = isalnum((unsigned char)p[5]) || p[5] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Whether a redirected reference is read in a row-bounded loop. */
static int reads_rows(const dla_kernel *k)
{
    for (unsigned i = 0; i < k->nredirects; i++)
        if (k->redirects[i].rows)
            return 1;
    return 0;
}

int dla_chunks(ctx *c)
{
    dla_kernel *k = c->k;
    if (!k->nredirects || k->redirect_reason)
        return 0; /* only the redirected form is ever chunked */
    if (reads_rows(k)) {
        k->chunks_reason = dla_strdup(
            "a reference's loop is bounded by an array's contents (CSR): "
            "which entries each chunk reads is unknown, so the runtime "
            "never runs it in chunks");
        return k->chunks_reason ? 0 : -1;
    }
    char *body = dla_substr(&c->prog->src, k->body);
    if (!body)
        return -1;
    int local = names_local(k->signature) || names_local(body);
    free(body);
    if (local) {
        k->chunks_reason = dla_strdup("it uses __local memory, shared by a "
                                      "work-group");
        return k->chunks_reason ? 0 : -1;
    }
    for (int i = 0; i < c->tree.n && !k->chunks_reason; i++) {
        if (c->tree.nodes[i].kind != CXCursor_CallExpr)
            continue;
        int oom = 0;
        k->chunks_reason = call_reason(c, i, &oom);
        if (oom)
            return -1;
    }
    k->chunks = !k->chunks_reason;
    return 0;
}
