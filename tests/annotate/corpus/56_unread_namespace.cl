// dla-args:
// dla-expect: 1
// a brace that only C++ compiles: the runtime's scanner would see the
// kernel inside a body and ignore its annotation, so dl-annotate, which
// reads the file as OpenCL C, refuses to write an output it cannot trust
#ifdef __cplusplus
namespace sim {
#endif
struct s { float x, y; };

__kernel void shift(__global struct s *b, int n)
{
    int i = get_global_id(0);
    if (i < n)
        b[i].x += b[i].y;
}
#ifdef __cplusplus
}
#endif
