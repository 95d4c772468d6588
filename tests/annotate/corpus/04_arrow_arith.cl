// dla-args:
// (p + E)->f and p->f (record 0: not inferable, so annotated)
struct cell { int a; int b; };

//DL: AoS: c[n]
__kernel void arrow(__global struct cell *c, int n)
{
    int i = get_global_id(0);
    if (i < n && i > 0)
        (c + i)->a = (c + i)->b + c->b;
}
