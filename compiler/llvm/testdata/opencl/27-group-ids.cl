// Group ids are uniform, local ids divergent; 2D and 3D ids.
__kernel void gids(__global int *out) {
  int gx = get_group_id(0), gy = get_group_id(1), gz = get_group_id(2);
  int lx = get_local_id(0), ly = get_local_id(1);
  int w = get_num_groups(0);
  int r = gx + gy * w + gz;
  if (gx == 0)
    r += 100;
  if (ly == 1)
    r -= lx;
  out[get_global_id(0) + get_global_id(1) * get_global_size(0)] = r;
}
