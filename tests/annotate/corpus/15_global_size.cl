// dla-args:
// no guard: the count is the NDRange (offset + size)
struct kv { uint key; float val; };

__kernel void fill(__global struct kv *t)
{
    size_t i = get_global_id(0);
    t[i].key = (uint)i;
    t[i].val = 0.0f;
}
