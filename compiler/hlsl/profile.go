package hlsl

import (
	"fmt"
	"strconv"
	"strings"
)

// ShaderModel is a shader model version, 6.6 as {6, 6}. The zero value
// means "no profile given": the frontend then accepts every feature it
// knows, as the newest model it checks (LatestShaderModel) would.
type ShaderModel struct {
	Major, Minor int
}

// LatestShaderModel is the newest shader model the profiles accept
// (cs_6_8): what the frontend checks features against without a profile.
var LatestShaderModel = ShaderModel{6, 8}

// IsZero reports whether no shader model was given.
func (m ShaderModel) IsZero() bool { return m == ShaderModel{} }

// Less reports whether m is an older shader model than o.
func (m ShaderModel) Less(o ShaderModel) bool {
	return m.Major < o.Major || m.Major == o.Major && m.Minor < o.Minor
}

func (m ShaderModel) String() string { return fmt.Sprintf("%d.%d", m.Major, m.Minor) }

// Profile is a dxc target profile (-T): a stage and a shader model, e.g.
// cs_6_6, or a library (lib_6_x) whose stage comes from the entry point.
// ps_3_0 and vs_3_0 are FXC's shader model 3 profiles, which passlens
// compiles with its SM3 target.
type Profile struct {
	Name    string // as given, e.g. "cs_6_6"; "" when no profile was given
	Stage   Stage  // StageUnknown for a library profile
	Model   ShaderModel
	Library bool // lib_6_x
}

// IsSM3 reports whether p is ps_3_0 or vs_3_0.
func (p Profile) IsSM3() bool { return p.Model.Major == 3 }

// profileStages are the stage prefixes of the profiles passlens accepts.
var profileStages = []struct {
	prefix string
	stage  Stage
}{{"cs", StageCompute}, {"ps", StagePixel}, {"vs", StageVertex}, {"lib", StageUnknown}}

// ProfileNames lists the valid profiles, for usage messages: cs_6_0 …
// cs_6_8, ps_6_0 … ps_6_8, vs_6_0 … vs_6_8, lib_6_3 … lib_6_8, ps_3_0,
// vs_3_0.
func ProfileNames() []string {
	var out []string
	for _, s := range profileStages {
		lo := 0
		if s.prefix == "lib" {
			lo = 3 // DXC's DXIL libraries start at 6.3 (lib_6_1/6_2 are offline-only)
		}
		for minor := lo; minor <= LatestShaderModel.Minor; minor++ {
			out = append(out, fmt.Sprintf("%s_6_%d", s.prefix, minor))
		}
	}
	return append(out, "ps_3_0", "vs_3_0")
}

// ProfileSummary is the valid profiles in one short line.
const ProfileSummary = "cs_6_0…cs_6_8, ps_6_0…ps_6_8, vs_6_0…vs_6_8, lib_6_3…lib_6_8, ps_3_0, vs_3_0"

// ParseProfile reads a dxc profile name ("cs_6_6"). The error lists the
// valid profiles.
func ParseProfile(s string) (Profile, error) {
	for _, n := range ProfileNames() {
		if n != s {
			continue
		}
		parts := strings.Split(s, "_")
		major, _ := strconv.Atoi(parts[1])
		minor, _ := strconv.Atoi(parts[2])
		p := Profile{Name: s, Model: ShaderModel{major, minor}}
		for _, st := range profileStages {
			if st.prefix == parts[0] {
				p.Stage = st.stage
				p.Library = st.prefix == "lib"
			}
		}
		return p, nil
	}
	return Profile{}, fmt.Errorf("unknown profile %q (want %s)", s, ProfileSummary)
}

// model returns the shader model features are checked against: the
// profile's, or LatestShaderModel without one.
func (o *Options) model() ShaderModel {
	if o.Profile.Name == "" {
		return LatestShaderModel
	}
	return o.Profile.Model
}

// Check16BitTypes returns dxc's error for -enable-16bit-types with a
// profile older than shader model 6.2 (nil when allowed or without a
// profile).
func (p Profile) Check16BitTypes(enable bool) error {
	if enable && p.Name != "" && p.Model.Less(ShaderModel{6, 2}) {
		return fmt.Errorf("-enable-16bit-types requires shader model 6.2 or greater (profile %s is shader model %s)", p.Name, p.Model)
	}
	return nil
}

// dxcStageNumbers are DXC's __SHADER_STAGE_* values (DXIL::ShaderKind).
var dxcStageNumbers = []struct {
	name string
	num  int
}{{"PIXEL", 0}, {"VERTEX", 1}, {"GEOMETRY", 2}, {"HULL", 3}, {"DOMAIN", 4}, {"COMPUTE", 5},
	{"LIBRARY", 6}, {"MESH", 13}, {"AMPLIFICATION", 14}}

// predefineTarget defines DXC's target macros. With a profile:
// __SHADER_TARGET_MAJOR/MINOR are its shader model, __SHADER_TARGET_STAGE
// its stage and __SHADER_STAGE_PIXEL … _AMPLIFICATION the stage numbers,
// as dxc defines them. Without one, 6 and 0 as before profiles existed
// (the stage is not known before the entry point is checked).
func (p *preprocessor) predefineTarget(prof Profile) {
	if prof.Name == "" {
		p.predefine("__SHADER_TARGET_MAJOR", "6")
		p.predefine("__SHADER_TARGET_MINOR", "0")
		return
	}
	p.predefine("__SHADER_TARGET_MAJOR", strconv.Itoa(prof.Model.Major))
	p.predefine("__SHADER_TARGET_MINOR", strconv.Itoa(prof.Model.Minor))
	stage := "LIBRARY"
	switch prof.Stage {
	case StagePixel:
		stage = "PIXEL"
	case StageVertex:
		stage = "VERTEX"
	case StageCompute:
		stage = "COMPUTE"
	}
	for _, s := range dxcStageNumbers {
		p.predefine("__SHADER_STAGE_"+s.name, strconv.Itoa(s.num))
		if s.name == stage {
			p.predefine("__SHADER_TARGET_STAGE", strconv.Itoa(s.num))
		}
	}
}
