/* spec.c - kernel specialisation text: every size a marshal kernel needs
 * becomes a compile-time constant (runtime parameters were 3-6x slower). */
#include "internal.h"

#include <stdarg.h>
#include <stdlib.h>

void dl_spec_init(dl_spec *spec)
{
    *spec = (dl_spec){0};
}

void dl_spec_free(dl_spec *spec)
{
    free(spec->text);
    *spec = (dl_spec){0};
}

void dl_spec_define(dl_spec *spec, const char *name, const char *fmt, ...)
{
    dl_text_printf(spec, "#define %s ", name);
    va_list ap;
    va_start(ap, fmt);
    dl_text_vprintf(spec, fmt, ap);
    va_end(ap);
    dl_text_puts(spec, "\n");
}

const char *dl_spec_word_type(uint32_t w)
{
    switch (w) {
    case 1:
        return "uchar";
    case 2:
        return "ushort";
    case 4:
        return "uint";
    case 8:
        return "ulong";
    default:
        return "uint4";
    }
}

/* For a non-uniform record, word u of the record belongs to a part that
 * starts at word dl_unit_start[u] and is dl_unit_len[u] words long. */
void dl_spec_record(dl_spec *spec, const dl_record *rec)
{
    dl_spec_define(spec, "DL_W", "%u", rec->word);
    dl_spec_define(spec, "DL_WORD", "%s", dl_spec_word_type(rec->word));
    dl_spec_define(spec, "DL_RW", "%uu", rec->rec_words);
    dl_spec_define(spec, "DL_UNIFORM", "%d", rec->uniform);
    if (rec->uniform)
        return;
    const char *names[2] = {"dl_unit_start", "dl_unit_len"};
    for (int table = 0; table < 2; table++) {
        dl_text_printf(spec, "__constant uint %s[%u] = {", names[table],
                       rec->rec_words);
        for (uint32_t p = 0; p < rec->nparts; p++) {
            uint32_t start = rec->parts[p].offset / rec->word;
            uint32_t len = rec->parts[p].size / rec->word;
            for (uint32_t j = 0; j < len; j++)
                dl_text_printf(spec, "%u,", table == 0 ? start : len);
        }
        dl_text_printf(spec, "};\n");
    }
}
