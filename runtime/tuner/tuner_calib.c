/* tuner_calib.c - the calibration cache file (format in docs/tuning.md).
 *
 * One fact per line, "word value..." so that a person can read and diff
 * it; the last line is "end", so a truncated file is recognised.  The
 * file is replaced by a rename, never rewritten in place. */
#include "tuner_calib.h"
#include "hash.h"
#include "cache_dir.h"

#include "error.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h> /* INFINITY, isfinite: macros only */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

uint64_t dl_calib_key(const char *platform, const char *device,
                      const char *driver)
{
    const char *parts[3] = {platform, device, driver};
    uint64_t h = DL_HASH_SEED;
    for (int i = 0; i < 3; i++) {
        const char *p = parts[i] ? parts[i] : "";
        h = dl_hash(h, p, strlen(p));
        h = dl_hash(h, "\n", 1);
    }
    return h ? h : 1;
}

/* Names go into the file after a keyword: no line breaks, trimmed. */
static void copy_name(char *dst, const char *src)
{
    size_t n = 0;
    for (const char *p = src ? src : ""; *p && n + 1 < DL_CALIB_TEXT_MAX; p++)
        dst[n++] = (*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p;
    while (n > 0 && dst[n - 1] == ' ')
        n--;
    dst[n] = '\0';
}

void dl_calib_set_identity(dl_calibration *c, const char *platform,
                           const char *device, const char *driver)
{
    copy_name(c->platform, platform);
    copy_name(c->device, device);
    copy_name(c->driver, driver);
    c->key = dl_calib_key(c->platform, c->device, c->driver);
}

dl_status dl_calib_path(uint64_t key, char *buf, size_t size)
{
    char name[64];
    snprintf(name, sizeof name, "calibration-%016" PRIx64 ".txt", key);
    return dl_cache_path(buf, size, name);
}

static const char *tile_text(uint32_t tile, char *buf, size_t size)
{
    if (tile == DL_CALIB_TILE_DA)
        return "DA";
    if (tile == DL_CALIB_TILE_DA_4K)
        return "DA4K";
    if (tile == 1)
        return "AoS";
    snprintf(buf, size, "%" PRIu32, tile);
    return buf;
}

/* A conversion's smallest field in bytes (files before it was kept: 4). */
static uint32_t convert_field(const dl_calib_convert *x)
{
    return x->min_field ? x->min_field : 4;
}

void dl_calib_print(FILE *out, const dl_calibration *c)
{
    char t[16];
    fprintf(out, "# dlayout device calibration (docs/tuning.md)\n");
    fprintf(out, "version %d\n", DL_CALIB_VERSION);
    fprintf(out, "key %016" PRIx64 "\n", c->key);
    fprintf(out, "platform %s\n", c->platform);
    fprintf(out, "device %s\n", c->device);
    fprintf(out, "driver %s\n", c->driver);
    fprintf(out, "measure_ms %.1f\n", c->measure_ms);
    fprintf(out, "# a program built from the driver's cache\n");
    fprintf(out, "build_ms %.1f\n", c->build_ms);
    fprintf(out, "# bytes per nanosecond (= GB/s)\n");
    fprintf(out, "copy %.6g\n", c->copy_bytes_per_ns);
    fprintf(out, "# access <S words> <tile: AoS|DA|T> <ns per record>\n");
    for (unsigned i = 0; i < c->naccess; i++)
        fprintf(out, "access %" PRIu32 " %s %.6g\n", c->access[i].words,
                tile_text(c->access[i].tile, t, sizeof t),
                c->access[i].ns_per_record);
    fprintf(out, "# convert <algo> <S words> <AoS -> tile> <bytes per ns> "
                 "<smallest field, bytes>\n");
    for (unsigned i = 0; i < c->nconvert; i++)
        fprintf(out, "convert %s %" PRIu32 " %s %.6g %" PRIu32 "\n",
                dl_algo_name(c->convert[i].algo), c->convert[i].words,
                tile_text(c->convert[i].tile, t, sizeof t),
                c->convert[i].bytes_per_ns, convert_field(&c->convert[i]));
    fprintf(out,
            "# largest spread of repeated measurements (noisy above "
            "%g)\n",
            DL_CALIB_NOISY_SPREAD);
    fprintf(out, "spread %.3f\n", c->spread);
    if (c->noisy_runs)
        fprintf(out, "# noisy calibrations in a row\nnoisy_runs %u\n",
                c->noisy_runs);
    fprintf(out, "end\n");
}

static dl_status make_dirs(const char *path)
{
    char dir[4096];
    DL_RETURN_ERROR_ON(strlen(path) >= sizeof dir, DL_SIZE_OVERFLOW,
                       "path too long: %s", path);
    strcpy(dir, path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return dl_fail(DL_INVALID_ARGUMENT, "cannot create %s: %s", dir,
                           strerror(errno));
        *p = '/';
    }
    return DL_SUCCESS;
}

dl_status dl_calib_save(const char *path, const dl_calibration *c)
{
    DL_RETURN_IF_FAIL(make_dirs(path));
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    FILE *f = fopen(tmp, "w");
    DL_RETURN_ERROR_ON(!f, DL_INVALID_ARGUMENT, "cannot write %s: %s", tmp,
                       strerror(errno));
    dl_calib_print(f, c);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        unlink(tmp);
        return dl_fail(DL_INVALID_ARGUMENT, "cannot write %s", path);
    }
    return DL_SUCCESS;
}

