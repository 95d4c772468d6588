// dla-args: --layout asta --tile 8
// a launch flag written by hand is dl-annotate's to write: it goes, since
// this kernel (local ids) keeps the flat form
struct q { float a, b; };

//DL: launch: tiled
__kernel void handmade(__global struct q *p, int n)
{
    int i = get_global_id(0);
    if (i < n)
        p[i].a = (float)get_local_id(0);
}
