/* cl_prog.c - an ordinary OpenCL program that knows nothing of dlayout,
 * for the shim tests: each job builds a kernel, launches it twice on a
 * buffer and prints what it reads back.
 *
 *   shim-cl-prog [--threads N | --fork]
 *
 * With --threads, N threads run one job each and make their first
 * intercepted call (clCreateProgramWithSource) at the same moment.  With
 * --fork, after the job a child process forks and calls exit() at once,
 * as a program that forks a helper does.  Built
 * three ways: linked with libOpenCL (shim-cl-prog); with DL_TEST_DLOPEN,
 * loading libOpenCL.so.1 with dlopen and dlsym (shim-cl-dlopen), which an
 * LD_PRELOAD shim cannot see; with DL_TEST_PLUGIN, as a plugin
 * (shim_plugin_main) that plugin_host.c loads with dlopen(RTLD_LOCAL), as
 * Python loads an extension module linked with libOpenCL. */
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#include <CL/cl.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CL_FUNCTIONS(X)                                                        \
    X(clGetPlatformIDs)                                                        \
    X(clGetDeviceIDs)                                                          \
    X(clCreateContext)                                                         \
    X(clReleaseContext)                                                        \
    X(clCreateCommandQueue)                                                    \
    X(clReleaseCommandQueue)                                                   \
    X(clCreateProgramWithSource)                                               \
    X(clBuildProgram)                                                          \
    X(clGetProgramBuildInfo)                                                   \
    X(clReleaseProgram)                                                        \
    X(clCreateKernel)                                                          \
    X(clReleaseKernel)                                                         \
    X(clSetKernelArg)                                                          \
    X(clCreateBuffer)                                                          \
    X(clReleaseMemObject)                                                      \
    X(clEnqueueNDRangeKernel)                                                  \
    X(clEnqueueReadBuffer)

static struct {
#define CL_MEMBER(name) __typeof__(name) *name;
    CL_FUNCTIONS(CL_MEMBER)
#undef CL_MEMBER
} cl;

static int load_opencl(void)
{
#ifdef DL_TEST_DLOPEN
    void *lib = dlopen("libOpenCL.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        fprintf(stderr, "dlopen: %s\n", dlerror());
        return -1;
    }
#define CL_LOAD(name)                                                          \
    if (!(cl.name = (__typeof__(cl.name))dlsym(lib, #name))) {                 \
        fprintf(stderr, "dlsym %s: %s\n", #name, dlerror());                   \
        return -1;                                                             \
    }
#else
#define CL_LOAD(name) cl.name = name;
#endif
    CL_FUNCTIONS(CL_LOAD)
#undef CL_LOAD
    return 0;
}

#define CHECK(call)                                                            \
    do {                                                                       \
        cl_int err_ = (call);                                                  \
        if (err_ != CL_SUCCESS) {                                              \
            fprintf(stderr, "%s:%d: %s: error %d\n", __FILE__, __LINE__,       \
                    #call, err_);                                              \
            exit(1);                                                           \
        }                                                                      \
    } while (0)

static const char *source =
    "__kernel void scale(__global float *x, float factor, int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        x[i] = x[i] * factor + 1.0f;\n"
    "}\n";

enum { COUNT = 1000, MAX_JOBS = 64 };

static cl_context context;
static cl_device_id device;
static pthread_barrier_t start_line;

typedef struct job {
    int index;
    int wait; /* at the start line, with the other threads */
    float result[COUNT];
} job;

static void *run_job(void *arg)
{
    job *j = arg;
    cl_int err;
    cl_command_queue queue = cl.clCreateCommandQueue(context, device, 0, &err);
    CHECK(err);
    float data[COUNT];
    for (int i = 0; i < COUNT; i++)
        data[i] = (float)(i + j->index);
    if (j->wait)
        pthread_barrier_wait(&start_line);

    cl_program program =
        cl.clCreateProgramWithSource(context, 1, &source, NULL, &err);
    CHECK(err);
    err = cl.clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        cl.clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG,
                                 sizeof log - 1, log, NULL);
        fprintf(stderr, "build failed (%d): %s\n", err, log);
        exit(1);
    }
    cl_kernel kernel = cl.clCreateKernel(program, "scale", &err);
    CHECK(err);
    cl_mem buffer = cl.clCreateBuffer(context, CL_MEM_COPY_HOST_PTR,
                                      sizeof data, data, &err);
    CHECK(err);
    float factor = 2.0f;
    cl_int n = COUNT;
    CHECK(cl.clSetKernelArg(kernel, 0, sizeof buffer, &buffer));
    CHECK(cl.clSetKernelArg(kernel, 1, sizeof factor, &factor));
    CHECK(cl.clSetKernelArg(kernel, 2, sizeof n, &n));
    size_t global = 1024, local = 64;
    for (int launch = 0; launch < 2; launch++)
        CHECK(cl.clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local,
                                        0, NULL, NULL));
    CHECK(cl.clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, sizeof j->result,
                                 j->result, 0, NULL, NULL));
    CHECK(cl.clReleaseMemObject(buffer));
    CHECK(cl.clReleaseKernel(kernel));
    CHECK(cl.clReleaseProgram(program));
    CHECK(cl.clReleaseCommandQueue(queue));
    return NULL;
}

static void print_job(const job *j)
{
    double sum = 0;
    for (int i = 0; i < COUNT; i++)
        sum += j->result[i];
    printf("job %d: first=%.1f last=%.1f sum=%.1f\n", j->index, j->result[0],
           j->result[COUNT - 1], sum);
}

#ifdef DL_TEST_PLUGIN
__attribute__((visibility("default"))) int shim_plugin_main(int argc,
                                                            char **argv)
#else
int main(int argc, char **argv)
#endif
{
    int threads = 0, fork_child = argc == 2 && !strcmp(argv[1], "--fork");
    if (argc == 3 && strcmp(argv[1], "--threads") == 0)
        threads = atoi(argv[2]);
    if (argc != 1 && !fork_child && (threads < 1 || threads > MAX_JOBS)) {
        fprintf(stderr, "usage: %s [--threads 1..%d | --fork]\n", argv[0],
                MAX_JOBS);
        return 2;
    }
    if (load_opencl() != 0)
        return 1;

    cl_platform_id platform;
    cl_int err;
    CHECK(cl.clGetPlatformIDs(1, &platform, NULL));
    CHECK(cl.clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    context = cl.clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);

    static job jobs[MAX_JOBS];
    if (threads == 0) {
        run_job(&jobs[0]);
        print_job(&jobs[0]);
    } else {
        pthread_t tid[MAX_JOBS];
        pthread_barrier_init(&start_line, NULL, (unsigned)threads);
        for (int t = 0; t < threads; t++) {
            jobs[t].index = t;
            jobs[t].wait = 1;
            if (pthread_create(&tid[t], NULL, run_job, &jobs[t]) != 0) {
                perror("pthread_create");
                return 1;
            }
        }
        for (int t = 0; t < threads; t++)
            pthread_join(tid[t], NULL);
        pthread_barrier_destroy(&start_line);
        for (int t = 0; t < threads; t++)
            print_job(&jobs[t]);
    }
    if (fork_child) {
        fflush(stdout);
        pid_t child = fork();
        if (child == 0)
            exit(0); /* runs the inherited exit handlers */
        if (child < 0 || waitpid(child, NULL, 0) != child) {
            perror("fork");
            return 1;
        }
    }
    CHECK(cl.clReleaseContext(context));
    return 0;
}
