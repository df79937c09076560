// Seed sm1-3-lowering-and-structurizer.txt, first loop: the trip count is the
// integer uniform m itself, so SM3 code loops with `rep i0` on an integer
// constant register.
int m;
float4 main() : sv_target
{
float4 res = {0, 0, 0, 0};
for (int k = 0; k < m; ++k)
res += k;
return res;
}
