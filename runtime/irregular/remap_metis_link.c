/* remap_metis_link.c - METIS's entry points as linked (remap_metis.h):
 * the dl_remap library, which links libmetis, for dl-bench and the
 * tests. */
#include "remap_metis_api.h"

const dl_metis_api *dl_metis_linked(void)
{
    static const dl_metis_api linked = {METIS_SetDefaultOptions,
                                        METIS_PartGraphKway, NULL};
    return &linked;
}
