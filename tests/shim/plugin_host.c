/* plugin_host.c - loads an OpenCL plugin the way Python loads an extension
 * module: dlopen(RTLD_LOCAL) of a library that links libOpenCL, from a
 * program that does not.  The plugin's calls bind to the preloaded shim,
 * but libOpenCL is not in the global scope, so dlsym(RTLD_NEXT) cannot see
 * it: the shim must still find the real entry points.
 *
 *   shim-plugin-host PLUGIN [arguments for the plugin...] */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s PLUGIN [arguments...]\n", argv[0]);
        return 2;
    }
    void *plugin = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!plugin) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return 1;
    }
    int (*plugin_main)(int, char **);
    *(void **)&plugin_main = dlsym(plugin, "shim_plugin_main");
    if (!plugin_main) {
        fprintf(stderr, "dlsym: %s\n", dlerror());
        return 1;
    }
    return plugin_main(argc - 1, argv + 1);
}
