/* rt_source.h - a kernel source as the program's own build sees it:
 * dl-annotate's branches for dlayout's variants (`#ifdef DL_ACTIVE_<k>`,
 * `#elif defined(DL_SHARE_<k>)`, `#ifdef DL_JOBSWAP_<k>`, ...) are never
 * defined there.  The permutation's and the renumbering's scans read
 * kernels through it (rt_permute_scan.c, rt_renumber_scan.c). */
#ifndef DL_RT_SOURCE_H
#define DL_RT_SOURCE_H

#include <stddef.h>

/* A copy of src[0..len) with the lines the program's own build leaves out
 * blanked (inside `#ifdef DL_...` up to its #else or #endif, and after
 * the #else of `#ifndef DL_...`), newlines kept; NULL (with *why) if a
 * conditional on a DL_ macro is not one of those, or out of memory.
 * free() it. */
char *rt_source_as_built(const char *src, size_t len, const char **why);

/* Whether a preprocessor line left in src names `word` (a whole
 * identifier). */
int rt_source_directive_names(const char *src, size_t len, const char *word);

#endif
