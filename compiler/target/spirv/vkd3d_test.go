package spirv

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"passlens/compiler/hlsl"
	"passlens/compiler/hlsl/lower"
	"passlens/compiler/ir"
	"passlens/internal/vkd3d"
)

// The vkd3d HLSL conformance shaders through the SPIR-V back end. The
// .shader_test files are read from ../shared/conformance beside the
// checkout (never copied into the repository) and split into units by
// passlens/internal/vkd3d, classified as compiler/hlsl's conformance
// tests do: shaders that apply to shader model 6, are not expected to
// fail, need no feature outside the subset (doubles, 64-bit and 16-bit
// types, geometry and tessellation shaders, ROVs) and are pixel, vertex or
// compute shaders.

// vkd3dModule is a unit that the HLSL frontend and lowering accept.
type vkd3dModule struct {
	u     *vkd3d.Unit
	label string
	m     *ir.Module
}

// vkd3dCounts counts what happened to the units before the back end.
type vkd3dCounts struct {
	units, applicable, outside, rejected, notLowered int
	outsideWhy, notLoweredWhy                        map[string]int
}

// loadVKD3D compiles every applicable unit with the HLSL frontend and
// lowering and returns the modules that lowered (before any pass).
func loadVKD3D(t testing.TB) ([]vkd3dModule, vkd3dCounts) {
	c := vkd3dCounts{outsideWhy: map[string]int{}, notLoweredWhy: map[string]int{}}
	var out []vkd3dModule
	for _, f := range vkd3d.Load(t) {
		for _, u := range f.Units() {
			c.units++
			sm, ok := u.SM6()
			if !ok || u.ExpectFail(sm) {
				continue
			}
			c.applicable++
			if why := u.OutsideSubset(); why != "" {
				c.outside++
				c.outsideWhy[why]++
				continue
			}
			opts := hlsl.Options{Entry: "main"}
			switch u.Stage {
			case "pixel":
				opts.Stage = hlsl.StagePixel
			case "vertex":
				opts.Stage = hlsl.StageVertex
			case "compute":
				opts.Stage = hlsl.StageCompute
			}
			for _, o := range u.Options {
				if o == "row-major" {
					opts.RowMajor = true
				}
			}
			opts.Enable16BitTypes = u.Native16Bit() // dxc -enable-16bit-types, as vkd3d compiles native-16-bit units
			// Give the source its .shader_test line numbers.
			src := strings.Repeat("\n", u.Line-1) + u.Src
			prog, diags := hlsl.Frontend(u.File, []byte(src), opts)
			if diags.HasErrors() {
				c.rejected++
				continue
			}
			m, ld := lower.Lower(prog, opts)
			if m == nil || ld.HasErrors() {
				c.notLowered++
				for _, d := range ld {
					if d.Severity == hlsl.Error {
						c.notLoweredWhy[lowerReason(d.Message)]++
						break
					}
				}
				continue
			}
			out = append(out, vkd3dModule{u: u, label: u.Label(), m: m})
		}
	}
	return out, c
}

// lowerReason names the kind of a lowering diagnostic.
func lowerReason(msg string) string {
	switch {
	case strings.Contains(msg, "derivative"):
		return "derivatives"
	case strings.Contains(msg, "GetDimensions"):
		return "GetDimensions"
	case strings.Contains(msg, "resources"):
		return "resource aggregates"
	}
	if i := strings.IndexAny(msg, ":'"); i > 0 {
		return strings.TrimSpace(msg[:i])
	}
	return msg
}

// backendReason names the kind of a back-end rejection for the counts:
// the message without the global's name ("system-value semantic
// SV_ClipDistance is not supported for a vertex output in SPIR-V").
func backendReason(msg string) string {
	if strings.HasPrefix(msg, "global @") {
		if i := strings.Index(msg, ": "); i > 0 {
			msg = msg[i+2:]
		}
	}
	return msg
}

// counts renders a reason histogram, most frequent first.
func counts(m map[string]int) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range m {
		all = append(all, kv{k, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n || all[i].n == all[j].n && all[i].k < all[j].k })
	var parts []string
	for _, e := range all {
		parts = append(parts, fmt.Sprintf("%s=%d", e.k, e.n))
	}
	return strings.Join(parts, ", ")
}

// TestVKD3D compiles every supported vkd3d shader through the spirv
// pipeline and the back end: spirv-val --target-env vulkan1.1 must
// accept every emitted module, and every module the back end rejects
// must be rejected with an *Error that names the function (and, where
// the IR has one, the source position). Rejections are counted by
// reason. The disassembly must equal spirv-dis's, and no OpSwitch may
// fall through a non-empty case (switch-to-if ran). Set VKD3D_VERBOSE=1
// to list every rejection.
func TestVKD3D(t *testing.T) {
	t.Parallel()
	needTool(t, "spirv-val")
	mods, c := loadVKD3D(t)
	verbose := os.Getenv("VKD3D_VERBOSE") != ""
	var emitted, valid int
	pipeFail, rejectWhy := map[string]int{}, map[string]int{}
	var rejections []string
	for _, vm := range mods {
		if err := runSpirvPipeline(vm.m); err != nil {
			t.Errorf("%s: the spirv pipeline fails: %v", vm.label, err)
			pipeFail[firstLine(err.Error())]++
			continue
		}
		words, err := Assemble(vm.m, Options{})
		if err != nil {
			var se *Error
			switch {
			case !errors.As(err, &se):
				t.Errorf("%s: back-end error without a location: %v", vm.label, err)
			case se.Func == "" && se.Line == 0:
				t.Errorf("%s: back-end error names no function or source line: %v", vm.label, err)
			default:
				rejectWhy[backendReason(se.Msg)]++
				rejections = append(rejections, vm.label+": "+err.Error())
			}
			continue
		}
		emitted++
		if msg := spirvVal(t, words, "vulkan1.1"); msg != "" {
			text, _ := Disassemble(words)
			t.Errorf("%s: spirv-val rejects the module:\n%s\n%s", vm.label, msg, text)
			continue
		}
		valid++
		text, err := Disassemble(words)
		if err != nil {
			t.Errorf("%s: Disassemble: %v", vm.label, err)
		} else if want := spirvDis(t, words); text != want {
			t.Errorf("%s: Disassemble differs from spirv-dis:\n%s", vm.label, firstDiff(text, want))
		}
		if err := checkSwitches(words); err != nil {
			t.Errorf("%s: %v", vm.label, err)
		}
	}
	t.Logf("vkd3d shaders (SM6): %d units, %d applicable; %d outside the subset [%s]; %d rejected by the frontend; %d not lowered [%s]",
		c.units, c.applicable, c.outside, counts(c.outsideWhy), c.rejected, c.notLowered, counts(c.notLoweredWhy))
	t.Logf("  %d lowered: %d pipeline failures, %d rejected by the SPIR-V back end [%s], %d emitted, %d accepted by spirv-val",
		len(mods), len(mods)-emitted-len(rejections), len(rejections), counts(rejectWhy), emitted, valid)
	if verbose {
		for _, r := range rejections {
			t.Log(r)
		}
	}
	if len(mods) < 100 {
		t.Errorf("only %d vkd3d shaders lowered; expected several hundred", len(mods))
	}
}
