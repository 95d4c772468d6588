/* remap_nometis.c - remapping in a build without METIS (meson option
 * -Dmetis, libmetis-dev): the method is unavailable, and says so. */
#include "remap_partition.h"
#include "error.h"

const char *dl_remap_unavailable(void)
{
    return "graph-partitioned remapping is unavailable: dlayout was built "
           "without METIS (install libmetis-dev and reconfigure with "
           "-Dmetis=auto or enabled)";
}

dl_status dl_remap_partition(const dl_remap_csr *g, size_t parts,
                             size_t per_segment, uint64_t seed, uint32_t *part,
                             uint64_t *objective)
{
    (void)g, (void)parts, (void)per_segment, (void)seed, (void)part;
    (void)objective;
    return dl_fail(DL_UNSUPPORTED, "%s", dl_remap_unavailable());
}
