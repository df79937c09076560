module "sm3_rep_cap.pir"

; run: sm3-lower
; pixel: m=15

; The seed's second SM3 example: the trip count m * m is not an integer
; constant register, so fxc uses "defi i0, 255" and break_ge: the loop
; body runs at most 255 times.
;   int m; float4 main() : sv_target { float4 res = 0;
;     for (int k = 0; k < m * m; ++k) res += k; return res; }

@m = global uniform i32 binding 0, 0 kind "cbuffer"
@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  %m = load ptr<uniform, i32> @m
  %mm = mul i32 %m, %m
  br %loop
loop:
  %res = phi <4 x f32> [zero, %entry], [%res.next, %body]
  %k = phi i32 [0, %entry], [%k.next, %body]
  %more = icmp slt i32 %k, %mm
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
