//
// Registers:
//
//   Name         Reg   Size
//   ------------ ----- ----
//   t2+s         s1       1
//   t2+p         s0       1
//   tc+s         s2       1
//   tv+p         s3       1
//

    ps_3_0
    def c0, 2, 0, 0, 0
    dcl_texcoord v0
    dcl_texcoord1 v1
    dcl_texcoord2 v2
    dcl_2d s1
    dcl_2d s0
    dcl_cube s2
    dcl_volume s3
    mov r6.xy, v0
    texld r6, r6, s1
    mov r0, r6
    mov r6.xy, v0
    mov r6.w, v2.x
    texldl r6, r6, s0
    mov r1, r6
    mov r6.xy, v0
    mov r7.xy, v2
    mov r8.x, v2.z
    mov r8.y, v2.w
    texldd r6, r6, s1, r7, r8
    mov r2, r6
    mov r6.xy, v0
    mov r6.w, v2.w
    texldb r6, r6, s1
    mov r3, r6
    mov r6.xyz, v1
    texld r6, r6, s2
    mov r4, r6
    mov r6.xyz, v1
    mov r6.w, c0.x
    texldl r6, r6, s3
    mov r5.x, r6.y
    add r0, r0, r1
    add r0, r0, r2
    add r0, r0, r3
    add r0, r0, r4
    add r0, r0, r5.x
    mov oC0, r0
