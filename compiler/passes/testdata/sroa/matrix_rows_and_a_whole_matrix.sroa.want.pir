module "t"

@Out = global storage [? x f32] binding 0, 0 kind "RWStructuredBuffer"
@tid = global input <3 x u32> semantic "SV_DispatchThreadID"

define void @main() compute numthreads(4, 1, 1) {
entry:
  %id = load ptr<input, <3 x u32>> @tid
  %i = extractvalue <3 x u32> %id, 0
  %f = uitofp u32 %i to f32
  %m.ld.row = extractvalue <2 x 2 x f32> zero, 1
  %m.1 = insertelement <2 x f32> %m.ld.row, f32 %f, u32 %i
  %m.2 = insertvalue <2 x 2 x f32> zero, <2 x f32> %m.1, 1
  %ry = extractvalue <2 x f32> <3.0, 4.0>, 1
  %a = extractvalue <2 x 2 x f32> %m.2, 1, 0
  %b = extractvalue <2 x 2 x f32> %m.2, 1, 1
  %s = fadd f32 %a, %b
  %s2 = fadd f32 %s, %ry
  %p = access ptr<storage, [? x f32]> @Out, u32 %i
  store f32 %s2, ptr<storage, f32> %p
  ret
}
