/* bench_remap.c - the remapping line of `dl-bench coalesce --remap`
 * (bench_remap.h): plans pi with METIS, redirects P, and counts P' with
 * the analyser. */
#include "bench_remap.h"

#include "coalesce.h"
#include "warps.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int bench_remap_form(const char *text, bench_remap_opts *o)
{
    o->on = 1;
    if (strcmp(text, "clique") == 0)
        o->params.form = DL_REMAP_CLIQUE;
    else if (strcmp(text, "hypergraph") == 0)
        o->params.form = DL_REMAP_HYPERGRAPH;
    else {
        fprintf(stderr, "dl-bench coalesce: --remap is clique or "
                        "hypergraph\n");
        return 0;
    }
    return 1;
}

int bench_remap_sample(const char *text, bench_remap_opts *o)
{
    char *end;
    errno = 0;
    double f = strtod(text, &end);
    if (errno || end == text || *end || !(f > 0 && f <= 1)) {
        fprintf(stderr,
                "dl-bench coalesce: --sample expects a fraction in "
                "(0, 1], got '%s'\n",
                text);
        return 0;
    }
    o->params.sample = f;
    return 1;
}

/* One past the largest element P's entries read (P[e] + c), at least 1. */
static size_t elements_read(const dl_coalesce_ref *ref, const bench_index *p)
{
    long long top = 0;
    for (size_t e = 0; e < p->count; e++) {
        long long x;
        if (!__builtin_add_overflow(dl_index_at(p->data, p->bytes, e),
                                    ref->offset, &x) &&
            x >= top)
            top = x == LLONG_MAX ? x : x + 1;
    }
    return top > 0 ? (size_t)top : 1;
}

/* The plan, P' and its count into *after. */
static int remap_count(dl_coalesce_geometry g, const dl_coalesce_ref *ref,
                       const dl_coalesce_range *range, const bench_index *p,
                       size_t a_count, const dl_remap_params *prm,
                       dl_remap_stats *st, dl_coalesce_counts *after)
{
    size_t *perm = malloc(a_count * sizeof *perm);
    void *p2 = malloc(p->count ? p->count * p->bytes : 1);
    int ok = perm && p2 &&
             dl_remap_plan(&g, ref, range, p->data, p->count, p->bytes, a_count,
                           prm, perm, st) == DL_SUCCESS &&
             dl_remap_redirect(ref, perm, a_count, p->data, p->count, p->bytes,
                               p2) == DL_SUCCESS &&
             dl_coalesce_count(&g, ref, range, p2, p->count, p->bytes, after) ==
                 DL_SUCCESS;
    if (!perm || !p2)
        fprintf(stderr,
                "dl-bench coalesce: no memory to remap %zu "
                "elements\n",
                a_count);
    else if (!ok)
        fprintf(stderr, "dl-bench coalesce: %s\n", dl_last_error());
    free(perm);
    free(p2);
    return ok;
}

int bench_remap_report(const char *label, dl_coalesce_geometry g,
                       const dl_coalesce_ref *ref,
                       const dl_coalesce_range *range, const bench_index *p,
                       const bench_remap_opts *o)
{
    const char *why = dl_remap_unavailable();
    if (why) {
        fprintf(stderr, "dl-bench coalesce: %s\n", why);
        return 0;
    }
    size_t a_count = o->a_count ? o->a_count : elements_read(ref, p);
    dl_coalesce_counts before, after;
    dl_remap_stats st;
    if (dl_coalesce_count(&g, ref, range, p->data, p->count, p->bytes,
                          &before) != DL_SUCCESS) {
        fprintf(stderr, "dl-bench coalesce: %s\n", dl_last_error());
        return 0;
    }
    if (!remap_count(g, ref, range, p, a_count, &o->params, &st, &after))
        return 0;
    dl_coalesce_counts shown = {before.accesses, before.before, after.before};
    double sample = o->params.sample > 0 ? o->params.sample : 1.0;
    double saved = dl_coalesce_saving_percent(&shown);
    printf("%s remap (%s): %llu -> %llu transactions (%.1f%% %s), 0 "
           "extra bytes beyond P'; sample %.2f: %llu of %llu warp-accesses, "
           "%zu patterns; %zu parts of %zu elements, %zu moved; profile "
           "%.3f s, partition %.3f s, layout %.3f s\n",
           label, o->params.form == DL_REMAP_CLIQUE ? "clique" : "hypergraph",
           (unsigned long long)before.before, (unsigned long long)after.before,
           saved < 0 ? -saved : saved, saved < 0 ? "more" : "fewer", sample,
           (unsigned long long)st.sampled, (unsigned long long)st.accesses,
           st.patterns, st.parts, st.per_segment, st.moved, st.profile_s,
           st.partition_s, st.layout_s);
    return 1;
}
