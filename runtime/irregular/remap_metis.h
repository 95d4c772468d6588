/* remap_metis.h - where remapping's METIS comes from (docs/irregular.md,
 * "Building with METIS"): the libmetis linked into the program (the
 * dl_remap library, which dl-bench and the tests link), or one loaded at
 * run time with dlopen (what the shim uses: it must load on a machine
 * without libmetis).  Either fills one table of METIS's entry points
 * (remap_metis_api.h), which the one partition source, remap_metis.c,
 * calls.  In a build without metis.h neither exists and both say so. */
#ifndef DL_REMAP_METIS_H
#define DL_REMAP_METIS_H

#include "dlayout.h"

typedef struct dl_metis_api dl_metis_api;

/* METIS as linked (static storage); NULL where dlayout was built without
 * METIS. */
const dl_metis_api *dl_metis_linked(void);

/* METIS loaded from `library` (a name the dynamic loader resolves, or a
 * path), its entry points resolved and its index width checked against
 * metis.h's.  DL_UNSUPPORTED, with a message naming the library and
 * what is missing, when it cannot be loaded, lacks an entry point or has
 * another idx_t, or when dlayout was built without metis.h;
 * DL_OUT_OF_MEMORY. */
dl_status dl_metis_open(const char *library, dl_metis_api **out);

/* Unloads what dl_metis_open loaded (NULL: nothing). */
void dl_metis_close(dl_metis_api *api);

#endif
