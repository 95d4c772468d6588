/* a record and a helper that dl-annotate cannot copy: they are in a
 * header, not in the source it rewrites */
struct hp {
    float x;
    float v;
};

static float hp_speed(__global const struct hp *q)
{
    return q->v * 2.0f;
}
