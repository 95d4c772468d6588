/* buildopts.h - the words of a program's build options that change what
 * its source means: the `-D`/`-U` macros and the `-I` directories, read
 * as the compiler reads them (blank-separated words, `-D NAME` and
 * `-I dir` also as two words). */
#ifndef DL_BUILDOPTS_H
#define DL_BUILDOPTS_H

#include <stddef.h>

/* The last definition of `name` in build options: 1 with its value text
 * (`-DNAME` is "1"), 0 when undefined (or undefined again by -U). */
int dl_options_define(const char *options, const char *name, const char **value,
                      size_t *len);

/* The next `-I` directory of the options at *at (quotes around it
 * removed): 1 with its start and length, 0 at the end.  Start with
 * *at = options. */
int dl_options_next_include_dir(const char **at, const char **dir, size_t *len);

#endif
