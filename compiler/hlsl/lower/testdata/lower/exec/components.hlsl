// Writes of single components by many threads at once (D3D and Vulkan
// write only the named component, so no thread undoes another's write):
// a groupshared vector at a dynamic index, a groupshared matrix element,
// a storage buffer vector component, a row and an element of a
// column-major matrix in a storage buffer (stored transposed), a static
// (private) vector and a local vector.
RWStructuredBuffer<uint4> Out : register(u0);
RWStructuredBuffer<float4x4> M : register(u1);

groupshared uint4 G;
groupshared uint4x4 GM;
static uint4 S;

[numthreads(4, 1, 1)]
void main(uint3 t : SV_GroupThreadID) {
  uint i = t.x;
  G[i] = i + 10;
  GM[i][3 - i] = i + 20;
  Out[1][i] = i * 2;
  M[0][i] = float4(10 * i, 10 * i + 1, 10 * i + 2, 10 * i + 3);
  M[1][i][3 - i] = i + 1;
  S[i] = 1;
  uint4 L = 100;
  L[i] = i;
  GroupMemoryBarrierWithGroupSync();
  Out[0] = G;
  Out[3] = uint4(GM[0][3], GM[1][2], GM[2][1], GM[3][0]);
  Out[4 + i] = S;
  Out[8 + i] = L;
}
