; Convergence control tokens with operand bundles, debug records, metadata, attributes, comdats.
$cd = comdat any
@g = addrspace(1) global i32 0, comdat($cd), align 4
define amdgpu_cs void @f(i32 inreg %u, i32 %d) #0 !dbg !3 {
entry:
  %tok = call token @llvm.experimental.convergence.entry()
  #dbg_value(i32 %d, !6, !DIExpression(), !7)
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %lt = call token @llvm.experimental.convergence.loop() [ "convergencectrl"(token %tok) ]
  %b = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %d) [ "convergencectrl"(token %lt) ], !dbg !7
  %i.next = add nsw i32 %i, %b, !dbg !7
  %c = icmp slt i32 %i.next, %u
  br i1 %c, label %loop, label %exit, !llvm.loop !8
exit:
  %r = call i32 @llvm.amdgcn.readfirstlane.i32(i32 %i.next) [ "convergencectrl"(token %tok) ]
  store i32 %r, ptr addrspace(1) @g, align 4, !noundef !9
  ret void
}
declare token @llvm.experimental.convergence.entry() #1
declare token @llvm.experimental.convergence.loop() #1
declare i32 @llvm.amdgcn.readfirstlane.i32(i32) #1
attributes #0 = { convergent "amdgpu-flat-work-group-size"="1,256" }
attributes #1 = { convergent nocallback nofree nounwind willreturn memory(none) }
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0)
!4 = !DISubroutineType(types: !5)
!5 = !{null}
!6 = !DILocalVariable(name: "d", scope: !3, file: !1, line: 1)
!7 = !DILocation(line: 2, column: 3, scope: !3)
!8 = distinct !{!8}
!9 = !{}
