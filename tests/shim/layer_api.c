/* layer_api.c - the ICD layer's loader interface without a loader:
 * clGetLayerInfo and clInitLayer, their failure paths, and the returned
 * table (hooked entries replaced, all others the target's), with a fake
 * target whose entries record that they were called.  Runs with
 * DL_DISABLE=1, so every hooked entry forwards straight to the target.
 *
 *   shim-layer-api PATH/libdlayout-layer.so */
#include <CL/cl_layer.h>

#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static const char *layer_path;
static pfn_clGetLayerInfo get_info;
static pfn_clInitLayer init_layer;

static const char *last_called;

static cl_int CL_API_CALL fake_clSetKernelArg(cl_kernel kernel,
                                              cl_uint arg_index,
                                              size_t arg_size,
                                              const void *arg_value)
{
    (void)kernel, (void)arg_index, (void)arg_size, (void)arg_value;
    last_called = "clSetKernelArg";
    return CL_INVALID_KERNEL;
}

static cl_int CL_API_CALL fake_clReleaseMemObject(cl_mem memobj)
{
    (void)memobj;
    last_called = "clReleaseMemObject";
    return CL_INVALID_MEM_OBJECT;
}

static void *CL_API_CALL fake_clEnqueueMapBuffer(
    cl_command_queue queue, cl_mem buffer, cl_bool blocking, cl_map_flags flags,
    size_t offset, size_t size, cl_uint nwait, const cl_event *wait,
    cl_event *event, cl_int *errcode_ret)
{
    (void)queue, (void)buffer, (void)blocking, (void)flags, (void)offset;
    (void)size, (void)nwait, (void)wait, (void)event;
    last_called = "clEnqueueMapBuffer";
    *errcode_ret = CL_INVALID_COMMAND_QUEUE;
    return (void *)&last_called;
}

/* Every slot a distinct, recognisable value; three real fakes. */
static cl_icd_dispatch target;
enum { SLOTS = sizeof(cl_icd_dispatch) / sizeof(void *) };

static void fill_target(void)
{
    void **slot = (void **)&target;
    for (size_t i = 0; i < SLOTS; i++)
        slot[i] = (void *)(uintptr_t)(0x1000 + i);
    target.clSetKernelArg = fake_clSetKernelArg;
    target.clReleaseMemObject = fake_clReleaseMemObject;
    target.clEnqueueMapBuffer = fake_clEnqueueMapBuffer;
}

static int setup(void **state)
{
    (void)state;
    void *layer = dlopen(layer_path, RTLD_NOW | RTLD_LOCAL);
    if (!layer)
        return -1;
    get_info = (pfn_clGetLayerInfo)dlsym(layer, "clGetLayerInfo");
    init_layer = (pfn_clInitLayer)dlsym(layer, "clInitLayer");
    fill_target();
    return get_info && init_layer ? 0 : -1;
}

static void test_layer_info(void **state)
{
    (void)state;
    cl_layer_api_version version = 0;
    size_t size = 0;
    assert_int_equal(
        get_info(CL_LAYER_API_VERSION, sizeof version, &version, &size),
        CL_SUCCESS);
    assert_int_equal(version, CL_LAYER_API_VERSION_100);
    assert_int_equal(size, sizeof version);

    char name[32];
    assert_int_equal(get_info(CL_LAYER_NAME, 0, NULL, &size), CL_SUCCESS);
    assert_int_equal(size, sizeof "dlayout");
    assert_int_equal(get_info(CL_LAYER_NAME, sizeof name, name, NULL),
                     CL_SUCCESS);
    assert_string_equal(name, "dlayout");

    /* Too small a buffer, unknown query. */
    assert_int_equal(get_info(CL_LAYER_API_VERSION, 1, &version, NULL),
                     CL_INVALID_VALUE);
    assert_int_equal(get_info(CL_LAYER_NAME, 3, name, NULL), CL_INVALID_VALUE);
    assert_int_equal(get_info(0x1234, sizeof name, name, &size),
                     CL_INVALID_VALUE);
}

static void test_init_rejects(void **state)
{
    (void)state;
    cl_uint n = 0;
    const cl_icd_dispatch *table = NULL;
    assert_int_equal(init_layer(SLOTS, NULL, &n, &table), CL_INVALID_VALUE);
    assert_int_equal(init_layer(SLOTS, &target, NULL, &table),
                     CL_INVALID_VALUE);
    assert_int_equal(init_layer(SLOTS, &target, &n, NULL), CL_INVALID_VALUE);
    /* A target table (an older loader's) must hold every hooked entry. */
    size_t last = 0;
#define DL_ENTRY(ret, name, params, args, kind)                                \
    if (offsetof(cl_icd_dispatch, name) > last)                                \
        last = offsetof(cl_icd_dispatch, name);
#include "entries.def"
#undef DL_ENTRY
    size_t need = last / sizeof(void *) + 1;
    assert_int_equal(init_layer((cl_uint)need - 1, &target, &n, &table),
                     CL_INVALID_VALUE);
    assert_null(table);
    assert_int_equal(init_layer((cl_uint)need, &target, &n, &table),
                     CL_SUCCESS);
    assert_non_null(table);
}

static void test_init_table(void **state)
{
    (void)state;
    cl_uint n = 0;
    const cl_icd_dispatch *table = NULL;
    assert_int_equal(init_layer(SLOTS, &target, &n, &table), CL_SUCCESS);
    assert_non_null(table);
    assert_int_equal(n, SLOTS);

    void *const *ours = (void *const *)table;
    void *const *theirs = (void *const *)&target;
    size_t hooked = 0;
#define DL_ENTRY(ret, name, params, args, kind)                                \
    assert_ptr_not_equal(table->name, target.name);                            \
    assert_non_null(table->name);                                              \
    hooked++;
#include "entries.def"
#undef DL_ENTRY
    size_t same = 0;
    for (size_t i = 0; i < SLOTS; i++)
        same += ours[i] == theirs[i];
    assert_int_equal(same + hooked, SLOTS);

    /* DL_DISABLE=1: the hooks go straight to the target. */
    last_called = NULL;
    assert_int_equal(table->clSetKernelArg(NULL, 0, 0, NULL),
                     CL_INVALID_KERNEL);
    assert_string_equal(last_called, "clSetKernelArg");
    last_called = NULL;
    assert_int_equal(table->clReleaseMemObject(NULL), CL_INVALID_MEM_OBJECT);
    assert_string_equal(last_called, "clReleaseMemObject");
    cl_int err = CL_SUCCESS;
    void *mapped = table->clEnqueueMapBuffer(NULL, NULL, CL_TRUE, 0, 0, 0, 0,
                                             NULL, NULL, &err);
    assert_ptr_equal(mapped, &last_called);
    assert_int_equal(err, CL_INVALID_COMMAND_QUEUE);
    assert_string_equal(last_called, "clEnqueueMapBuffer");
}

int main(int argc, char **argv)
{
    if (argc != 2)
        return 2;
    layer_path = argv[1];
    setenv("DL_DISABLE", "1", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layer_info),
        cmocka_unit_test(test_init_rejects),
        cmocka_unit_test(test_init_table),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
