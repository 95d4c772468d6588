/* share.c - whether a kernel gets the shared form (sharing, 000 section
 * 3.4, Figure 5): under DL_SHARE_<kernel> each work-group first copies
 * its block of the array A from A_s into __local memory, coalesced, and
 * its one indirect reference A[P[E]] reads that copy as dl_share[P[E]];
 * the runtime passes A_s in A's place, the block-local indices L in P's,
 * and dl_block_pos, dl_block_size and dl_share after the parameters
 * (docs/annotations.md, "Sharing").
 *
 * The copy and its barrier come first in the body, where every
 * work-item of the group reaches them.  The form is written where:
 *   - the redirected form is (the references are the kernel's only
 *     annotated reads, A read-only);
 *   - they all read one array through one index buffer with no offset
 *     (one block per group; L replaces P whole);
 *   - the job-swapped form is (jobswap.c: no work-group functions,
 *     barriers or __local memory of its own, which the prologue's
 *     barrier and local memory could disturb, and jobs that may move
 *     between groups, as the runtime's clustering moves them).
 * Whether P is read other than in those references the runtime checks
 * (the kernel's scan): it declines there. */
#include "analyze.h"

#include <stdlib.h>
#include <string.h>

static int no_share(dla_kernel *k, const char *why)
{
    k->share_reason = dla_strdup(why);
    return k->share_reason ? 0 : -1;
}

/* The element type of the gather parameter's "__global const T *name". */
static char *share_type(const dla_gather *g)
{
    static const char lead[] = "__global const ";
    size_t n = strlen(g->decl), tail = strlen(g->name) + 2; /* " *name" */
    if (strncmp(g->decl, lead, sizeof lead - 1) || n < sizeof lead + tail)
        return NULL;
    char *t = calloc(1, n - (sizeof lead - 1) - tail + 1);
    if (t)
        memcpy(t, g->decl + sizeof lead - 1, n - (sizeof lead - 1) - tail);
    return t;
}

/* "A P +": A's spelling. */
static char *share_array(const dla_gather *g)
{
    size_t n = strcspn(g->key, " ");
    char *a = calloc(1, n + 1);
    if (a)
        memcpy(a, g->key, n);
    return a;
}

/* "A P +" (no offset): P's spelling, else NULL. */
static char *share_via(const dla_gather *g)
{
    const char *sp = strchr(g->key, ' ');
    const char *sign = sp ? strchr(sp + 1, ' ') : NULL;
    if (!sign || strcmp(sign, " +") != 0)
        return NULL;
    char *via = calloc(1, (size_t)(sign - sp));
    if (via)
        memcpy(via, sp + 1, (size_t)(sign - sp - 1));
    return via;
}

int dla_share(ctx *c)
{
    dla_kernel *k = c->k;
    if (!k->nredirects)
        return 0; /* no annotated read */
    if (k->redirect_reason)
        return no_share(k, "no redirected form");
    for (unsigned i = 0; i < k->nargs; i++)
        if (k->args[i].transformed)
            return no_share(k, "the kernel's records are rewritten");
    if (!k->jobswap)
        return no_share(k, "no job-swapped form (its jobs could see their "
                           "work-group or one another)");
    if (k->ngathers != 1)
        return no_share(k, "it reads more than one array, or with more than "
                           "one index buffer or offset, through index "
                           "buffers");
    k->share_via = share_via(&k->gathers[0]);
    if (!k->share_via)
        return no_share(k, "its reference has an offset");
    k->share_type = share_type(&k->gathers[0]);
    k->share_array = share_array(&k->gathers[0]);
    if (!k->share_type || !k->share_array)
        return -1;
    k->share = 1;
    return 0;
}
