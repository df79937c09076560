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
/* OpenCL integer built-ins (clmath.cl), overloaded as in OpenCL C. */
#define OV __attribute__((overloadable))
static int OV clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
static int OV max(int a, int b) { return a > b ? a : b; }
static uint OV min(uint a, uint b) { return a < b ? a : b; }
static uint OV abs(int x) { return x < 0 ? -(uint)x : (uint)x; }
static uint OV popcount(uint x) { return (uint)__builtin_popcount(x); }
static uint OV clz(uint x) { return x ? (uint)__builtin_clz(x) : 32u; }
static uint OV rotate(uint x, uint s) { s &= 31u; return s ? (x << s) | (x >> (32u - s)) : x; }
static uint OV mul_hi(uint a, uint b) { return (uint)(((unsigned long)a * b) >> 32); }
static int OV mul_hi(int a, int b) { return (int)(((long)a * b) >> 32); }
static int OV mad24(int a, int b, int c) { return a * b + c; }
static int OV add_sat(int a, int b) { long s = (long)a + b; return s > 2147483647L ? 2147483647 : s < -2147483648L ? (int)-2147483648L : (int)s; }
