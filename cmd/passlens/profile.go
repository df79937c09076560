package main

import (
	"flag"
	"fmt"

	"passlens/compiler/hlsl"
	"passlens/compiler/target"
)

// profileFlag registers dxc's -T PROFILE and its long form --profile
// (one value; the last one given wins).
func profileFlag(fs *flag.FlagSet) *string {
	p := fs.String("T", "", "")
	fs.StringVar(p, "profile", "", "")
	return p
}

// profileHelp is the -T line of the commands' usage texts.
const profileHelp = `  -T, --profile P     HLSL: dxc's target profile: the entry point's stage and the shader
                      model features are checked against: cs_6_0…cs_6_8, ps_6_0…ps_6_8,
                      vs_6_0…vs_6_8, lib_6_3…lib_6_8; ps_3_0/vs_3_0 select --target sm3
                      (default: the stage from the entry point, every feature as at 6.8)
`

// flagGiven reports whether the named flag was on the command line.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}

// resolveProfile parses -T and reconciles it with --target and
// -enable-16bit-types (docs/cli.md, "Profiles"): a shader model 3
// profile (ps_3_0, vs_3_0) selects the sm3 target when --target is not
// given and conflicts with any other target but pir (the IR before the
// back end); --target sm3 conflicts with a shader model 6 profile;
// -enable-16bit-types needs shader model 6.2. Conflicts are usage errors.
func resolveProfile(c *command, fs *flag.FlagSet, name string, tgt *string) (hlsl.Profile, error) {
	if name == "" {
		return hlsl.Profile{}, nil
	}
	p, err := hlsl.ParseProfile(name)
	if err != nil {
		return p, &usageError{c, "-T: " + err.Error()}
	}
	explicit := flagGiven(fs, "target")
	switch {
	case p.IsSM3() && !explicit:
		*tgt = string(target.SM3)
	case p.IsSM3() && *tgt != string(target.SM3) && *tgt != string(target.PIR):
		return p, &usageError{c, fmt.Sprintf("-T %s is a shader model 3 profile: it needs --target sm3 (or pir, or no --target), not %s", name, *tgt)}
	case !p.IsSM3() && *tgt == string(target.SM3):
		return p, &usageError{c, fmt.Sprintf("--target sm3 needs a shader model 3 profile (-T ps_3_0 or vs_3_0), not %s", name)}
	}
	if fs.Lookup("enable-16bit-types") != nil {
		if err := p.Check16BitTypes(fs.Lookup("enable-16bit-types").Value.String() == "true"); err != nil {
			return p, &usageError{c, err.Error()}
		}
	}
	return p, nil
}
