/* clapi_unlinked.c - for builds that do not link libOpenCL (the shim): there
 * are no linked entry points, and dl_cl keeps what dl_cl_install() put
 * there. */
#include "clapi.h"

void dl_cl_fill_linked(cl_icd_dispatch *table)
{
    (void)table;
}
