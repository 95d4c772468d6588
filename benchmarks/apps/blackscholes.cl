/* blackscholes.cl - European call and put prices by the Black-Scholes
 * formula, one option per work-item.
 *
 * Input: an array of option records (5 floats: spot S, strike K, years to
 * expiry T, riskless rate r, volatility v).  Output: an array of price
 * records (call, put).  The normal distribution function is the
 * Abramowitz-Stegun 26.2.17 polynomial (error below 7.5e-8).
 *
 * Build options: -DNOPT=.. (number of options) */

typedef struct {
    float S; /* spot price        */
    float K; /* strike price      */
    float T; /* time to expiry, y */
    float r; /* riskless rate     */
    float v; /* volatility        */
} option_t;

typedef struct {
    float call;
    float put;
} price_t;

/* cumulative standard normal distribution */
static float cnd(float d)
{
    const float a1 = 0.319381530f;
    const float a2 = -0.356563782f;
    const float a3 = 1.781477937f;
    const float a4 = -1.821255978f;
    const float a5 = 1.330274429f;
    const float inv_sqrt_2pi = 0.39894228040143267794f;
    const float k = 1.0f / (1.0f + 0.2316419f * fabs(d));
    const float poly = k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5))));
    const float tail = inv_sqrt_2pi * exp(-0.5f * d * d) * poly;
    return d > 0.0f ? 1.0f - tail : tail;
}

__kernel void bs_price(__global const option_t *restrict opt,
                       __global price_t *restrict price)
{
    const int i = get_global_id(0);
    if (i >= NOPT)
        return;
    const float S = opt[i].S;
    const float K = opt[i].K;
    const float T = opt[i].T;
    const float r = opt[i].r;
    const float v = opt[i].v;

    const float sqrtT = sqrt(T);
    const float vsqrtT = v * sqrtT;
    const float d1 = (log(S / K) + (r + 0.5f * v * v) * T) / vsqrtT;
    const float d2 = d1 - vsqrtT;
    const float n1 = cnd(d1);
    const float n2 = cnd(d2);
    const float disc = K * exp(-r * T);

    price[i].call = S * n1 - disc * n2;
    price[i].put = disc * (1.0f - n2) - S * (1.0f - n1);
}
