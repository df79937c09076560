// DXC's default mode: half and the minimum-precision types compute at 32
// bits (values beyond 16-bit range survive).
RWStructuredBuffer<float> F : register(u0);
RWStructuredBuffer<int> I : register(u1);

half twice(half x) { return x * 2.0h; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    min16float a = 0.5h + 0.25h;
    half b = twice(65504.0);
    min10float3 v = min10float3(id.x, 2, 3);
    F[id.x] = a + b + v.x;
    min16int i = 40000;
    min16uint u = 70000;
    I[id.x] = i * 2 + (int)u + (int)id.x;
}
