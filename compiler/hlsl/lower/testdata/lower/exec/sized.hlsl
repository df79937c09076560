// 16- and 64-bit types (compiled with -enable-16bit-types): word
// intrinsics, bit intrinsics on 64-bit operands, wrapping and rounding.
RWStructuredBuffer<uint> U : register(u0);
RWStructuredBuffer<double> D : register(u1);
RWStructuredBuffer<uint64_t> Q : register(u2);
RWStructuredBuffer<half> H : register(u3);
RWStructuredBuffer<int16_t> S : register(u4);

[numthreads(1, 1, 1)]
void main()
{
    uint lo, hi;
    splitdouble(1.5, lo, hi);
    U[0] = lo;
    U[1] = hi;
    uint2 sum = AddUint64(uint2(0xFFFFFFFF, 1), uint2(1, 2));
    U[2] = sum.x;
    U[3] = sum.y;
    uint64_t wide = 0xFFFF0000FFFFull;
    U[4] = countbits(wide);
    U[5] = firstbithigh(1ull << 40);
    U[6] = firstbitlow(1ull << 40);
    U[7] = firstbithigh((int64_t)-1);
    U[8] = firstbitlow((uint64_t)0);
    D[0] = asdouble(0u, 0x3FF00000u);
    D[1] = 5.57;
    double a = 1.0000000009313226; // 1 + 2^-30
    D[2] = fma(a, a, -(a + a - 1.0)); // exact 2^-60; mad rounds the product to 1 + 2^-29 first
    D[3] = mad(a, a, -(a + a - 1.0));
    Q[0] = reversebits(1ull);
    Q[1] = (uint64_t)-2147483648;
    H[0] = (half)0.1;
    H[1] = (half)70000.0;
    S[0] = (int16_t)40000;
    S[1] = (int16_t)firstbithigh((int16_t)-2);
}
