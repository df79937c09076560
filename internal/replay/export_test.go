package replay

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// export resolves relative paths against the current directory (not the
// script's), writes .spv as a binary module, and replaces an existing file
// only with --force; a symbolic link is never written through.
func TestExport(t *testing.T) {
	scriptDir, cwd := t.TempDir(), t.TempDir()
	t.Chdir(cwd)
	runScript := func(text string) (string, error) {
		var out bytes.Buffer
		err := Run(filepath.Join(scriptDir, "s.replay"), strings.NewReader(text), &out)
		return out.String(), err
	}
	out, err := runScript("load samples/add-mul\ntarget spirv\nexport x.spvasm\nexport x.spv\n")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(scriptDir, "x.spvasm")); err == nil {
		t.Error("export wrote into the script's directory")
	}
	asm, _ := os.ReadFile(filepath.Join(cwd, "x.spvasm"))
	bin, _ := os.ReadFile(filepath.Join(cwd, "x.spv"))
	if !strings.Contains(string(asm), "OpCapability") || len(bin) < 20 || bin[0] != 0x03 || bin[3] != 0x07 {
		t.Fatalf("x.spvasm %d bytes (text?), x.spv %d bytes (binary?)", len(asm), len(bin))
	}
	// An existing file is kept without --force...
	os.WriteFile("x.spvasm", []byte("mine"), 0o644)
	_, err = runScript("load samples/add-mul\ntarget spirv\nexport x.spvasm\n")
	if err == nil || !strings.Contains(err.Error(), "export --force") {
		t.Errorf("export over an existing file: %v", err)
	}
	if b, _ := os.ReadFile("x.spvasm"); string(b) != "mine" {
		t.Errorf("existing file replaced without --force")
	}
	// ... and replaced with it.
	if _, err := runScript("load samples/add-mul\ntarget spirv\nexport --force x.spvasm\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile("x.spvasm"); !strings.Contains(string(b), "OpCapability") {
		t.Errorf("--force did not replace the file")
	}
	// Links are refused, even with --force.
	os.Symlink(filepath.Join(cwd, "elsewhere"), "link.spvasm")
	_, err = runScript("load samples/add-mul\ntarget spirv\nexport --force link.spvasm\n")
	if err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("export through a dangling link: %v", err)
	}
	if _, err := os.Lstat("elsewhere"); err == nil {
		t.Error("the link's target was created")
	}
}

// A failed step is reported located in the loaded file, the pass named
// once.
func TestFailureLocated(t *testing.T) {
	var out bytes.Buffer
	err := Run("s.replay", strings.NewReader("load samples/wave-divergent\ntarget sm3\nlast\n"), &out)
	if err != nil {
		t.Fatal(err)
	}
	want := ": sm3-lower (FAILED: samples/wave-divergent.hlsl:8:15: wave operation WaveGetLaneIndex is not available"
	if !strings.Contains(out.String(), want) || strings.Count(out.String(), "sm3-lower") != 1 {
		t.Errorf("output:\n%s\nwant it to contain %q", out.String(), want)
	}
}
