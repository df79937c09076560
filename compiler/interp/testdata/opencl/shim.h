/* Host shim: compiles the OpenCL C kernels of this directory as C for the
   host (clang-22 -x c), for differential execution against passlens's
   interpreter. The test's generated main sets the ids before each call. */
#include <stdio.h>
typedef unsigned int uint;
typedef unsigned long ulong;
#define __kernel
#define __global
#define __local
#define __constant const
static size_t shim_gid[3], shim_lid[3], shim_grp[3], shim_lsz[3] = {1, 1, 1}, shim_ngr[3] = {1, 1, 1};
static size_t get_global_id(uint d) { return d < 3 ? shim_gid[d] : 0; }
static size_t get_local_id(uint d) { return d < 3 ? shim_lid[d] : 0; }
static size_t get_group_id(uint d) { return d < 3 ? shim_grp[d] : 0; }
static size_t get_local_size(uint d) { return d < 3 ? shim_lsz[d] : 1; }
static size_t get_num_groups(uint d) { return d < 3 ? shim_ngr[d] : 1; }
static size_t get_global_size(uint d) { return d < 3 ? shim_lsz[d] * shim_ngr[d] : 1; }
#define __builtin_amdgcn_workitem_id_x() ((uint)shim_lid[0])
#define __builtin_amdgcn_workitem_id_y() ((uint)shim_lid[1])
#define __builtin_amdgcn_workgroup_id_x() ((uint)shim_grp[0])
#define __builtin_amdgcn_workgroup_id_y() ((uint)shim_grp[1])
#define __builtin_amdgcn_workgroup_size_x() ((unsigned short)shim_lsz[0])
#define __builtin_amdgcn_workgroup_size_y() ((unsigned short)shim_lsz[1])
#define __builtin_amdgcn_grid_size_x() ((uint)(shim_lsz[0] * shim_ngr[0]))
#define __builtin_amdgcn_grid_size_y() ((uint)(shim_lsz[1] * shim_ngr[1]))
static int atomic_add(volatile int *p, int v) { int o = *p; *p = o + v; return o; }
static int atomic_max(volatile int *p, int v) { int o = *p; *p = o > v ? o : v; return o; }
static int atomic_min(volatile int *p, int v) { int o = *p; *p = o < v ? o : v; return o; }
static int atomic_inc(volatile int *p) { int o = *p; *p = o + 1; return o; }
static int atomic_xor(volatile int *p, int v) { int o = *p; *p = o ^ v; return o; }
