module "sm3_rep_uniform.pir"

; run: sm3-lower
; run: out-of-ssa,sm3-lower
; pixel: m=37

; The seed's first SM3 example: a loop counted by a uniform integer.
;   int m; float4 main() : sv_target { float4 res = 0;
;     for (int k = 0; k < m; ++k) res += k; return res; }
; fxc: rep i0 (m bound to the integer constant register i0).

@m = global uniform i32 binding 0, 0 kind "cbuffer"
@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %m = load ptr<uniform, i32> @m
  br %loop
loop:
  %res = phi <4 x f32> [zero, %entry], [%res.next, %body]
  %k = phi i32 [0, %entry], [%k.next, %body]
  %more = icmp slt i32 %k, %m
  loop_merge %exit, %body
  condbr bool %more, %body, %exit
body:
  %kf = sitofp i32 %k to f32
  %kv = construct <4 x f32> (f32 %kf, f32 %kf, f32 %kf, f32 %kf)
  %res.next = fadd <4 x f32> %res, %kv
  %k.next = add i32 %k, 1
  br %loop
exit:
  store <4 x f32> %res, ptr<output, <4 x f32>> @color
  ret
}
