// Package load turns a user's input — a file path or an embedded sample
// name — into an IR module, choosing the frontend by extension: .hlsl
// (compiler/hlsl), .pir (compiler/ir parser), .ll (compiler/llvm) or
// .spv/.spvasm (compiler/spvread; also recognised by content). Every
// failure is an error whose text carries file:line:col and a caret where
// one applies, ready to print.
package load

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"passlens/compiler/hlsl"
	"passlens/compiler/ir"
	"passlens/compiler/llvm"
	"passlens/compiler/spvread"
	"passlens/internal/limits"
	"passlens/internal/termsafe"
	"passlens/samples"
)

// Options configure the frontends.
type Options struct {
	Entry       string   // HLSL entry point (default "main")
	Defines     []string // HLSL -D NAME[=VALUE]
	IncludeDirs []string // HLSL -I
	// Enable16BitTypes is dxc's -enable-16bit-types (hlsl.Options).
	Enable16BitTypes bool
	// Profile is dxc's -T (hlsl.Options.Profile; zero: none).
	Profile hlsl.Profile
	// SM1Textures accepts FXC's tex2D & co. (hlsl.Options.SM1Textures);
	// compiling for the SM3 target sets it.
	SM1Textures bool
	// ReadFile, when set, reads HLSL #include files instead of the file
	// system (the SSH server confines includes to its modules directory).
	ReadFile func(path string) ([]byte, error)
	// CFGOnly, for .ll input, imports only functions, blocks and
	// terminators (llvm.ImportOptions.CFGOnly): enough for the dominator,
	// post-dominator and cycle analyses, with the same errors as a full
	// import. Source.Listing stays nil. Other inputs ignore it.
	CFGOnly bool
}

// Source is a loaded input file.
type Source struct {
	Name string // as the user gave it (a path or samples/NAME)
	Path string // file name used in diagnostics
	Kind string // "hlsl", "pir", "ll", "spvasm" (SPIR-V assembly) or "spv" (binary SPIR-V)
	Text []byte
	// Input is the interpreter input shipped with an embedded sample
	// (samples/NAME.json), nil otherwise.
	Input []byte
	// Positions, for .pir input, says where each function, block,
	// instruction and global of the module is in Text (set by Module), so
	// that verifier problems, even after passes, point at the line.
	Positions *ir.Positions
	// Listing, for .ll input, is LLVM's text of every imported function
	// (set by Module), so that `analyze` prints instructions in LLVM
	// syntax as opt-22 does. It describes the module as imported.
	Listing *llvm.Listing
}

// Read reads a file, or an embedded sample given as samples/NAME (or NAME
// when no such file exists).
func Read(arg string) (*Source, error) {
	max, err := limits.ModuleLimit()
	if err != nil {
		return nil, err
	}
	data, err := limits.ReadFile(arg, max)
	if err == nil {
		k, kerr := kindOf(arg, data)
		if kerr != nil {
			return nil, kerr
		}
		return &Source{Name: arg, Path: arg, Kind: k, Text: data}, nil
	}
	if s, ok := samples.Lookup(arg); ok && (strings.HasPrefix(arg, "samples/") || errors.Is(err, os.ErrNotExist)) {
		k, _ := kindOf(s.File, s.Source)
		return &Source{Name: "samples/" + s.Name, Path: "samples/" + s.File, Kind: k, Text: s.Source, Input: s.Input}, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file (and no embedded sample of that name; see 'passlens samples')", arg)
	}
	var pe *os.PathError
	if errors.As(err, &pe) {
		return nil, fmt.Errorf("%s: %v", arg, pe.Err)
	}
	return nil, err
}

func kindOf(path string, data []byte) (string, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".hlsl", ".hlsli", ".fx":
		return "hlsl", nil
	case ".pir":
		return "pir", nil
	case ".ll":
		return "ll", nil
	case ".spv":
		return "spv", nil
	case ".spvasm":
		return "spvasm", nil
	}
	if spvread.IsBinary(data) {
		return "spv", nil
	}
	// Sniff: LLVM IR has define/declare/target lines; passlens IR starts
	// with module/define/@ lines too, but uses `condbr` and `ptr<`.
	switch {
	case spvread.LooksLikeAssembly(data):
		return "spvasm", nil
	case bytes.Contains(data, []byte("condbr")) || bytes.HasPrefix(bytes.TrimSpace(data), []byte("module ")):
		return "pir", nil
	case bytes.Contains(data, []byte("define ")) && bytes.Contains(data, []byte("label %")):
		return "ll", nil
	case bytes.Contains(data, []byte("numthreads")) || bytes.Contains(data, []byte("SV_")):
		return "hlsl", nil
	}
	return "", fmt.Errorf("%s: unknown input kind (use a .hlsl, .pir, .ll, .spv or .spvasm file)", path)
}

