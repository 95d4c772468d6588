/* clock.h - the one clock of dlayout's own timings: CLOCK_MONOTONIC. */
#ifndef DL_CLOCK_H
#define DL_CLOCK_H

#include <stdint.h>

/* Nanoseconds since an arbitrary fixed point. */
uint64_t dl_now_ns(void);

#endif
