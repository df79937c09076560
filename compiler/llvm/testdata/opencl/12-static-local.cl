// A statically sized __local array (an addrspace(3) global).
__kernel void slocal(__global int *out) {
  __local int buf[64];
  int l = get_local_id(0);
  buf[l & 63] = l * 7;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = buf[(l + 1) & 63];
}
