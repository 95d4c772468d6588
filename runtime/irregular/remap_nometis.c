/* remap_nometis.c - remapping in a build without METIS (meson option
 * -Dmetis, libmetis-dev): no METIS, linked or loaded; the method is
 * unavailable, and says so. */
#include "error.h"
#include "remap_partition.h"

const char *dl_remap_unavailable(void)
{
    return "graph-partitioned remapping is unavailable: dlayout was built "
           "without METIS (install libmetis-dev and reconfigure with "
           "-Dmetis=auto or enabled)";
}

const dl_metis_api *dl_metis_linked(void)
{
    return NULL;
}

dl_status dl_metis_open(const char *library, dl_metis_api **out)
{
    (void)library;
    if (out)
        *out = NULL;
    return dl_fail(DL_UNSUPPORTED, "%s", dl_remap_unavailable());
}

void dl_metis_close(dl_metis_api *api)
{
    (void)api;
}

dl_status dl_remap_partition(const dl_metis_api *metis, const dl_remap_csr *g,
                             size_t parts, size_t per_segment, uint64_t seed,
                             uint32_t *part, uint64_t *objective)
{
    (void)metis, (void)g, (void)parts, (void)per_segment, (void)seed;
    (void)part, (void)objective;
    return dl_fail(DL_UNSUPPORTED, "%s", dl_remap_unavailable());
}
