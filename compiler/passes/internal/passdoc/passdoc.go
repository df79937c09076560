// Package passdoc extracts each pass's description from the doc comment of
// the variable that defines it and writes the generated table
// (compiler/passes/zz_doc.go) that gives Pass.Summary and Pass.Doc their
// values, the way x/tools' analyzers take their Doc from a comment.
//
// A pass variable is a package-level `var X = &Pass{Name: "n", ...}` (or
// `&passes.Pass{...}` outside package passes). Its doc comment must start
// with the paragraph "X is the n pass: <summary>."; the summary is the
// one-line description (`passlens passes`, the explorer's pass list) and the
// paragraphs after it are the long description (`passlens passes --doc`,
// docs/passes.md).
//
// The table is generated rather than parsed at start-up: the source is not
// shipped with the binary, and parsing it would cost start-up time
// (passlens must start in under 20 ms).
package passdoc

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// Entry is one pass's documentation.
type Entry struct {
	Name    string // pass name, e.g. "switch-to-if"
	Summary string // one line, without the final period
	Doc     string // the paragraphs after the summary (doc comment text)
	Pos     string // file:line of the variable, for messages
	File    string // file name (in the generated table, where line numbers would go stale)
}

// Extract returns the documentation of every pass variable in the non-test
// Go files of dir, sorted by pass name.
func Extract(dir string) ([]Entry, error) {
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	var out []Entry
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || strings.HasPrefix(filepath.Base(path), "zz_") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		if hasIgnoreTag(f) {
			continue
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				if len(vs.Names) != 1 || len(vs.Values) != 1 {
					continue
				}
				name, ok := passName(vs.Values[0])
				if !ok {
					continue
				}
				pos := fset.Position(vs.Pos())
				where := fmt.Sprintf("%s:%d", filepath.ToSlash(filepath.Join(filepath.Base(dir), filepath.Base(pos.Filename))), pos.Line)
				doc := vs.Doc
				if doc == nil && len(gd.Specs) == 1 {
					doc = gd.Doc
				}
				if doc == nil {
					return nil, fmt.Errorf("%s: pass %q has no doc comment", where, name)
				}
				e, err := parseDoc(vs.Names[0].Name, name, doc.Text())
				if err != nil {
					return nil, fmt.Errorf("%s: %v", where, err)
				}
				e.Pos = where
				e.File = filepath.Base(pos.Filename)
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			return nil, fmt.Errorf("%s: pass %q is also defined at %s", out[i].Pos, out[i].Name, out[i-1].Pos)
		}
	}
	return out, nil
}

func hasIgnoreTag(f *ast.File) bool {
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			break
		}
		for _, c := range cg.List {
			if strings.HasPrefix(c.Text, "//go:build") && strings.Contains(c.Text, "ignore") {
				return true
			}
		}
	}
	return false
}

// passName reports whether e is &Pass{...} or &passes.Pass{...} and returns
// the string literal given to its Name field.
func passName(e ast.Expr) (string, bool) {
	u, ok := e.(*ast.UnaryExpr)
	if !ok || u.Op != token.AND {
		return "", false
	}
	cl, ok := u.X.(*ast.CompositeLit)
	if !ok {
		return "", false
	}
	switch t := cl.Type.(type) {
	case *ast.Ident:
		if t.Name != "Pass" {
			return "", false
		}
	case *ast.SelectorExpr:
		if x, ok := t.X.(*ast.Ident); !ok || x.Name != "passes" || t.Sel.Name != "Pass" {
			return "", false
		}
	default:
		return "", false
	}
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Name" {
			if lit, ok := kv.Value.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, err := strconv.Unquote(lit.Value)
				return s, err == nil
			}
		}
	}
	return "", false
}

// parseDoc splits a pass variable's doc comment into summary and doc.
func parseDoc(ident, name, text string) (Entry, error) {
	first, rest, _ := strings.Cut(text, "\n\n")
	first = strings.Join(strings.Fields(first), " ")
	prefix := ident + " is the " + name + " pass: "
	if !strings.HasPrefix(first, prefix) || !strings.HasSuffix(first, ".") {
		return Entry{}, fmt.Errorf("the doc comment of %s must start with the paragraph %q", ident, prefix+"<one-line summary>.")
	}
	summary := strings.TrimSuffix(strings.TrimPrefix(first, prefix), ".")
	doc := strings.TrimSpace(rest)
	if doc == "" {
		return Entry{}, fmt.Errorf("the doc comment of %s has no description after its summary", ident)
	}
	return Entry{Name: name, Summary: summary, Doc: doc}, nil
}

// Dirs are the directories, relative to compiler/passes, whose pass
// variables the table documents: package passes itself and every package
// that defines a pass registered in passes.All (with passes.Register).
var Dirs = []string{".", "../target/sm3/sm3lower"}

// Command is the command that regenerates the table; messages about a
// stale table print it.
const Command = "go generate ./compiler/passes"

// Generate returns the Go source of the generated table for the passes
// defined in dirs (relative to the directory of package passes, which is
// given first).
func Generate(dirs ...string) ([]byte, error) {
	var all []Entry
	for _, d := range dirs {
		es, err := Extract(d)
		if err != nil {
			return nil, err
		}
		all = append(all, es...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i].Name < all[j].Name })
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by %q; DO NOT EDIT.\n", "go run gendoc.go")
	fmt.Fprintf(&b, "// Regenerate with `%s` after editing a pass's doc comment.\n\n", Command)
	b.WriteString("package passes\n\n")
	b.WriteString("// passDocs holds each pass's Summary and Doc, taken from the doc comment\n")
	b.WriteString("// of the variable that defines it (see compiler/passes/internal/passdoc).\n")
	b.WriteString("var passDocs = map[string]passDoc{\n")
	for _, e := range all {
		fmt.Fprintf(&b, "\t// %s\n\t%q: {\n\t\tsummary: %q,\n\t\tdoc: %s,\n\t},\n", e.File, e.Name, e.Summary, quote(e.Doc))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// quote returns s as raw string literals (readable diffs), with each
// backquote spliced in as "`".
func quote(s string) string {
	if strings.Contains(s, "\r") {
		return strconv.Quote(s)
	}
	return "`" + strings.ReplaceAll(s, "`", "` + \"`\" + `") + "`"
}

// Write regenerates file from dirs.
func Write(file string, dirs ...string) error {
	src, err := Generate(dirs...)
	if err != nil {
		return err
	}
	return os.WriteFile(file, src, 0o644)
}
