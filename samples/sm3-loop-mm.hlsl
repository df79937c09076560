// Seed sm1-3-lowering-and-structurizer.txt, second loop: the trip count m * m
// is computed, so m lives in a float constant register, i0 is set to 255 with
// defi, and break_ge leaves the loop.
int m;
float4 main() : sv_target
{
float4 res = {0, 0, 0, 0};
for (int k = 0; k < m * m; ++k)
res += k;
return res;
}
