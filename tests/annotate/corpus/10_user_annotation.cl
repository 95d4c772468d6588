// dla-args:
// the paper's annotation form: the count comes from the user
struct foo { float bar; int baz; };

//DL: AoS: f[global_size(0)]
__kernel void scale(__global struct foo *f)
{
    f[get_global_id(0)].bar *= 2.0f;
    f[get_global_id(0)].baz += 1;
}
