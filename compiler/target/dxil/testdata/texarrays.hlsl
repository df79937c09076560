// Arrays of textures and samplers indexed at run time (TestDXILTextureArrays).
Texture2D<float4> t[3] : register(t0);
SamplerState s[2] : register(s0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint i = id.x % 3;
	o[id.x] = t[i].SampleLevel(s[id.x / 2], float2(0.3, 0.6), 0) + t[NonUniformResourceIndex(i)].Load(int3(1, 0, 0)) + t[2][uint2(0, 1)].x;
	uint w, h;
	t[i].GetDimensions(w, h);
	o[id.x + 4] = float4(w, h, 0, 0);
}
