/* buildopts.c - the `-D`, `-U` and `-I` words of build options (see
 * buildopts.h). */
#include "buildopts.h"

#include <ctype.h>
#include <string.h>

/* The next blank-separated word of the options at *at: its start and
 * length, or 0 at the end. */
static size_t next_word(const char **at, const char **word)
{
    const char *p = *at;
    while (*p && isspace((unsigned char)*p))
        p++;
    *word = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    *at = p;
    return (size_t)(p - *word);
}

int dl_options_define(const char *options, const char *name, const char **value,
                      size_t *len)
{
    size_t n = strlen(name);
    int found = 0;
    const char *at = options, *w;
    size_t wl;
    while ((wl = next_word(&at, &w)) > 0) {
        if (wl < 2 || w[0] != '-' || (w[1] != 'D' && w[1] != 'U'))
            continue;
        int define = w[1] == 'D';
        const char *d = w + 2;
        size_t dl = wl - 2;
        if (dl == 0 && (dl = next_word(&at, &d)) == 0)
            break; /* "-D" at the end */
        if (dl < n || memcmp(d, name, n) != 0 ||
            (dl > n && (!define || d[n] != '=')))
            continue;
        found = define;
        *value = dl > n ? d + n + 1 : "1";
        *len = dl > n ? dl - n - 1 : 1;
    }
    return found;
}

int dl_options_next_include_dir(const char **at, const char **dir, size_t *len)
{
    const char *w;
    size_t wl;
    while ((wl = next_word(at, &w)) > 0) {
        if (wl < 2 || w[0] != '-' || w[1] != 'I')
            continue;
        const char *d = w + 2;
        size_t dl = wl - 2;
        if (dl == 0 && (dl = next_word(at, &d)) == 0)
            return 0; /* "-I" at the end */
        if (dl >= 2 && (d[0] == '"' || d[0] == '\'') && d[dl - 1] == d[0]) {
            d++; /* -I"dir" */
            dl -= 2;
        }
        *dir = d;
        *len = dl;
        return 1;
    }
    return 0;
}
