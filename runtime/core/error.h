/* error.h - return-a-code-with-a-message macros (in the spirit of POCL's
 * POCL_RETURN_ERROR_ON) so that failure paths stay flat. */
#ifndef DL_ERROR_H
#define DL_ERROR_H

#include "dlayout.h"

/* Records a printf-style message for dl_last_error() and returns status. */
dl_status dl_fail(dl_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* dl_fail that keeps the current message as the cause: "what: cause".
 * For a failure passed up from a callee, so that the message says both
 * where it happened and why. */
dl_status dl_fail_wrap(dl_status status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#define DL_RETURN_ERROR_ON(cond, status, ...)                                  \
    do {                                                                       \
        if (cond)                                                              \
            return dl_fail((status), __VA_ARGS__);                             \
    } while (0)

#define DL_RETURN_IF_FAIL(expr)                                                \
    do {                                                                       \
        dl_status dl_rif_status_ = (expr);                                     \
        if (dl_rif_status_ != DL_SUCCESS)                                      \
            return dl_rif_status_;                                             \
    } while (0)

/* For OpenCL calls: `err` is a cl_int. */
#define DL_RETURN_ON_CL(err, what)                                             \
    DL_RETURN_ERROR_ON((err) != CL_SUCCESS, DL_OPENCL_ERROR,                   \
                       "%s failed with OpenCL error %d", (what), (int)(err))

#endif
