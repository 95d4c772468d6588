/* tuner_calib.h - what one device costs: copy bandwidth, the access cost
 * of AoS, DA and ASTA(T) records, and the conversion throughput of the
 * marshaling algorithms (issue 6).  Measured once per (platform, device,
 * driver) and kept in a per-user text file (docs/tuning.md):
 *
 *   $XDG_CACHE_HOME/dlayout/calibration-<key>.txt
 *   (or ~/.cache/dlayout/ when XDG_CACHE_HOME is unset)
 *
 * tuner_calib.c reads and writes the file (no OpenCL), tuner_measure.c
 * measures (marshal_kernels/calib_access.cl and dl_enqueue_convert). */
#ifndef DL_TUNER_CALIB_H
#define DL_TUNER_CALIB_H

#include "dlayout.h"

#include <stdint.h>
#include <stdio.h>

#define DL_CALIB_VERSION     3
#define DL_CALIB_TEXT_MAX    128
#define DL_CALIB_MAX_ACCESS  64
#define DL_CALIB_MAX_CONVERT 16
/* Two calibrations of one machine, one while it was loaded, disagreed on
 * which layout wins (AoS 9.3 vs 32.8 ns at 19 fields): a calibration whose
 * repeated measurements spread more than this is noisy (tuner_keep.c). */
#define DL_CALIB_NOISY_SPREAD 0.25
/* A noisy calibration is cached but measured again by the next run, up to
 * this many noisy ones in a row: a machine that is always busy then keeps
 * the least noisy, rather than paying a calibration every run. */
#define DL_CALIB_NOISY_TRIES 3u

/* Tile numbers in the calibration: 1 = AoS, DL_CALIB_TILE_DA = DA,
 * DL_CALIB_TILE_DA_4K = DA whose field arrays are a multiple of 4 KiB
 * apart (the trap of tuner_alias.c, "DA4K" in the file), else ASTA(T). */
#define DL_CALIB_TILE_DA    0u
#define DL_CALIB_TILE_DA_4K UINT32_MAX

/* Whether a calibration tile is an ASTA(T) tile (T > 1). */
static inline int dl_calib_tile_is_asta(uint32_t tile)
{
    return tile > 1 && tile != DL_CALIB_TILE_DA_4K;
}

typedef struct dl_calib_access {
    uint32_t words;       /* record size S in 4-byte words */
    uint32_t tile;        /* 1 AoS, DL_CALIB_TILE_DA DA, else ASTA(T) */
    double ns_per_record; /* read and write every field of one record */
} dl_calib_access;

typedef struct dl_calib_convert {
    dl_algo algo;        /* as dl_enqueue_convert was asked */
    uint32_t words;      /* record size S in 4-byte words */
    uint32_t tile;       /* target: AoS -> this tile */
    double bytes_per_ns; /* buffer bytes converted per ns */
    uint32_t min_field;  /* bytes of the record's smallest field (0: 4) */
} dl_calib_convert;

struct dl_calibration {
    char platform[DL_CALIB_TEXT_MAX], device[DL_CALIB_TEXT_MAX],
        driver[DL_CALIB_TEXT_MAX];
    uint64_t key;             /* dl_calib_key of the three above */
    double copy_bytes_per_ns; /* clEnqueueCopyBuffer */
    double measure_ms;        /* how long the calibration took */
    /* A program built again, so served from the driver's cache (POCL's):
     * what building a marshal program costs at least, even when its
     * binary is cached (version 2). */
    double build_ms;
    /* The largest relative spread of the repeated access measurements
     * (dl_calib_spread); noisy above DL_CALIB_NOISY_SPREAD. */
    double spread;
    /* Noisy calibrations in a row behind this one (0: it is quiet). */
    unsigned noisy_runs;
    unsigned naccess, nconvert;
    dl_calib_access access[DL_CALIB_MAX_ACCESS];
    dl_calib_convert convert[DL_CALIB_MAX_CONVERT];
};
typedef struct dl_calibration dl_calibration;

/* FNV-1a of "platform\ndevice\ndriver"; never 0. */
uint64_t dl_calib_key(const char *platform, const char *device,
                      const char *driver);
/* Fills the names and the key (truncating over-long names). */
void dl_calib_set_identity(dl_calibration *c, const char *platform,
                           const char *device, const char *driver);

/* The cache file of `key`: $XDG_CACHE_HOME/dlayout/calibration-<16 hex>.txt
 * or $HOME/.cache/dlayout/...  DL_UNSUPPORTED when neither is set. */
dl_status dl_calib_path(uint64_t key, char *buf, size_t size);

