/* srcheader.c - finding an #include'd header as the compiler would (see
 * srcheader.h). */
#define _GNU_SOURCE /* asprintf */
#include "srcheader.h"
#include "buildopts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The largest header read. */
#define MAX_HEADER_BYTES (4u << 20)

/* The header found so far while the places are tried. */
typedef struct candidates {
    dl_srcheader h;
    int ambiguous; /* another place holds another text */
} candidates;

/* The text of a header (malloc'd), or NULL. */
static char *read_header(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(MAX_HEADER_BYTES);
    size_t n = text ? fread(text, 1, MAX_HEADER_BYTES, f) : 0;
    int whole = text && !ferror(f) && n < MAX_HEADER_BYTES;
    fclose(f);
    if (!whole) {
        free(text);
        return NULL;
    }
    *len = n;
    return text;
}

/* Tries dir/name as a candidate; 0 when out of memory. */
static int try_dir(candidates *c, const char *dir, size_t dl, const char *name)
{
    char *path = NULL;
    if (asprintf(&path, "%.*s/%s", (int)dl, dir, name) < 0)
        return 0;
    size_t len = 0;
    char *text = read_header(path, &len);
    if (text && !c->h.path) {
        c->h = (dl_srcheader){path, text, len};
        return 1;
    }
    if (text && (len != c->h.len || memcmp(text, c->h.text, len) != 0))
        c->ambiguous = 1;
    free(text);
    free(path);
    return 1;
}

int dl_srcheader_find(const char *includer, const char *options,
                      const char *name, int quoted, dl_srcheader *h)
{
    candidates c = {0};
    const char *slash = includer ? strrchr(includer, '/') : NULL;
    int ok = !quoted ? 1
             : slash ? try_dir(&c, includer, (size_t)(slash - includer), name)
                     : try_dir(&c, ".", 1, name);
    const char *at = options, *dir;
    size_t dl;
    while (ok && dl_options_next_include_dir(&at, &dir, &dl))
        ok = try_dir(&c, dir, dl, name);
    if (!ok || c.ambiguous)
        dl_srcheader_free(&c.h);
    *h = c.h;
    return ok;
}

void dl_srcheader_free(dl_srcheader *h)
{
    free(h->path);
    free(h->text);
    *h = (dl_srcheader){0};
}
