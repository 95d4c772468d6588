// dla-args:
// no guard: the count is the NDRange (offset + size)
struct kv { uint key; float val; };

//DL: v1 aos: t[global_offset(0) + global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void fill(__global struct kv *t)
{
#ifdef DL_ACTIVE_fill
const size_t dla_M_t = (size_t)((long)get_global_offset(0) + (long)get_global_size(0));

    size_t i = get_global_id(0);
    ((__global uint *)((__global char *)(t) + 0u * dla_M_t))[(size_t)(i)] = (uint)i;
    ((__global float *)((__global char *)(t) + 4u * dla_M_t))[(size_t)(i)] = 0.0f;

#else

    size_t i = get_global_id(0);
    t[i].key = (uint)i;
    t[i].val = 0.0f;

#endif
}