/* The text form (human-readable, one fact per line). */
void dl_calib_print(FILE *out, const dl_calibration *c);
/* Writes through a temporary file and a rename, creating the directory. */
dl_status dl_calib_save(const char *path, const dl_calibration *c);
/* Reads a file written by dl_calib_save.  DL_INVALID_ARGUMENT (with
 * dl_last_error saying which line) when it is not a calibration file of
 * this version, DL_INCOMPATIBLE when it belongs to another device than
 * `expect` (compared by platform, device and driver), DL_UNSUPPORTED when
 * it does not exist or is of an older version (measured again, without a
 * warning: it is no fault). */
dl_status dl_calib_load(const char *path, const dl_calibration *expect,
                        dl_calibration *out);

/* How far apart two sizes are on a log scale, as a ratio >= 1 (no libm:
 * the runtime does not link it). */
static inline double size_ratio(double a, double b)
{
    return a > b ? a / b : b / a;
}

/* Lookups used by the static choice: the entry with the nearest record
 * size (in log scale) and this tile; NULL if none. */
const dl_calib_access *dl_calib_find_access(const dl_calibration *c,
                                            uint32_t words, uint32_t tile);
/* The ASTA tile (T > 1, not DA) with the cheapest measured access at the
 * nearest record size: the device's choice for asta(auto) targets; 0 if
 * the calibration measured none. */
uint32_t dl_calib_best_asta_tile(const dl_calibration *c, uint32_t words);
/* The best conversion throughput measured for AoS -> tile (any algo) of
 * records whose smallest field is nearest `min_field` bytes (small fields
 * convert far slower: a 24-byte record with fields of 8, 4, 2 and 1 bytes
 * at 0.2 bytes/ns against 5-15 for floats here), then at the nearest
 * record size; another tile's when none of that kind was measured for
 * this one; 0 if none. */
double dl_calib_convert_rate(const dl_calibration *c, uint32_t words,
                             uint32_t tile, uint32_t min_field);

/* ------------------------------------ telling the user (tuner_keep.c) */

/* DL_CALIBRATION_NOTICE, read from the environment. */
int dl_calib_notice_enabled(void);
/* The one line a run that calibrates prints first (warning level),
 * unless DL_CALIBRATION_NOTICE=0; `path` the cache file, or NULL; `again`
 * when the cached calibration was noisy. */
void dl_calib_announce(const char *device, const char *path, int again);
/* (second fastest - fastest) / fastest of n timed runs: how far the best
 * figure is from being repeatable; 0 for fewer than two runs. */
double dl_calib_spread(const double *ns, unsigned n);
/* c->spread > DL_CALIB_NOISY_SPREAD. */
int dl_calib_is_noisy(const dl_calibration *c);
/* Whether a cached calibration should be measured again: it is noisy and
 * fewer than DL_CALIB_NOISY_TRIES noisy ones were measured in a row. */
int dl_calib_remeasure(const dl_calibration *cached);
/* After measuring `fresh` again over the noisy `cached` (NULL: none):
 * the less noisy of the two, with noisy_runs counted on. */
void dl_calib_settle(const dl_calibration *cached, dl_calibration *fresh);
/* Caches a fresh calibration at `path` (NULL: no cache directory).  A
 * noisy one is said with one warning: the next run measures again, unless
 * DL_CALIB_NOISY_TRIES noisy ones came in a row.  A failure to write is
 * warned about once per process (every run would calibrate again) and
 * returned. */
dl_status dl_calib_keep(const char *path, const dl_calibration *c);

/* ----------------------------------------------- measuring (OpenCL) */

/* Fills the identity (platform, device, driver, key) of `device`. */
dl_status dl_calib_identity(cl_device_id device, dl_calibration *out);

typedef void (*dl_calib_progress_fn)(const char *step, unsigned done,
                                     unsigned total, void *user);

/* Measures the device (about 2 s on POCL here) with commands on `queue`
 * (any queue of the device; host-timed).  The identity comes from the
 * device and its platform. */
dl_status dl_calib_measure(cl_context context, cl_device_id device,
                           cl_command_queue queue,
                           dl_calib_progress_fn progress, void *user,
                           dl_calibration *out);

/* The runtime's entry: the cached calibration of the device, or a fresh
 * one (announced, measured, then kept: dl_calib_announce, dl_calib_keep).
 * A corrupt or foreign cache file is reported with one warning and
 * rebuilt.  `force` measures even when a cache file exists. */
dl_status dl_calib_get(cl_context context, cl_device_id device,
                       cl_command_queue queue, int force, dl_calibration *out);

/* The calibration cached for `device` (its file only: measures nothing),
 * or DL_UNSUPPORTED and friends when there is none. */
dl_status dl_calib_cached(cl_device_id device, dl_calibration *out);

/* For the runtime: the device's calibration, from dl_calib_get on the
 * first call for `device` (blocking: call it without the runtime's lock),
 * then from memory.  NULL if it could not be had (logged at info level
 * once; not tried again).  Valid for the life of the process. */
const dl_calibration *dl_calib_for_device(cl_context context,
                                          cl_device_id device,
                                          cl_command_queue queue);

#endif
