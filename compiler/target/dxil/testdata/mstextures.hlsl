// Multisampled textures: Load with a sample index and an offset, operator[]
// (sample 0), GetDimensions with the sample count (TestDXILMSTextures).
Texture2DMS<float4, 4> t : register(t0);
Texture2DMSArray<uint2> ta : register(t1);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint w, h, s;
	t.GetDimensions(w, h, s);
	uint aw, ah, ae, as;
	ta.GetDimensions(aw, ah, ae, as);
	o[id.x * 3] = t.Load(int2(id.x % 2, id.x / 2), id.x) + t[uint2(1, 0)];
	o[id.x * 3 + 1] = t.Load(int2(0, 0), 1, int2(1, 1)) + float4(w, h, s, 0);
	o[id.x * 3 + 2] = float4(ta.Load(int3(id.x % 2, 0, id.x / 2), id.x % 2), aw * 100 + ah * 10 + ae, as);
}
