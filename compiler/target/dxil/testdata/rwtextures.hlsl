// Every read-write texture kind: reads, whole and component writes, Load,
// GetDimensions, atomics on 2D and 3D texels (TestDXILRWTextures).
RWTexture2D<float4> img : register(u0);
RWTexture2D<uint> cnt : register(u1);
RWTexture1D<float> line : register(u2);
RWTexture2DArray<int2> arr : register(u3);
globallycoherent RWTexture3D<uint> vol : register(u4);
RWTexture1DArray<uint4> rows : register(u5);
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
	uint w, h;
	img.GetDimensions(w, h);
	float4 c = img[id.xy];
	img[id.xy] = c.wzyx * 2 + float4(w, h, 0, 0);
	img[id.xy].y += id.x;
	img[id.xy].zw = img.Load(int2(id.xy)).xy;
	InterlockedAdd(cnt[uint2(id.x % 2, 0)], id.y + 1);
	InterlockedMax(cnt[uint2(id.x % 2, 1)], id.x * 8 + id.y);
	uint old;
	InterlockedOr(vol[uint3(id.x % 4, id.y % 4, (id.x + id.y) % 4)], 1u << id.x, old);
	uint prev;
	InterlockedCompareExchange(cnt[uint2(1, 1)], 63u, 100u, prev);
	InterlockedExchange(vol[uint3(3, 3, 3)], prev, old);
	uint lw;
	line.GetDimensions(lw);
	if (id.y == 0)
		line[id.x] = line[id.x] * 3 + lw;
	uint aw, ah, al;
	arr.GetDimensions(aw, ah, al);
	arr[uint3(id.xy, 1)] = arr[uint3(id.xy, 0)] + int2(id.x, -(int)id.y) + int(al);
	arr[uint3(id.xy, 0)].y = -7;
	uint rw, rl;
	rows.GetDimensions(rw, rl);
	if (id.x < 4)
		rows[uint2(id.y % rw, id.x % rl)] = uint4(id.x, id.y, rw, rl) + rows[uint2(id.y % rw, id.x % rl)].wzyx;
}
