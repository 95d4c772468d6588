/* gather_ref.h - the host reference of the device gather (runtime/
 * irregular/gather.c), written from its definition: every work-item t and
 * step j of the range reads entry e = base + t*t_stride + j*j_stride of P
 * (entries past P are not read) and A'[e]'s field becomes A[P[e] + c]'s
 * field, or zero bytes when P[e] + c lies outside A.  Shared by the unit
 * test and the oclgrind driver. */
#ifndef DL_GATHER_REF_H
#define DL_GATHER_REF_H

#include "dlayout_irregular.h"

#include <stdint.h>
#include <string.h>

static inline long long gather_ref_entry(const void *p, unsigned index_bytes,
                                         size_t e)
{
    if (index_bytes == 4)
        return ((const int32_t *)p)[e];
    return ((const int64_t *)p)[e];
}

/* a: a_count elements; p: p_count entries; a_prime: at least p_count
 * elements, updated in place. */
static inline void gather_ref(const unsigned char *a, size_t a_count,
                              const void *p, size_t p_count,
                              unsigned index_bytes, const dl_coalesce_ref *ref,
                              const dl_coalesce_range *r,
                              unsigned char *a_prime)
{
    size_t elem = ref->elem_bytes, off = ref->field_offset;
    size_t bytes = ref->field_bytes ? ref->field_bytes : elem;
    for (size_t t = 0; t < r->threads; t++) {
        if (r->t_stride && r->base + t * r->t_stride >= p_count)
            break; /* and every later work-item (huge thread counts) */
        for (size_t j = 0; j < r->steps; j++) {
            size_t e = r->base + t * r->t_stride + j * r->j_stride;
            if (e >= p_count && r->j_stride)
                break; /* so are the later steps (huge step counts) */
            if (e >= p_count)
                continue;
            /* The sum in 128 bits: no entry is near enough to overflow. */
            __int128 i =
                (__int128)gather_ref_entry(p, index_bytes, e) + ref->offset;
            unsigned char *dst = a_prime + e * elem + off;
            if (i >= 0 && i < (__int128)a_count)
                memcpy(dst, a + (size_t)i * elem + off, bytes);
            else
                memset(dst, 0, bytes);
        }
    }
}

#endif
