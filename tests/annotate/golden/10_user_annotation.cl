// dla-args:
// the paper's annotation form: the count comes from the user
struct foo { float bar; int baz; };


//DL: v1 aos: f[global_size(0)] record(size=8; 0:4, 4:4) -> da
__kernel void scale(__global struct foo *f)
{
#ifdef DL_ACTIVE_scale
const size_t dla_M_f = (size_t)(long)get_global_size(0);

    ((__global float *)((__global char *)(f) + 0u * dla_M_f))[(size_t)(get_global_id(0))] *= 2.0f;
    ((__global int *)((__global char *)(f) + 4u * dla_M_f))[(size_t)(get_global_id(0))] += 1;

#else

    f[get_global_id(0)].bar *= 2.0f;
    f[get_global_id(0)].baz += 1;

#endif
}
