// Package archtest checks the shape of the import graph that
// docs/architecture.md promises: the compiler never depends on the user
// interface or the commands, the back ends do not depend on one another,
// and the CFG layer stands alone.
package archtest

import (
	"os/exec"
	"strings"
	"testing"
)

// pkg is one package of the module with its transitive dependencies
// inside the module.
type pkg struct {
	path string
	deps []string
}

// modulePackages lists the module's packages (tests excluded, as
// production code is what the rules are about).
func modulePackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Deps}} {{.}}{{end}}`, "passlens/...").Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		p := pkg{path: f[0]}
		for _, d := range f[1:] {
			if strings.HasPrefix(d, "passlens/") {
				p.deps = append(p.deps, d)
			}
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	return pkgs
}

// backEnd returns the back end a package belongs to ("spirv" for
// passlens/compiler/target/spirv/vkrun), or "".
func backEnd(path string) string {
	rest, ok := strings.CutPrefix(path, "passlens/compiler/target/")
	if !ok {
		return ""
	}
	name, _, _ := strings.Cut(rest, "/")
	if name == "all" {
		return "" // links every back end by design
	}
	return name
}

func within(path, root string) bool { return path == root || strings.HasPrefix(path, root+"/") }

func TestImportRules(t *testing.T) {
	for _, p := range modulePackages(t) {
		for _, d := range p.deps {
			if within(p.path, "passlens/compiler") && (within(d, "passlens/tui") || within(d, "passlens/cmd")) {
				t.Errorf("%s depends on %s: the compiler must not depend on the user interface or the commands", p.path, d)
			}
			if a, b := backEnd(p.path), backEnd(d); a != "" && b != "" && a != b {
				t.Errorf("%s depends on %s: back ends must not depend on one another", p.path, d)
			}
			if within(p.path, "passlens/compiler/graph") {
				t.Errorf("%s depends on %s: the CFG layer imports nothing from passlens", p.path, d)
			}
		}
	}
}

// The rules above must be able to fail: each one is checked against a
// made-up package that breaks it.
func TestImportRulesCatch(t *testing.T) {
	if backEnd("passlens/compiler/target/spirv/vkrun") != "spirv" || backEnd("passlens/compiler/target/all") != "" || backEnd("passlens/compiler/ir") != "" {
		t.Fatal("backEnd misclassifies packages")
	}
	if !within("passlens/tui/serve", "passlens/tui") || within("passlens/tuix", "passlens/tui") {
		t.Fatal("within misclassifies packages")
	}
}
