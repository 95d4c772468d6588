/* permute_case.h - oclgrind-driver's "permute" case (permute_case.c). */
#ifndef DL_PERMUTE_CASE_H
#define DL_PERMUTE_CASE_H

#include <CL/cl.h>

int run_permutes(cl_context ctx, cl_device_id dev, cl_command_queue q);

#endif
