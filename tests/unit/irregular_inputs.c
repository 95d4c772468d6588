/* irregular_inputs.c - the inputs and checks of irregular_inputs.h. */
#include "irregular_inputs.h"
#include "dlayout_irregular.h"

#include <stdlib.h>

const int64_t figure4_elem[FIGURE4_JOBS] = {
    FIG_A, FIG_A, FIG_B, FIG_B, FIG_C, FIG_C, FIG_D, FIG_D,
    FIG_E, FIG_E, FIG_A, FIG_A, FIG_B, FIG_B, FIG_C, FIG_C,
    FIG_D, FIG_D, FIG_E, FIG_F, FIG_G, FIG_H, FIG_A, FIG_A};

static uint64_t splitmix(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int64_t *random_reads(size_t n, size_t k, uint64_t seed)
{
    int64_t *elem = malloc((n ? n : 1) * sizeof *elem);
    for (size_t i = 0; elem && i < n; i++)
        elem[i] = (int64_t)(splitmix(&seed) % k);
    return elem;
}

/* A shuffled numbering of the grid points (Fisher-Yates). */
static size_t *shuffled(size_t count, uint64_t seed)
{
    size_t *number = malloc(count * sizeof *number);
    for (size_t i = 0; number && i < count; i++)
        number[i] = i;
    for (size_t i = count; number && i > 1; i--) {
        size_t j = splitmix(&seed) % i;
        size_t tmp = number[i - 1];
        number[i - 1] = number[j];
        number[j] = tmp;
    }
    return number;
}

/* Appends grid point (x, y, z)'s number if it lies in the grid. */
static void add_point(const size_t *number, size_t side, long x, long y, long z,
                      int64_t *elem, size_t *n)
{
    long s = (long)side;
    if (x < 0 || y < 0 || z < 0 || x >= s || y >= s || z >= s)
        return;
    elem[(*n)++] = (int64_t)number[(size_t)((z * s + y) * s + x)];
}

int64_t *stencil_reads(size_t side, uint64_t seed, size_t *n)
{
    static const int step[7][3] = {{0, 0, 0}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0},
                                   {0, 1, 0}, {0, 0, -1}, {0, 0, 1}};
    size_t points = side * side * side;
    size_t *number = shuffled(points, seed);
    size_t *point_of = malloc(points * sizeof *point_of);
    int64_t *elem = malloc(7 * points * sizeof *elem);
    *n = 0;
    if (!number || !point_of || !elem) {
        free(number);
        free(point_of);
        free(elem);
        return NULL;
    }
    for (size_t g = 0; g < points; g++)
        point_of[number[g]] = g;
    for (size_t r = 0; r < points; r++) {
        size_t g = point_of[r];
        long x = (long)(g % side), y = (long)(g / side % side),
             z = (long)(g / side / side);
        for (int k = 0; k < 7; k++)
            add_point(number, side, x + step[k][0], y + step[k][1],
                      z + step[k][2], elem, n);
    }
    free(number);
    free(point_of);
    return elem;
}

int is_permutation(const size_t *job, size_t n)
{
    unsigned char *seen = calloc(n ? n : 1, 1);
    int ok = seen != NULL;
    for (size_t t = 0; ok && t < n; t++) {
        ok = job[t] < n && !seen[job[t]];
        if (ok)
            seen[job[t]] = 1;
    }
    free(seen);
    return ok;
}

uint64_t transactions(const int64_t *item_elem, size_t n, unsigned w,
                      unsigned e, uint64_t *accesses)
{
    dl_coalesce_geometry g = {w, e * 4};
    dl_coalesce_ref ref = {4, 0, 4, 0};
    dl_coalesce_range r = {n, 1, 0, 1, 0};
    dl_coalesce_counts c = {0, 0, 0};
    if (dl_coalesce_count(&g, &ref, &r, item_elem, n, 8, &c) != DL_SUCCESS)
        return UINT64_MAX;
    if (accesses)
        *accesses = c.accesses;
    return c.before;
}

int64_t *reads_after(const int64_t *elem, const size_t *job, size_t n)
{
    int64_t *out = malloc((n ? n : 1) * sizeof *out);
    for (size_t t = 0; out && t < n; t++)
        out[t] = elem[job[t]];
    return out;
}
