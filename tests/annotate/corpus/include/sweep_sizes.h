/* sweep_sizes.h - the sizes of 73_count_header.cl, in a guarded header
 * as a configuration header keeps them. */
#ifndef SWEEP_SIZES_H
#define SWEEP_SIZES_H
#define LANES 16
#define ROWS  (LANES * 12)
#endif
