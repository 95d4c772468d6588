/* host.h - what the integration programs share.  They are ordinary
 * OpenCL 1.2 host programs: nothing here knows about dlayout.  Every
 * program prints its results to stdout deterministically (a digest and a
 * short excerpt of each output), so that a plain run and a run under
 * dl-run can be compared byte for byte. */
#ifndef DL_IT_HOST_H
#define DL_IT_HOST_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stddef.h>
#include <stdint.h>

/* The record of kernels/particles.cl: fields of 4, 4, 8, 2 and 1 bytes
 * and 5 bytes of padding at the end (24 bytes in all). */
typedef struct particle {
    float x;      /*  0:4 */
    int32_t id;   /*  4:4 */
    int64_t mass; /*  8:8 */
    int16_t tag;  /* 16:2 */
    uint8_t flag; /* 18:1 */
} particle;

/* Record counts that are not multiples of the tiles the kernels ask for
 * (asta(8)): full tiles plus a tail. */
#define IT_RECORDS 1003

/* Exits with a message naming the failed call. */
#define CHECK(call) it_check((call), #call, __FILE__, __LINE__)
void it_check(cl_int err, const char *what, const char *file, int line);
void it_fail(const char *fmt, ...)
    __attribute__((format(printf, 1, 2), noreturn));

typedef struct it_cl {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue; /* in order */
} it_cl;

/* The first platform with a device (or the one whose name contains
 * $DL_TEST_PLATFORM), its first device, a context and an in-order
 * queue. */
void it_cl_open(it_cl *cl);
void it_cl_close(it_cl *cl);

/* Reads kernels/<name> and builds it for cl->device with `options`. */
/* The text of kernels/<name> (malloc'd, NUL-terminated). */
char *it_read_kernel_file(const char *name);
cl_program it_build(const it_cl *cl, const char *name, const char *options);
cl_kernel it_kernel(cl_program program, const char *name);

/* n particles with distinct, deterministic contents; the padding bytes
 * are filled too, so that the digests also cover them. */
void it_particles_init(particle *p, size_t n, uint32_t seed);

/* Prints "<label>: bytes=N fnv=HHHHHHHHHHHHHHHH head=..." for data. */
void it_print_digest(const char *label, const void *data, size_t size);
/* Reads `size` bytes of buf (blocking) and prints their digest. */
void it_print_buffer(const it_cl *cl, cl_mem buf, size_t size,
                     const char *label);

/* A READ_WRITE | COPY_HOST_PTR | extra_flags buffer of n particles made
 * by it_particles_init(seed). */
cl_mem it_particle_buffer(const it_cl *cl, cl_mem_flags extra_flags, size_t n,
                          uint32_t seed);
/* Enqueues a 1D launch of `global` work-items (local size left to
 * OpenCL) with no events. */
void it_run(cl_command_queue queue, cl_kernel kernel, size_t global);

/* Sets the arguments of particles.cl's `advance(p, n, dx)`. */
void it_set_advance_args(cl_kernel advance, cl_mem p, cl_int n, cl_float dx);
/* global size: n rounded up to 64 */
size_t it_round_up(size_t n);

#endif
