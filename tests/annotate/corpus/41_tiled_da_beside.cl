// dla-args: --layout asta --tile 8
// tiled launch with a DA argument beside the ASTA one: the DA index of
// the own record is contiguous in the lanes too, and both counts are read
// from the tiled range
struct v2 { float x, y; };

//DL: AoS: b[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void mix(__global struct v2 *a, __global struct v2 *b)
{
    size_t i = get_global_id(0);
    a[i].x += b[i].y;
    b[i].x = a[i].y;
}
