/* test_lock_check.c - the lock rule's check (runtime/core/clapi_check.c):
 * in lock_check builds, a blocking OpenCL call through dl_cl made under
 * the runtime's lock aborts the process; the same call without the lock,
 * and a non-blocking one under it, go through.  Each call runs in a child
 * process.  The wrappers check before calling, so the calls' arguments
 * need not be valid. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "clapi.h"
#include "rt_internal.h"

typedef enum {
    CALL_WAIT,
    CALL_FINISH,
    CALL_BUILD,
    CALL_BLOCKING_READ,
    CALL_READ,
    CALL_BLOCKING_MAP
} call;

static void make_call(call c)
{
    cl_int err;
    switch (c) {
    case CALL_WAIT:
        dl_cl.clWaitForEvents(0, NULL);
        break;
    case CALL_FINISH:
        dl_cl.clFinish(NULL);
        break;
    case CALL_BUILD:
        dl_cl.clBuildProgram(NULL, 0, NULL, "", NULL, NULL);
        break;
    case CALL_BLOCKING_READ:
    case CALL_READ:
        dl_cl.clEnqueueReadBuffer(NULL, NULL, c == CALL_BLOCKING_READ, 0, 0,
                                  NULL, 0, NULL, NULL);
        break;
    case CALL_BLOCKING_MAP:
        dl_cl.clEnqueueMapBuffer(NULL, NULL, CL_TRUE, CL_MAP_READ, 0, 0, 0,
                                 NULL, NULL, &err);
        break;
    }
}

/* Whether the call, made in a child (under the lock if `locked`), aborted
 * it. */
static int aborts(call c, int locked)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (locked)
            rt_lock();
        make_call(c);
        _exit(0);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void test_blocking_under_lock(void **state)
{
    (void)state;
#ifndef DL_LOCK_CHECK
    skip();
#endif
    dl_cl_init_default();
    const call blocking[] = {CALL_WAIT, CALL_FINISH, CALL_BUILD,
                             CALL_BLOCKING_READ, CALL_BLOCKING_MAP};
    for (size_t i = 0; i < sizeof blocking / sizeof *blocking; i++) {
        assert_true(aborts(blocking[i], 1));
        assert_false(aborts(blocking[i], 0));
    }
    assert_false(aborts(CALL_READ, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_blocking_under_lock),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
