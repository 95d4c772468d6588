// dla-args:
// a nested struct and an array inside the record
struct vec3 { float x, y, z; };
struct atom { struct vec3 pos; float q[3]; int kind; };

__kernel void shift(__global struct atom *a, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        float s = 0.0f;
        for (int k = 0; k < 3; k++)
            s += a[i].q[k];
        a[i].pos.x += s;
        a[i].pos.z = a[i].pos.y * (float)a[i].kind;
    }
}
