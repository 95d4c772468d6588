// dla-args: --layout asta
// a typedef'd anonymous struct, the early-return guard, asta(auto)
typedef struct {
    float S, K, T;
} option_t;

kernel void price(global const option_t *restrict opt, global float *out,
                  uint n)
{
    const size_t i = get_global_id(0);
    if (i >= n)
        return;
    out[i] = opt[i].S - opt[i].K * exp(-opt[i].T);
}
