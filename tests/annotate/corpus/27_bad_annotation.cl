// dla-args:
// dla-expect: 1
// an annotation the runtime rejects is an input error
struct foo { float a; float b; };

//DL: AoS: f[n] -> asta(16)
__kernel void add(__global struct foo *f, int n)
{
    int i = get_global_id(0);
    if (i < n)
        f[i].a += f[i].b;
}
