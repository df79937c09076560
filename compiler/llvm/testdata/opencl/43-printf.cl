// printf: a variadic call.
__kernel void pf(__global int *x) {
  int i = get_global_id(0);
  if (x[i] < 0)
    printf("negative at %d: %d\n", i, x[i]);
}