// Module runs the frontend for src.
func Module(src *Source, opts Options) (*ir.Module, error) {
	switch src.Kind {
	case "pir":
		m, ps, err := ir.ParseModuleWithPositions(src.Path, src.Text)
		if err != nil {
			return nil, err
		}
		src.Positions = ps
		if err := ir.Verify(m); err != nil {
			return nil, &VerifyError{Text: termsafe.Escape(LocateVerify(src, m, err)), Err: err}
		}
		return m, nil
	case "ll":
		if opts.CFGOnly {
			m, err := llvm.ImportWith(src.Path, src.Text, llvm.ImportOptions{CFGOnly: true})
			if err != nil {
				return nil, errors.New(termsafe.Escape(err.Error()))
			}
			return m, nil
		}
		m, lst, err := llvm.ImportListing(src.Path, src.Text)
		if err != nil {
			// The reader quotes source text: show it, never run it.
			return nil, errors.New(termsafe.Escape(err.Error()))
		}
		src.Listing = lst
		return m, nil
	case "spv", "spvasm":
		m, err := spvread.Read(src.Path, src.Text)
		if err != nil {
			return nil, errors.New(termsafe.Escape(err.Error()))
		}
		return m, nil
	case "hlsl":
		return compileHLSL(src, opts)
	}
	return nil, fmt.Errorf("%s: unknown input kind %q", src.Path, src.Kind)
}

// File is Read followed by Module.
func File(arg string, opts Options) (*ir.Module, *Source, error) {
	src, err := Read(arg)
	if err != nil {
		return nil, nil, err
	}
	m, err := Module(src, opts)
	return m, src, err
}

// VerifyError is a .pir module that parses but does not verify: Text
// holds every problem, each at its line where the text has one.
type VerifyError struct {
	Text string
	Err  error // the *ir.VerifyError
}

func (e *VerifyError) Error() string { return e.Text }
func (e *VerifyError) Unwrap() error { return e.Err }

// LocateVerify renders a verifier error of m (the module loaded from src,
// possibly after passes) with one problem per entry: problems whose
// instruction, block, function or global has a position in src's text
// become "file:line:col: error: ..." with the line and a caret; the others
// are prefixed with the file name. HLSL input positions come from the
// instructions' source locations.
func LocateVerify(src *Source, m *ir.Module, err error) string {
	var ve *ir.VerifyError
	if !errors.As(err, &ve) || len(ve.Problems) == 0 {
		return src.Path + ": " + err.Error()
	}
	var sb strings.Builder
	for i, p := range ve.Problems {
		if i == maxLocated {
			fmt.Fprintf(&sb, "%s: ... and %d more verifier problems\n", src.Path, len(ve.Problems)-maxLocated)
			break
		}
		if pe := src.Positions.Problem(m, p); pe != nil {
			sb.WriteString(pe.Error())
		} else if p.Instr != nil && p.Instr.Loc.Line > 0 && src.Kind == "hlsl" {
			fmt.Fprintf(&sb, "%s:%d:%d: error: %s", src.Path, p.Instr.Loc.Line, p.Instr.Loc.Col, p)
		} else {
			fmt.Fprintf(&sb, "%s: error: %s", src.Path, p)
		}
		sb.WriteByte('\n')
	}
	return strings.TrimRight(sb.String(), "\n")
}

// maxLocated bounds how many verifier problems LocateVerify spells out.
const maxLocated = 20

// DiagError is a failed HLSL compile: the rendered diagnostics.
type DiagError struct {
	Text  string
	Diags hlsl.Diagnostics
}

func (e *DiagError) Error() string { return strings.TrimRight(e.Text, "\n") }

func hlslOptions(src *Source, opts Options) hlsl.Options {
	o := hlsl.Options{Entry: opts.Entry, Defines: opts.Defines, IncludeDirs: opts.IncludeDirs, ReadFile: opts.ReadFile,
		Enable16BitTypes: opts.Enable16BitTypes, Profile: opts.Profile, SM1Textures: opts.SM1Textures}
	if strings.HasPrefix(src.Name, "samples/") {
		// Samples include nothing outside the embedded set.
		o.ReadFile = func(p string) ([]byte, error) {
			if s, ok := samples.Lookup(filepath.Base(p)); ok {
				return s.Source, nil
			}
			return nil, os.ErrNotExist
		}
	}
	return o
}

func renderDiags(prog *hlsl.Program, src *Source, d hlsl.Diagnostics) string {
	var sb strings.Builder
	sources := hlsl.Sources{src.Path: src.Text}
	if prog != nil && prog.Sources != nil {
		sources = prog.Sources
	}
	d.Render(&sb, sources)
	return sb.String()
}
