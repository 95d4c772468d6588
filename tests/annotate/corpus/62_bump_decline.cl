// dla-args:
// moves that are not rewritten: after a use, twice, by a variable, and
// a move without an annotated count (which would count from the moved
// pointer)
struct cell { float a; float b; };

// DL: AoS: p[n]
// DL: AoS: q[n]
// DL: AoS: r[n]
__kernel void moves(__global struct cell *p, __global struct cell *q,
                    __global struct cell *r, __global struct cell *s,
                    int n, int off)
{
    int i = get_global_id(0);
    float x = p[i].a;
    p += 4;
    q += 1;
    q += 1;
    r += off;
    s += 2;
    if (i < n)
        p[i].b = x + q[i].a + r[i].a + s[i].a;
}
