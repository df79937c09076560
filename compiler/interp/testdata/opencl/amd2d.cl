// The same 2D positions from the AMDGPU builtins: workitem and workgroup
// ids (llvm.amdgcn.workitem.id.*, workgroup.id.*), the work-group size
// (loads from llvm.amdgcn.implicitarg.ptr) and the grid size (loads from
// the dispatch packet, llvm.amdgcn.dispatch.ptr).
__kernel void amd2d(__global int *out) {
  uint x = __builtin_amdgcn_workitem_id_x() + __builtin_amdgcn_workgroup_id_x() * __builtin_amdgcn_workgroup_size_x();
  uint y = __builtin_amdgcn_workitem_id_y() + __builtin_amdgcn_workgroup_id_y() * __builtin_amdgcn_workgroup_size_y();
  uint w = __builtin_amdgcn_grid_size_x();
  out[y * w + x] = (int)(x * 3 + y * 1000 + __builtin_amdgcn_grid_size_y() * 100000);
}
