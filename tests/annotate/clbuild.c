/* clbuild.c - builds an OpenCL C file on the first OpenCL device with the
 * given build options and prints the build log when that fails.  The
 * corpus test builds every dl-annotate output with and without the
 * activation macros through it.
 *
 * usage: dla-clbuild FILE [BUILD OPTION]...    exit 0 built, 1 not */
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s && fread(s, 1, (size_t)n, f) != (size_t)n) {
        free(s);
        s = NULL;
    }
    fclose(f);
    if (s) {
        s[n] = 0;
        *len = (size_t)n;
    }
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: dla-clbuild FILE [BUILD OPTION]...\n");
        return 2;
    }
    size_t len = 0, optlen = 1;
    char *src = read_all(argv[1], &len);
    if (!src) {
        fprintf(stderr, "dla-clbuild: cannot read %s\n", argv[1]);
        return 1;
    }
    for (int i = 2; i < argc; i++)
        optlen += strlen(argv[i]) + 1;
    char *options = calloc(optlen, 1);
    for (int i = 2; options && i < argc; i++) {
        strcat(options, argv[i]);
        strcat(options, " ");
    }
    cl_platform_id platforms[8];
    cl_uint np = 0;
    cl_device_id dev = NULL;
    if (clGetPlatformIDs(8, platforms, &np) != CL_SUCCESS)
        np = 0;
    for (cl_uint i = 0; i < np && !dev; i++)
        if (clGetDeviceIDs(platforms[i], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) !=
            CL_SUCCESS)
            dev = NULL;
    if (!dev || !options) {
        fprintf(stderr, "dla-clbuild: no OpenCL device\n");
        return 1;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
    const char *strings[] = {src};
    cl_program prog =
        ctx ? clCreateProgramWithSource(ctx, 1, strings, &len, &err) : NULL;
    if (!prog) {
        fprintf(stderr, "dla-clbuild: cannot create the program (%d)\n", err);
        return 1;
    }
    err = clBuildProgram(prog, 1, &dev, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        if (log && clGetProgramBuildInfo(prog, dev, CL_PROGRAM_BUILD_LOG, n,
                                         log, NULL) == CL_SUCCESS) {
            log[n] = 0;
            fprintf(stderr, "%s\n", log);
        }
        fprintf(stderr, "dla-clbuild: %s does not build with '%s' (%d)\n",
                argv[1], options, err);
        free(log);
        return 1;
    }
    clReleaseProgram(prog);
    clReleaseContext(ctx);
    free(options);
    free(src);
    return 0;
}
