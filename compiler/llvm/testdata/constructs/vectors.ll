; Vectors of pointers, <1 x T>, wide vectors, poison shuffle masks, extract/insertvalue.
define void @f(<2 x ptr addrspace(1)> %ps, <1 x i32> %one, <8 x float> %wide, i32 inreg %u) {
entry:
  %p0 = extractelement <2 x ptr addrspace(1)> %ps, i32 0
  %v = load i32, ptr addrspace(1) %p0, align 4
  %ins = insertelement <2 x ptr addrspace(1)> %ps, ptr addrspace(1) %p0, i32 1
  %o = extractelement <1 x i32> %one, i64 0
  %sh = shufflevector <8 x float> %wide, <8 x float> poison, <4 x i32> <i32 0, i32 poison, i32 2, i32 7>
  %e = extractelement <4 x float> %sh, i32 2
  %agg = insertvalue { i32, <2 x ptr addrspace(1)> } poison, i32 %v, 0
  %agg2 = insertvalue { i32, <2 x ptr addrspace(1)> } %agg, <2 x ptr addrspace(1)> %ins, 1
  %back = extractvalue { i32, <2 x ptr addrspace(1)> } %agg2, 1
  %q = extractelement <2 x ptr addrspace(1)> %back, i32 1
  %f = fptosi float %e to i32
  %sum = add i32 %o, %f
  %c = icmp sgt i32 %u, 3
  br i1 %c, label %a, label %b
a:
  store i32 %sum, ptr addrspace(1) %q, align 4
  br label %b
b:
  ret void
}
