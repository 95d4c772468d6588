/* remap_metis_load.c - METIS loaded at run time (remap_metis.h): the
 * shim does not link libmetis, so that it loads where METIS is not
 * installed; the runtime loads it here, on a planning thread, when a
 * permutation is planned.  The library is trusted to match metis.h's
 * real_t (Debian's libmetis5 and libmetis-dev are one build); its idx_t
 * is checked: METIS_SetDefaultOptions writes METIS_NOPTIONS entries of
 * -1, whose extent tells the library's width. */
#include "error.h"
#include "remap_metis_api.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

/* Whether the library's idx_t is metis.h's: its default options fill
 * exactly METIS_NOPTIONS * sizeof(idx_t) bytes with -1, in a buffer
 * large enough for the widest METIS builds (64 bits). */
static int same_idx_width(const dl_metis_api *api)
{
    enum { BYTES = METIS_NOPTIONS * 8 * 2, MARK = 0x5a };
    unsigned char probe[BYTES];
    memset(probe, MARK, sizeof probe);
    api->set_default_options((idx_t *)(void *)probe);
    size_t ours = METIS_NOPTIONS * sizeof(idx_t);
    for (size_t i = 0; i < sizeof probe; i++)
        if (probe[i] != (i < ours ? 0xff : MARK))
            return 0;
    return 1;
}

/* One entry point of the loaded library, or NULL with the message. */
static void *entry(dl_metis_api *api, const char *library, const char *name)
{
    void *f = dlsym(api->handle, name);
    if (!f)
        dl_fail(DL_UNSUPPORTED, "METIS: %s has no %s", library, name);
    return f;
}

dl_status dl_metis_open(const char *library, dl_metis_api **out)
{
    DL_RETURN_ERROR_ON(!library || !*library || !out, DL_INVALID_ARGUMENT,
                       "METIS: no library named");
    *out = NULL;
    dl_metis_api *api = calloc(1, sizeof *api);
    DL_RETURN_ERROR_ON(!api, DL_OUT_OF_MEMORY, "METIS: no memory");
    api->handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
    if (!api->handle) {
        const char *why = dlerror();
        free(api);
        return dl_fail(DL_UNSUPPORTED, "METIS: %s cannot be loaded (%s)",
                       library, why ? why : "no reason given");
    }
    void *set = entry(api, library, "METIS_SetDefaultOptions");
    void *part = set ? entry(api, library, "METIS_PartGraphKway") : NULL;
    /* Object pointers to function pointers: what dlsym gives (POSIX). */
    memcpy(&api->set_default_options, &set, sizeof set);
    memcpy(&api->part_graph_kway, &part, sizeof part);
    if (part && same_idx_width(api)) {
        *out = api;
        return DL_SUCCESS;
    }
    if (part)
        dl_fail(DL_UNSUPPORTED,
                "METIS: %s's idx_t is not the %d bits of the metis.h "
                "dlayout was built with",
                library, IDXTYPEWIDTH);
    dl_metis_close(api);
    return DL_UNSUPPORTED; /* the message is entry's or the one above */
}

void dl_metis_close(dl_metis_api *api)
{
    if (!api)
        return;
    if (api->handle)
        dlclose(api->handle);
    free(api);
}
