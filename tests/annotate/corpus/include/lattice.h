/* lattice.h - the macros of 65_macro_header.cl, in a header as Parboil's
 * lbm_macros.h keeps them: the accesses' operators are spelled here. */
#ifndef LATTICE_H
#define LATTICE_H
typedef enum { C = 0, N, S, FLAGS, N_CELL_ENTRIES } CELL_ENTRIES;
#define CALC_INDEX(x, e)  (e + N_CELL_ENTRIES * (x))
#define MARGIN            (CALC_INDEX(2, 0) - CALC_INDEX(0, 0))
#define LOCAL(g, e)       ((g)[CALC_INDEX(cell, e)])
#define NEIGHBOR(g, e, d) ((g)[CALC_INDEX(cell + (d), e)])
#define SRC_C(g)          (LOCAL(g, C))
#define SRC_N(g)          (LOCAL(g, N))
#define DST_C(g)          (NEIGHBOR(g, C, 0))
#define DST_N(g)          (NEIGHBOR(g, N, +1))
#endif