static int parse_tile(const char *s, uint32_t *tile)
{
    if (strcmp(s, "DA") == 0) {
        *tile = DL_CALIB_TILE_DA;
        return 1;
    }
    if (strcmp(s, "DA4K") == 0) {
        *tile = DL_CALIB_TILE_DA_4K;
        return 1;
    }
    if (strcmp(s, "AoS") == 0) {
        *tile = 1;
        return 1;
    }
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    *tile = (uint32_t)v;
    return *end == '\0' && v >= 2 && v < DL_CALIB_TILE_DA_4K;
}

static int positive(double v)
{
    return isfinite(v) && v > 0;
}

/* One line into c; returns 0 if it is not valid. */
static int parse_line(char *line, dl_calibration *c, int *version, int *end)
{
    char word[32], a[64], b[32];
    const char *rest;
    double v;
    uint32_t words;
    if (sscanf(line, "%31s", word) != 1 || word[0] == '#')
        return 1; /* blank or comment */
    rest = line + strspn(line, " ") + strlen(word);
    rest += strspn(rest, " ");
    if (strcmp(word, "version") == 0)
        return sscanf(rest, "%d", version) == 1;
    if (strcmp(word, "key") == 0)
        return sscanf(rest, "%" SCNx64, &c->key) == 1;
    if (strcmp(word, "platform") == 0 || strcmp(word, "device") == 0 ||
        strcmp(word, "driver") == 0) {
        char *dst = word[0] == 'p'   ? c->platform
                    : word[1] == 'e' ? c->device
                                     : c->driver;
        copy_name(dst, rest);
        return 1;
    }
    if (strcmp(word, "measure_ms") == 0)
        return sscanf(rest, "%lf", &c->measure_ms) == 1;
    if (strcmp(word, "build_ms") == 0)
        return sscanf(rest, "%lf", &c->build_ms) == 1 && positive(c->build_ms);
    if (strcmp(word, "copy") == 0)
        return sscanf(rest, "%lf", &c->copy_bytes_per_ns) == 1 &&
               positive(c->copy_bytes_per_ns);
    if (strcmp(word, "access") == 0) {
        if (c->naccess >= DL_CALIB_MAX_ACCESS ||
            sscanf(rest, "%" SCNu32 " %31s %lf", &words, b, &v) != 3 ||
            words == 0 || !positive(v))
            return 0;
        dl_calib_access *x = &c->access[c->naccess++];
        x->words = words;
        x->ns_per_record = v;
        return parse_tile(b, &x->tile);
    }
    if (strcmp(word, "convert") == 0) {
        uint32_t field = 0;
        if (c->nconvert >= DL_CALIB_MAX_CONVERT ||
            sscanf(rest, "%63s %" SCNu32 " %31s %lf %" SCNu32, a, &words, b, &v,
                   &field) != 5 ||
            words == 0 || !positive(v) || field == 0)
            return 0;
        dl_calib_convert *x = &c->convert[c->nconvert++];
        x->words = words;
        x->bytes_per_ns = v;
        x->min_field = field;
        return dl_algo_parse(a, &x->algo) == DL_SUCCESS &&
               parse_tile(b, &x->tile);
    }
    if (strcmp(word, "spread") == 0)
        return sscanf(rest, "%lf", &c->spread) == 1 && c->spread >= 0;
    if (strcmp(word, "noisy_runs") == 0)
        return sscanf(rest, "%u", &c->noisy_runs) == 1;
    if (strcmp(word, "end") == 0) {
        *end = 1;
        return 1;
    }
    return 0;
}

