package dxil

import (
	"regexp"
	"strings"
	"testing"

	"passlens/compiler/load"
)

// TestGroupedCaseLabels: a switch whose label groups hold several values
// (`case 1: case 3:`, and a value grouped with `default:`) has one LLVM
// edge per value, so a phi in a block reached both from the switch and by
// fallthrough needs one entry per edge; llvm-as-22 and opt-22 reject the
// output otherwise ("PHINode should have one entry for each predecessor").
func TestGroupedCaseLabels(t *testing.T) {
	t.Parallel()
	src := `RWStructuredBuffer<uint> Out : register(u0);
[numthreads(8, 1, 1)]
void main(uint3 t : SV_GroupThreadID) {
  uint x = 0;
  switch (t.x) {
  case 0:
    x = 5;
  case 1:
  case 3:
    x += 7;
    break;
  case 4:
    x = 9;
  case 2:
  default:
    x += 100;
    break;
  }
  Out[t.x] = x;
}`
	m, err := load.Module(&load.Source{Name: "grouped.hlsl", Path: "grouped.hlsl", Kind: "hlsl", Text: []byte(src)}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "grouped", m)
	want(t, "grouped", text, `switch i32 `, 1)
	checkLLVM(t, "grouped", text)
}

// TestDenormModeAttribute: entry points carry D3D's fp32 denormal rule,
// the interpreter's default, as the function attribute
// "fp32-denorm-mode"="ftz" (in an attribute group llvm-as-22 accepts);
// other functions do not.
func TestDenormModeAttribute(t *testing.T) {
	t.Parallel()
	src := `RWStructuredBuffer<float> Out : register(u0);
[numthreads(4, 1, 1)]
void main(uint3 t : SV_GroupThreadID) {
  Out[t.x] = Out[t.x] * 0.5;
  GroupMemoryBarrierWithGroupSync();
}`
	m, err := load.Module(&load.Source{Name: "denorm.hlsl", Path: "denorm.hlsl", Kind: "hlsl", Text: []byte(src)}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := runDXIL(t, "denorm", m)
	checkLLVM(t, "denorm", text)
	sm := regexp.MustCompile(`define void @main\(\) #(\d+) \{`).FindStringSubmatch(text)
	if sm == nil {
		t.Fatalf("entry without an attribute group:\n%s", text)
	}
	if !strings.Contains(text, "attributes #"+sm[1]+` = { "fp32-denorm-mode"="ftz" }`) {
		t.Errorf("attribute group #%s is not fp32-denorm-mode=ftz:\n%s", sm[1], text)
	}
	if strings.Count(text, "fp32-denorm-mode") != 1 {
		t.Errorf("want one denormal mode declaration:\n%s", text)
	}
}
