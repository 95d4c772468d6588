/* dl_test.h - what the unit tests share: a seeded random generator, an
 * independent naive model of the ASTA(T) family, and OpenCL set-up.
 *
 * The naive model is written from the definition only (docs/layouts.md):
 * tile q starts at q*T*S; inside a tile of width w (T, or R = M % T for the
 * partial last tile) the part at byte offset o of size z of the record at
 * slot t sits at o*w + t*z.  It does not use the library's own geometry.
 */
#ifndef DL_TEST_H
#define DL_TEST_H

#include <dlayout.h>

#include <stddef.h>
#include <stdint.h>

/* ------------------------------------------------------------- randomness */

/* Seed from DL_TEST_SEED if set, otherwise from the clock; printed so a
 * failing run can be replayed. */
uint64_t dl_test_seed(const char *test_name);
uint64_t dl_test_rand(void);
/* Uniform in [lo, hi]. */
size_t dl_test_range(size_t lo, size_t hi);
void dl_test_fill(void *buf, size_t bytes);

/* ------------------------------------------------------------ naive model */

#define NAIVE_MAX_PARTS (2 * DL_MAX_FIELDS + 1)

typedef struct naive_part {
    uint32_t offset, size;
} naive_part;

/* The record as a list of fields and padding gaps covering [0, size),
 * rebuilt from the public dl_record_field() view.  Returns nparts. */
uint32_t naive_parts(const dl_record *rec, naive_part *parts);
/* Effective tile: min(T, max(M, 1)). */
size_t naive_tile(size_t count, size_t tile);
/* Byte offset of the part (o, z) of record i in ASTA(tile) of count
 * records of rec_size bytes. */
size_t naive_offset(size_t count, size_t tile, uint32_t rec_size, size_t i,
                    uint32_t o, uint32_t z);
/* dst := src converted from ASTA(from_tile) to ASTA(to_tile), part by
 * part.  src and dst must not overlap. */
void naive_convert(void *dst, const void *src, const dl_record *rec,
                   size_t count, size_t from_tile, size_t to_tile);

/* ---------------------------------------------------------- test records */

/* Records of every word size W = 1, 2, 4, 8, 16: uniform ones and ones with
 * padding and mixed field sizes (non-uniform: parts of several words). */
typedef struct dl_test_rec {
    const char *name;
    dl_field fields[4];
    uint32_t nfields, size;
} dl_test_rec;

extern const dl_test_rec dl_test_recs[];
extern const size_t dl_test_nrecs;
/* Creates dl_test_recs[index]; aborts if the library refuses it. */
dl_record *dl_test_record(size_t index);
/* "AoS", "DA" or "ASTA(T)": what ASTA(tile) of count records really is. */
const char *dl_test_layout_name(char *out, size_t n, size_t count, size_t tile);

/* ----------------------------------------------------------------- OpenCL */

typedef struct dl_test_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
} dl_test_cl;

/* Opens the first platform with a device (or the first whose name contains
 * $DL_TEST_PLATFORM).  Returns 0 on success, prints why otherwise. */
int dl_test_cl_open(dl_test_cl *cl);
void dl_test_cl_close(dl_test_cl *cl);
/* A buffer holding `bytes` bytes copied from `data`. */
cl_mem dl_test_buffer(const dl_test_cl *cl, const void *data, size_t bytes);
/* Blocking read of the whole `bytes`. */
void dl_test_read(const dl_test_cl *cl, cl_mem buf, void *out, size_t bytes);

/* cmocka group fixture: an OpenCL device and a dlayout engine on it. */
typedef struct dl_test_fixture {
    dl_test_cl cl;
    dl_engine *engine;
} dl_test_fixture;

int dl_test_fixture_setup(void **state, const char *seed_name);
int dl_test_fixture_teardown(void **state);

#endif
