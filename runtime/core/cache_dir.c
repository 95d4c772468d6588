/* cache_dir.c - the XDG cache directory of dlayout (cache_dir.h). */
#define _GNU_SOURCE /* secure_getenv */
#include "cache_dir.h"
#include "error.h"

#include <stdio.h>
#include <stdlib.h>

dl_status dl_cache_path(char *buf, size_t size, const char *name)
{
    const char *xdg = secure_getenv("XDG_CACHE_HOME");
    const char *home = secure_getenv("HOME");
    int n;
    if (xdg && *xdg)
        n = snprintf(buf, size, "%s/dlayout/%s", xdg, name);
    else if (home && *home)
        n = snprintf(buf, size, "%s/.cache/dlayout/%s", home, name);
    else
        return dl_fail(DL_UNSUPPORTED,
                       "no cache directory: neither XDG_CACHE_HOME nor "
                       "HOME is set");
    DL_RETURN_ERROR_ON(n < 0 || (size_t)n >= size, DL_SIZE_OVERFLOW,
                       "the cache path of %s is too long", name);
    return DL_SUCCESS;
}
