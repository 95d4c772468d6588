/* hash.h - the one hash of dlayout: 64-bit FNV-1a.  It names dumped and
 * injected sources, binary-cache files and calibration files, and keys
 * the tuner's launch signatures; names written to disk depend on it, so
 * it must not change. */
#ifndef DL_HASH_H
#define DL_HASH_H

#include <stddef.h>
#include <stdint.h>

#define DL_HASH_SEED 0xcbf29ce484222325ull /* FNV-1a's offset basis */

/* Continues hash h over len bytes of data. */
uint64_t dl_hash(uint64_t h, const void *data, size_t len);

#endif