dl_status dl_calib_load(const char *path, const dl_calibration *expect,
                        dl_calibration *out)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return dl_fail(DL_UNSUPPORTED, "%s: %s", path, strerror(errno));
    dl_calibration *c = calloc(1, sizeof *c);
    if (!c) {
        fclose(f);
        return dl_fail(DL_OUT_OF_MEMORY, "out of memory");
    }
    char line[512];
    unsigned lineno = 0;
    int version = 0, end = 0;
    dl_status st = DL_SUCCESS;
    while (!end && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (!parse_line(line, c, &version, &end)) {
            st = dl_fail(DL_INVALID_ARGUMENT, "%s:%u: not a calibration line",
                         path, lineno);
            break;
        }
    }
    fclose(f);
    if (version > 0 && version < DL_CALIB_VERSION)
        st = dl_fail(DL_UNSUPPORTED, "%s: a version %d calibration file", path,
                     version);
    if (st == DL_SUCCESS && (!end || version != DL_CALIB_VERSION ||
                             !positive(c->copy_bytes_per_ns) ||
                             !positive(c->build_ms) || c->naccess == 0))
        st = dl_fail(DL_INVALID_ARGUMENT,
                     "%s: incomplete, or not a version %d calibration file",
                     path, DL_CALIB_VERSION);
    if (st == DL_SUCCESS &&
        (c->key != dl_calib_key(c->platform, c->device, c->driver) ||
         (expect && (strcmp(c->platform, expect->platform) != 0 ||
                     strcmp(c->device, expect->device) != 0 ||
                     strcmp(c->driver, expect->driver) != 0))))
        st = dl_fail(DL_INCOMPATIBLE,
                     "%s belongs to another device ('%s', '%s', '%s')", path,
                     c->platform, c->device, c->driver);
    if (st == DL_SUCCESS)
        *out = *c;
    free(c);
    return st;
}

const dl_calib_access *dl_calib_find_access(const dl_calibration *c,
                                            uint32_t words, uint32_t tile)
{
    const dl_calib_access *best = NULL;
    double best_d = 0;
    for (unsigned i = 0; i < c->naccess; i++) {
        const dl_calib_access *a = &c->access[i];
        if (a->tile != tile)
            continue;
        double d = size_ratio(a->words, words);
        if (!best || d < best_d) {
            best = a;
            best_d = d;
        }
    }
    return best;
}

uint32_t dl_calib_best_asta_tile(const dl_calibration *c, uint32_t words)
{
    uint32_t best = 0;
    double best_d = INFINITY, best_ns = INFINITY;
    for (unsigned i = 0; i < c->naccess; i++) {
        const dl_calib_access *a = &c->access[i];
        if (!dl_calib_tile_is_asta(a->tile))
            continue;
        double d = size_ratio(a->words, words);
        if (d < best_d || (d == best_d && a->ns_per_record < best_ns)) {
            best = a->tile;
            best_d = d;
            best_ns = a->ns_per_record;
        }
    }
    return best;
}

double dl_calib_convert_rate(const dl_calibration *c, uint32_t words,
                             uint32_t tile, uint32_t min_field)
{
    double field_d = INFINITY;
    for (unsigned i = 0; i < c->nconvert; i++) {
        double d = size_ratio(convert_field(&c->convert[i]),
                              min_field ? min_field : 4);
        field_d = d < field_d ? d : field_d;
    }
    double rate = 0;
    for (int any_tile = 0; any_tile < 2 && rate == 0; any_tile++) {
        double best_d = INFINITY;
        for (unsigned i = 0; i < c->nconvert; i++) {
            const dl_calib_convert *x = &c->convert[i];
            if ((!any_tile && x->tile != tile) ||
                size_ratio(convert_field(x), min_field ? min_field : 4) >
                    field_d + 1e-9)
                continue;
            double d = size_ratio(x->words, words);
            if (d < best_d - 1e-9 ||
                (d < best_d + 1e-9 && x->bytes_per_ns > rate)) {
                best_d = d;
                rate = x->bytes_per_ns;
            }
        }
    }
    return rate;
}
