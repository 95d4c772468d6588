#include "no_such_header.h"

__kernel void k(__global float *p) { p[0] = 1.0f; }
