/* dims_internal.h - what the parts of the dimension expressions share
 * (dims.c, dims_parse.c, dims_macros.c, dims_eval.c); not installed. */
#ifndef DL_DIMS_INTERNAL_H
#define DL_DIMS_INTERNAL_H

#include "dims.h"

/* Messages quote at most this much of the expression. */
#define QUOTE 60

/* The name of each builtin operator, as dl_dims_format writes it. */
extern const char *const dl_dims_builtin_names[DL_DIMS_GLOBAL_OFFSET + 1];

/* dl_dims_parse; `bitwise`: a macro value, which may use << >> & | ^ ~. */
dl_status dl_dims_parse_text(const char *text, size_t len, int bitwise,
                             dl_dims_expr **out);

#endif
