/* unselected.cl - a hand-written annotation that asks for a conversion to
 * DA on a kernel that has no transformed indexing (no DL_ACTIVE_ branch):
 * converting its buffer would make the kernel read DA bytes as records.
 * The runtime must refuse the annotation and run the kernel as written. */

struct particle {
    float x;
    int id;
    long mass;
    short tag;
    uchar flag;
};

/* refused: the source never selects a DA indexing for this kernel */
//DL: aos: p[n] record(size=24; 0:4, 4:4, 8:8, 16:2, 18:1) -> da
__kernel void hand_da(__global struct particle *p, int n, float dx)
{
    size_t i = get_global_id(0);
    if (i >= (size_t)n)
        return;
    p[i].x += dx;
    p[i].id = (int)((uint)p[i].id * 3u + 1u);
    p[i].mass += p[i].id;
    p[i].tag += 1;
    p[i].flag ^= 0x5a;
}
