/* irr_gen_records.c - a gather over 32-byte records through two index
 * arrays: out[i] combines rec[p[i]] and rec[q[i]], p and q drawn uniformly
 * (a join or an edge list's two ends).  Two references to one array
 * through different P, each with an A' of its own. */
#include "irr_workload.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECORD_FLOATS 8

static int32_t *random_index(size_t n, size_t below, uint64_t *rng)
{
    int32_t *p = malloc((n ? n : 1) * sizeof *p);
    for (size_t i = 0; p && i < n; i++)
        p[i] = (int32_t)irr_rand_below(rng, below);
    return p;
}

static irr_ref record_ref(const char *label, int rec, int p, int ap,
                          size_t lookups)
{
    return (irr_ref){.label = label,
                     .a = rec,
                     .p = p,
                     .a_prime = ap,
                     .ref = {RECORD_FLOATS * sizeof(float), 0, 0, 0},
                     .range = {lookups, 1, 0, 1, 0}};
}

int irr_gen_records(size_t records, size_t lookups, uint64_t seed,
                    irr_workload *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "records-pair");
    uint64_t rng = seed;
    size_t rec_bytes = RECORD_FLOATS * sizeof(float);
    float *rec = malloc((records ? records : 1) * rec_bytes);
    for (size_t i = 0; rec && i < records * RECORD_FLOATS; i++)
        rec[i] = irr_rand_float(&rng);
    int32_t *p = random_index(lookups, records, &rng);
    int32_t *q = random_index(lookups, records, &rng);
    if (!rec || !p || !q) {
        free(rec);
        free(p);
        free(q);
        return 0;
    }
    int rb = irr_add_buf(w, rec, records * rec_bytes);
    int pb = irr_add_buf(w, p, lookups * sizeof(int32_t));
    int qb = irr_add_buf(w, q, lookups * sizeof(int32_t));
    int out = irr_add_buf(w, NULL, lookups * sizeof(float));
    int ap = irr_add_buf(w, NULL, lookups * rec_bytes);
    int aq = irr_add_buf(w, NULL, lookups * rec_bytes);
    const int plain[] = {rb, pb, qb, out}, redirect[] = {ap, aq, out};
    for (int i = 0; i < 4; i++)
        irr_plain_arg(w, plain[i], 0);
    for (int i = 0; i < 3; i++)
        irr_redirect_arg(w, redirect[i], 0);
    irr_plain_arg(w, -1, (unsigned)lookups);
    irr_redirect_arg(w, -1, (unsigned)lookups);
    w->refs[w->nrefs++] = record_ref("rec via p", rb, pb, ap, lookups);
    w->refs[w->nrefs++] = record_ref("rec via q", rb, qb, aq, lookups);
    w->plain = "records_pair";
    w->redirect = "records_pair_redirect";
    w->threads = lookups;
    w->out = out;
    return 1;
}
