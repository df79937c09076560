// A 2D launch: global, local and group ids, global size and group count
// in x and y, written at the element of the work-item's global position.
__kernel void grid2d(__global int *out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t w = get_global_size(0);
  int group = (int)(get_group_id(1) * get_num_groups(0) + get_group_id(0));
  int lin = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
  out[y * w + x] = (int)(x + 100 * y) + 10000 * lin + 1000000 * group + (int)get_global_size(1) * 100000000;
}
