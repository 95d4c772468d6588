/* error.c - status names and the per-thread last-error message. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char last_error[512];

dl_status dl_fail(dl_status status, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_error, sizeof last_error, fmt, ap);
    va_end(ap);
    return status;
}

dl_status dl_fail_wrap(dl_status status, const char *fmt, ...)
{
    /* The cause is copied first: dl_fail writes over the buffer it
     * lives in. */
    char why[400], what[400];
    snprintf(why, sizeof why, "%s", dl_last_error());
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return dl_fail(status, "%s: %s", what, why);
}

const char *dl_last_error(void)
{
    return last_error;
}

const char *dl_status_name(dl_status status)
{
    switch (status) {
    case DL_SUCCESS:
        return "DL_SUCCESS";
    case DL_INVALID_ARGUMENT:
        return "DL_INVALID_ARGUMENT";
    case DL_INVALID_LAYOUT:
        return "DL_INVALID_LAYOUT";
    case DL_INCOMPATIBLE:
        return "DL_INCOMPATIBLE";
    case DL_UNSUPPORTED:
        return "DL_UNSUPPORTED";
    case DL_BUFFER_TOO_SMALL:
        return "DL_BUFFER_TOO_SMALL";
    case DL_SIZE_OVERFLOW:
        return "DL_SIZE_OVERFLOW";
    case DL_OUT_OF_MEMORY:
        return "DL_OUT_OF_MEMORY";
    case DL_OPENCL_ERROR:
        return "DL_OPENCL_ERROR";
    case DL_BUILD_ERROR:
        return "DL_BUILD_ERROR";
    }
    return "DL_UNKNOWN_STATUS";
}
