/* irregular_inputs.h - what the tests of the irregular planners share
 * (test_padding.c, test_sharing.c, test_job_swap.c): the inputs of the
 * papers' examples and the reported figures, and checks written from the
 * definitions (the analyser counts the transactions). */
#ifndef IRREGULAR_INPUTS_H
#define IRREGULAR_INPUTS_H

#include <stddef.h>
#include <stdint.h>

/* Figure 4 of 000: 24 work-items read a a b b | c c d d | e e a a | b b c c
 * | d d e f | g h a a, the layout being a c e g | b d f h (elements a=0
 * c=1 e=2 g=3 b=4 d=5 f=6 h=7); 4 elements per segment, 4 per warp. */
enum {
    FIG_A = 0,
    FIG_C = 1,
    FIG_E = 2,
    FIG_G = 3,
    FIG_B = 4,
    FIG_D = 5,
    FIG_F = 6,
    FIG_H = 7
};
#define FIGURE4_JOBS 24
extern const int64_t figure4_elem[FIGURE4_JOBS];

/* n reads of elements uniform in [0, k), from a fixed seed (the figures
 * reported in docs/irregular.md).  The caller frees. */
int64_t *random_reads(size_t n, size_t k, uint64_t seed);

/* The reads of a 7-point stencil on a side^3 grid whose vertices are
 * numbered in a shuffled order (fixed seed): row r (vertex r) reads
 * itself and its neighbours, rows one after the other (CSR order), so
 * *n is the entries.  The caller frees. */
int64_t *stencil_reads(size_t side, uint64_t seed, size_t *n);

/* Whether job[0..n) is a permutation of [0, n). */
int is_permutation(const size_t *job, size_t n);

/* The transactions of work-item t reading element item_elem[t], 4-byte
 * elements, W per warp, E per segment (dl_coalesce_count's `before`);
 * *accesses gets the warp-accesses (when not NULL). */
uint64_t transactions(const int64_t *item_elem, size_t n, unsigned w,
                      unsigned e, uint64_t *accesses);

/* elem[job[t]] for every t: what work-item t reads after a job map.  The
 * caller frees. */
int64_t *reads_after(const int64_t *elem, const size_t *job, size_t n);

#endif
