// dla-args:
// whole-record load and store, expanded per part (gaps included)
struct pair { float a; int b; short c; };

__kernel void swap_halves(__global struct pair *p, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        struct pair r = p[i];
        r.a = (float)r.b;
        r.c += 1;
        p[i] = r;
    }
}
