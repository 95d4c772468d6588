/* algo_staged_cycles.c - DA <-> ASTA(T) on CPUs by cycle following
 * without atomics, one work-item per slice of every chunk of a group of
 * cycles (marshal_kernels/staged_cycles.cl), with the cycle leaders marked
 * by the host; the tail split is tail.c's.  Used directly for chunks of
 * T*W >= 128 bytes and as stage 1 of the staged route for shorter ones.
 *
 * Device memory beyond the buffer: one temporary per enqueue for the map:
 * the leader bitmap (one bit per chunk of T*W bytes: at most 0.1% of the
 * buffer when T*W >= 128) and the group ranges.  (The tail split needs
 * none on CPUs; the temporary would serve it first if it did.) */
#include "clapi.h"
#include "tail.h"

#include <stdlib.h>
#include <string.h>

/* Work-items: a few per core.  A chunk is cut into slices of at least
 * CYCLES_MIN_SLICE_BYTES (a random access should fetch whole lines, and a
 * CPU streams longer runs better: 512 B measured best at T = 256, W = 4)
 * and at most CYCLES_MAX_SLICE_BYTES (the carried slice is a private
 * array); the cycles are split into groups for the rest. */
#define CYCLES_ITEMS_PER_CORE  8u
#define CYCLES_MIN_SLICE_BYTES 512u
#define CYCLES_MAX_SLICE_BYTES 32768u
/* Moves whose slices are prefetched ahead of the current one (16 measured
 * ~1.4x faster than 4 on 128-byte chunks). */
#define CYCLES_AHEAD 16u
/* Chunks of the next cycle prefetched when a cycle starts (S = 16, T =
 * 256, cycles of four chunks: 0.45-0.54 of a copy's CPU time -> 0.8-0.86). */
#define CYCLES_COMING 4u

enum { P_SLICE, P_SLICES, P_GROUPS };

/* The map (written into the step's temporary before the cycles run):
 * [ranges: groups + 1 ulongs | leader bitmap]. */
typedef struct cycles_state {
    uint64_t *map;
    size_t map_bytes;
} cycles_state;

static int cycles_fits(const dl_engine *e, const dl_step_desc *d)
{
    return e->local_is_global && d->tile <= UINT32_MAX / 2 &&
           d->count / d->tile * d->rec->rec_words < UINT32_MAX / 2;
}

int dl_cycles_suits(const dl_engine *e, const dl_record *rec, size_t count,
                    size_t tile)
{
    dl_step_desc d = {rec, count, tile, 0, 0};
    return rec->nparts > 1 && tile * rec->word >= DL_CYCLES_MIN_CHUNK_BYTES &&
           cycles_fits(e, &d);
}

/* Where chunk c goes: the host copy of dl_chunk_next (common.cl). */
static size_t chunk_next(const uint32_t *start, const uint32_t *len,
                         uint32_t rw, size_t c, size_t q, int inverse)
{
    if (!inverse) {
        size_t u = c / q, us = start[u], k = len[u], rem = c - us * q;
        return rem / k * rw + us + rem % k;
    }
    size_t tq = c / rw, u = c % rw, us = start[u], k = len[u];
    return us * q + tq * k + (u - us);
}

/* The leader bitmap and the group ranges.  A group's range of leaders ends
 * once it holds its share of the moves. */
static dl_status make_map(dl_step *s, cycles_state *cs)
{
    const dl_record *r = s->desc.rec;
    size_t q = s->desc.count / s->desc.tile, n = q * r->rec_words;
    size_t groups = s->params[P_GROUPS], words = dl_div_up(n, 32);
    size_t bytes = (groups + 1) * sizeof(uint64_t) + words * 4;
    uint32_t *start = malloc(r->rec_words * sizeof *start);
    uint32_t *len = malloc(r->rec_words * sizeof *len);
    uint8_t *seen = malloc(n / 8 + 1); /* one bit per chunk */
    uint64_t *host = calloc(bytes / 8 + 1, 8);
    dl_status st = DL_SUCCESS;
    if (!start || !len || !seen || !host) {
        st = dl_fail(DL_OUT_OF_MEMORY, "out of host memory (%zu chunks)", n);
        goto out;
    }
    for (uint32_t p = 0; p < r->nparts; p++)
        for (uint32_t j = 0; j < r->parts[p].size / r->word; j++) {
            start[r->parts[p].offset / r->word + j] =
                r->parts[p].offset / r->word;
            len[r->parts[p].offset / r->word + j] = r->parts[p].size / r->word;
        }
    uint64_t *ranges = host;
    uint32_t *map = (uint32_t *)(host + groups + 1);
    size_t moves = 0, total = 0;
    for (int pass = 0; pass < 2; pass++) { /* count, then split */
        memset(seen, 0, n / 8 + 1);
        size_t g = 1;
        for (size_t v = 0; v < n; v++) {
            if (seen[v / 8] & (1u << (v % 8)))
                continue;
            size_t c = v, length = 0;
            do {
                seen[c / 8] |= (uint8_t)(1u << (c % 8));
                length++;
                c = chunk_next(start, len, r->rec_words, c, q, s->desc.inverse);
            } while (c != v);
            if (length < 2)
                continue;
            if (pass == 0) {
                total += length;
                map[v / 32] |= 1u << (v % 32);
                continue;
            }
            while (g < groups && moves >= total * g / groups)
                ranges[g++] = v;
            moves += length;
        }
        for (; pass == 1 && g <= groups; g++)
            ranges[g] = n;
    }
    ranges[0] = 0;
    cs->map_bytes = bytes;
    cs->map = host;
    host = NULL;
out:
    free(start);
    free(len);
    free(seen);
    free(host);
    return st;
}

