module "sm3_const_loop.pir"

; run: sm3-lower
; pixel:

; A loop with a constant trip count: rep with "defi i0, 10" (the exact
; count), no cap in effect.
;   float4 main() : sv_target { int s = 0;
;     for (int k = 0; k < 10; ++k) s += k * k; return float4(s, 0, 0, 1); }

@color = global output <4 x f32> semantic "SV_Target0"

define void @main() pixel {
entry:
  br %loop
loop:
  %s = phi i32 [0, %entry], [%s.next, %body]
  %k = phi i32 [0, %entry], [%k.next, %body]
  %more = icmp slt i32 %k, 10
  loop_merge %exit, %body
  condbr bool %more, %body, %exit
body:
  %kk = mul i32 %k, %k
  %s.next = add i32 %s, %kk
  %k.next = add i32 %k, 1
  br %loop
exit:
  %sf = sitofp i32 %s to f32
  %c = construct <4 x f32> (f32 %sf, f32 0.0, f32 0.0, f32 1.0)
  store <4 x f32> %c, ptr<output, <4 x f32>> @color
  ret
}
