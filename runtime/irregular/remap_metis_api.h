/* remap_metis_api.h - the table of METIS's entry points that remapping
 * calls (remap_metis.h), typed from metis.h, so that the linked table
 * cannot differ from the library's prototypes and the loaded one is cast
 * to them.  Included only where meson found metis.h. */
#ifndef DL_REMAP_METIS_API_H
#define DL_REMAP_METIS_API_H

#include "remap_metis.h"

#include <metis.h>

struct dl_metis_api {
    __typeof__(METIS_SetDefaultOptions) *set_default_options;
    __typeof__(METIS_PartGraphKway) *part_graph_kway;
    void *handle; /* dlopen's; NULL when linked */
};

#endif
