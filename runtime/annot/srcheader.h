/* srcheader.h - the header an `#include` names, found where the compiler
 * would find it: for `#include "h"` the directory of the including file
 * (the current one for the program's source, where POCL looks), then the
 * build options' -I directories in order.  Which candidate a compiler
 * takes first differs between implementations, so a header is found only
 * when every place that holds one holds the same text. */
#ifndef DL_SRCHEADER_H
#define DL_SRCHEADER_H

#include <stddef.h>

/* A found header: its path and text (both malloc'd). */
typedef struct dl_srcheader {
    char *path, *text;
    size_t len;
} dl_srcheader;

/* Finds `name` (between quotes when `quoted`, else between <>) included
 * from the file `includer` (NULL: the program's source) of a build with
 * `options` ("" if none).  0 when out of memory; else 1, with h->path
 * NULL when the header is not found or places differ. */
int dl_srcheader_find(const char *includer, const char *options,
                      const char *name, int quoted, dl_srcheader *h);

void dl_srcheader_free(dl_srcheader *h);

#endif
