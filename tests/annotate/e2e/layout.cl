/* layout.cl - kernel of dla-e2e-host's `layout` case: the order of the
 * record's fields depends on a build option.  The host builds it with
 * -DBIG, dl-annotate is run without it, so the offsets it bakes in are
 * wrong for the program: the transformed branch's layout checks must fail
 * the activated build, and the program must run as written. */
struct rec {
#ifdef BIG
    float4 v;
    float a;
    int b;
#else
    float a;
    int b;
    float4 v;
#endif
};

__kernel void reorder(__global struct rec *p, float dt, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        p[i].a += dt * p[i].v.x;
        p[i].b += 1;
        p[i].v.y -= p[i].a;
    }
}
