/* hash.c - 64-bit FNV-1a (hash.h). */
#include "hash.h"

uint64_t dl_hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
