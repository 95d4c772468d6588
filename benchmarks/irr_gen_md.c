/* irr_gen_md.c - the neighbour-list force workload (an MD-like pattern):
 * particles placed at random in a box at unit density, in random order
 * (as after a simulation has mixed them), and per particle a fixed-size
 * list of up to K neighbours within a cutoff that holds about 1.2 K of
 * them on average; short lists are padded with the particle itself, which
 * the kernel skips (zero distance).  The list is column-major,
 * nbr[j*N + i], so that lane i of a warp reads entry j of its own list. */
#include "irr_workload.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct md_cells {
    size_t per_dim, *start, *order; /* particles sorted by cell */
    double side;
} md_cells;

static size_t cell_of(const md_cells *c, const float *p)
{
    size_t k[3];
    for (int d = 0; d < 3; d++) {
        size_t v = (size_t)(p[d] / c->side);
        k[d] = v < c->per_dim ? v : c->per_dim - 1;
    }
    return (k[2] * c->per_dim + k[1]) * c->per_dim + k[0];
}

static int cells_build(md_cells *c, const float *pos, size_t n, double box,
                       double cutoff)
{
    c->per_dim = (size_t)(box / cutoff);
    c->per_dim = c->per_dim ? c->per_dim : 1;
    c->side = box / (double)c->per_dim;
    size_t cells = c->per_dim * c->per_dim * c->per_dim;
    c->start = calloc(cells + 1, sizeof *c->start);
    c->order = malloc((n ? n : 1) * sizeof *c->order);
    if (!c->start || !c->order)
        return 0;
    for (size_t i = 0; i < n; i++)
        c->start[cell_of(c, &pos[4 * i]) + 1]++;
    for (size_t k = 0; k < cells; k++)
        c->start[k + 1] += c->start[k];
    size_t *fill = malloc((cells ? cells : 1) * sizeof *fill);
    if (!fill)
        return 0;
    memcpy(fill, c->start, cells * sizeof *fill);
    for (size_t i = 0; i < n; i++)
        c->order[fill[cell_of(c, &pos[4 * i])]++] = i;
    free(fill);
    return 1;
}

/* The neighbours of i in cell (x, y, z), appended to its list at *got. */
static void scan_cell(const md_cells *c, const float *pos, size_t i, long x,
                      long y, long z, double cut2, size_t n, size_t k,
                      int32_t *nbr, size_t *got)
{
    long pd = (long)c->per_dim;
    if (x < 0 || y < 0 || z < 0 || x >= pd || y >= pd || z >= pd)
        return;
    size_t cell = ((size_t)z * c->per_dim + (size_t)y) * c->per_dim + (size_t)x;
    for (size_t s = c->start[cell]; s < c->start[cell + 1] && *got < k; s++) {
        size_t j = c->order[s];
        double r2 = 0;
        for (int d = 0; d < 3; d++) {
            double dd = (double)pos[4 * j + d] - (double)pos[4 * i + d];
            r2 += dd * dd;
        }
        if (j != i && r2 < cut2)
            nbr[(*got)++ * n + i] = (int32_t)j;
    }
}

static void neighbour_list(const md_cells *c, const float *pos, size_t n,
                           size_t k, double cutoff, int32_t *nbr)
{
    for (size_t i = 0; i < n; i++) {
        size_t got = 0;
        long ci[3];
        for (int d = 0; d < 3; d++)
            ci[d] = (long)(pos[4 * i + d] / c->side);
        for (long dz = -1; dz <= 1; dz++)
            for (long dy = -1; dy <= 1; dy++)
                for (long dx = -1; dx <= 1; dx++)
                    scan_cell(c, pos, i, ci[0] + dx, ci[1] + dy, ci[2] + dz,
                              cutoff * cutoff, n, k, nbr, &got);
        for (; got < k; got++)
            nbr[got * n + i] = (int32_t)i;
    }
}

static void md_buffers(irr_workload *w, float *pos, int32_t *nbr, size_t n,
                       size_t k)
{
    int pb = irr_add_buf(w, pos, n * 4 * sizeof(float));
    int nb = irr_add_buf(w, nbr, n * k * sizeof(int32_t));
    int f = irr_add_buf(w, NULL, n * 4 * sizeof(float));
    int pp = irr_add_buf(w, NULL, n * k * 4 * sizeof(float));
    const int plain[] = {pb, nb, f}, redirect[] = {pb, pp, f};
    for (int i = 0; i < 3; i++) {
        irr_plain_arg(w, plain[i], 0);
        irr_redirect_arg(w, redirect[i], 0);
    }
    const unsigned dims[] = {(unsigned)n, (unsigned)k};
    for (int i = 0; i < 2; i++) {
        irr_plain_arg(w, -1, dims[i]);
        irr_redirect_arg(w, -1, dims[i]);
    }
    w->refs[w->nrefs++] = (irr_ref){.label = "pos via nbr",
                                    .a = pb,
                                    .p = nb,
                                    .a_prime = pp,
                                    .ref = {4 * sizeof(float), 0, 0, 0},
                                    .range = {n, k, 0, 1, n}};
    w->out = f;
}

int irr_gen_md(size_t n, size_t k, uint64_t seed, irr_workload *w)
{
    memset(w, 0, sizeof *w);
    snprintf(w->name, sizeof w->name, "md-force");
    double box = cbrt((double)n),
           cutoff = cbrt(3.0 * 1.2 * (double)k / (4.0 * M_PI));
    float *pos = malloc((n ? n : 1) * 4 * sizeof *pos);
    int32_t *nbr = malloc((n * k + 1) * sizeof *nbr);
    md_cells c = {0, NULL, NULL, 0};
    uint64_t rng = seed;
    int ok = pos && nbr;
    for (size_t i = 0; ok && i < 4 * n; i++)
        pos[i] = i % 4 == 3
                     ? 0.0f
                     : (float)((irr_rand_float(&rng) + 1.0f) * 0.5 * box);
    ok = ok && cells_build(&c, pos, n, box, cutoff);
    if (ok)
        neighbour_list(&c, pos, n, k, cutoff, nbr);
    free(c.start);
    free(c.order);
    if (!ok) {
        free(pos);
        free(nbr);
        return 0;
    }
    w->plain = "md_force";
    w->redirect = "md_force_redirect";
    w->threads = n;
    md_buffers(w, pos, nbr, n, k);
    return 1;
}
