/* gen_controls_doc.c - dl-controls-doc: prints docs/controls.md from
 * controls.def (or writes it to the file named by the only argument), so
 * that the docs are generated, never edited by hand. */
#include "controls.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc > 2) {
        fprintf(stderr, "usage: %s [OUTPUT]\n", argv[0]);
        return 2;
    }
    FILE *out = argc == 2 ? fopen(argv[1], "w") : stdout;
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    dl_controls_print_markdown(out);
    if (out != stdout && fclose(out) != 0) {
        perror(argv[1]);
        return 1;
    }
    return 0;
}