static void cycles_release(dl_step *s)
{
    cycles_state *cs = s->priv;
    if (cs)
        free(cs->map);
    free(cs);
    s->priv = NULL;
}

static dl_status prepare_step(dl_engine *e, dl_step *s)
{
    const dl_step_desc *d = &s->desc;
    if (d->rec->nparts < 2)
        return DL_SUCCESS; /* one part: DA and ASTA(T) are the same bytes */
    size_t items = CYCLES_ITEMS_PER_CORE * (size_t)e->compute_units;
    size_t slice = dl_div_up(d->tile, items);
    size_t least = CYCLES_MIN_SLICE_BYTES / d->rec->word;
    size_t most = CYCLES_MAX_SLICE_BYTES / d->rec->word;
    slice = slice < least ? least : slice > most ? most : slice;
    if (slice > d->tile)
        slice = d->tile;
    size_t slices = dl_div_up(d->tile, slice);
    s->params[P_SLICE] = slice;
    s->params[P_SLICES] = slices;
    s->params[P_GROUPS] = slices >= items ? 1 : items / slices;

    cycles_state *cs = calloc(1, sizeof *cs);
    DL_RETURN_ERROR_ON(!cs, DL_OUT_OF_MEMORY, "out of host memory");
    s->priv = cs;
    DL_RETURN_IF_FAIL(make_map(s, cs));
    dl_spec spec;
    dl_spec_init(&spec);
    dl_spec_record(&spec, d->rec);
    dl_spec_define(&spec, "DL_T", "%zuu", d->tile);
    dl_spec_define(&spec, "DL_C", "%zuu", slice);
    dl_spec_define(&spec, "DL_S", "%zuu", slices);
    /* No direction: staged_cycles.cl holds both, so a marshal and its
     * restore share one program. */
    dl_spec_define(&spec, "DL_P", "1u");
    dl_spec_define(&spec, "DL_AHEAD", "%uu", CYCLES_AHEAD);
    dl_spec_define(&spec, "DL_COMING", "%uu", CYCLES_COMING);
    dl_status st = dl_engine_kernel(e, "staged_cycles.cl", &spec,
                                    d->inverse ? "dl_staged_cycles_inverse"
                                               : "dl_staged_cycles",
                                    &s->kernels[0]);
    dl_spec_free(&spec);
    DL_RETURN_IF_FAIL(st);
    DL_RETURN_IF_FAIL(dl_tail_prepare(e, s));
    size_t tail = dl_tail_temp_bytes(s); /* the map reuses the tail's */
    s->extra_bytes = cs->map_bytes > tail ? cs->map_bytes : tail;
    return DL_SUCCESS;
}

static dl_status cycles_prepare(dl_engine *e, dl_step *s)
{
    dl_status st = prepare_step(e, s);
    if (st != DL_SUCCESS) /* the planner drops the step: free it here */
        cycles_release(s);
    return st;
}

static dl_status enqueue_cycles(dl_step *s, dl_chain *c, cl_mem buf, cl_mem tmp,
                                const void *map)
{
    cycles_state *cs = s->priv;
    cl_kernel k = s->kernels[0];
    cl_ulong q = s->desc.count / s->desc.tile;
    cl_uint groups = (cl_uint)s->params[P_GROUPS];
    size_t global = s->params[P_SLICES] * s->params[P_GROUPS], one = 1;
    DL_RETURN_IF_FAIL(dl_chain_write(c, tmp, map, cs->map_bytes));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 0, sizeof buf, &buf));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 1, sizeof tmp, &tmp));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 2, sizeof q, &q));
    DL_RETURN_IF_FAIL(dl_set_arg(k, 3, sizeof groups, &groups));
    return dl_chain_kernel(c, k, 1, &global, &one);
}

static void CL_CALLBACK free_copy(cl_mem mem, void *copy)
{
    (void)mem;
    free(copy);
}

/* One temporary serves the tail split and then the map (or the map and
 * then the merge).  The map is written from a copy that lives as long as
 * the temporary, so a plan may be released while its commands run. */
static dl_status cycles_enqueue(dl_step *s, dl_chain *c, cl_mem buf)
{
    if (!s->kernels[0])
        return DL_SUCCESS;
    cycles_state *cs = s->priv;
    void *map = malloc(cs->map_bytes);
    DL_RETURN_ERROR_ON(!map, DL_OUT_OF_MEMORY, "out of host memory");
    memcpy(map, cs->map, cs->map_bytes);
    cl_int err;
    cl_mem tmp = dl_cl.clCreateBuffer(c->engine->context, CL_MEM_READ_WRITE,
                                      s->extra_bytes, NULL, &err);
    if (err != CL_SUCCESS)
        free(map);
    DL_RETURN_ON_CL(err, "clCreateBuffer (cycle leaders)");
    err = dl_cl.clSetMemObjectDestructorCallback(tmp, free_copy, map);
    if (err != CL_SUCCESS) {
        free(map);
        dl_cl.clReleaseMemObject(tmp);
    }
    DL_RETURN_ON_CL(err, "clSetMemObjectDestructorCallback");
    dl_status st = DL_SUCCESS;
    if (!s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    if (st == DL_SUCCESS)
        st = enqueue_cycles(s, c, buf, tmp, map);
    if (st == DL_SUCCESS && s->desc.inverse)
        st = dl_tail_enqueue(s, c, buf, tmp);
    dl_cl.clReleaseMemObject(tmp); /* freed once the queued commands finish */
    return st;
}

const dl_algo_ops dl_algo_staged_cycles = {
    .name = "cycles",
    .algo = DL_ALGO_AUTO,
    .kind = DL_STEP_CHUNKS,
    .fits = cycles_fits,
    .prepare = cycles_prepare,
    .enqueue = cycles_enqueue,
    .release = cycles_release,
    .both_directions = 1,
};
