// Package samples embeds the example shaders that ship with passlens: every
// HLSL example of the seed design documents (made complete where the seed
// shows a fragment) and a few more that exercise each part of the compiler.
package samples

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"
)

//go:embed *.hlsl *.pir *.ll *.json
var files embed.FS

// Sample is one embedded module.
type Sample struct {
	Name    string // file name without extension, e.g. "wave-switch-42"
	File    string // file name, e.g. "wave-switch-42.hlsl"
	Summary string // first comment line
	Source  []byte
	// Input is the interpreter input shipped with the sample (NAME.json),
	// nil if none.
	Input []byte
}

// Default is the sample the explorer opens when given no file.
const Default = "wave-switch-42"

// All returns every sample sorted by name.
func All() []Sample {
	ents, _ := fs.ReadDir(files, ".")
	var out []Sample
	for _, e := range ents {
		if path.Ext(e.Name()) == ".json" {
			continue
		}
		src, err := files.ReadFile(e.Name())
		if err != nil {
			continue
		}
		out = append(out, Sample{
			Name:    strings.TrimSuffix(e.Name(), path.Ext(e.Name())),
			File:    e.Name(),
			Summary: summary(src),
			Source:  src,
			Input:   input(e.Name()),
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup finds a sample by name ("wave-switch-42"), file name, or a
// "samples/NAME" path.
func Lookup(name string) (Sample, bool) {
	name = strings.TrimPrefix(name, "samples/")
	for _, s := range All() {
		if s.Name == name || s.File == name {
			return s, true
		}
	}
	return Sample{}, false
}

func input(file string) []byte {
	data, err := files.ReadFile(strings.TrimSuffix(file, path.Ext(file)) + ".json")
	if err != nil {
		return nil
	}
	return data
}

// summary returns the first sentence of the leading comment block.
func summary(src []byte) string {
	var parts []string
	for _, line := range strings.Split(string(src), "\n") {
		line = strings.TrimSpace(line)
		var text string
		switch {
		case strings.HasPrefix(line, "//"):
			text = strings.TrimPrefix(line, "//")
		case strings.HasPrefix(line, ";"):
			text = strings.TrimPrefix(line, ";")
		default:
			if len(parts) > 0 || line != "" {
				return firstSentence(strings.Join(parts, " "))
			}
			continue
		}
		parts = append(parts, strings.TrimSpace(text))
	}
	return firstSentence(strings.Join(parts, " "))
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i+1]
	} else if i := strings.Index(s, ": "); i >= 0 && i < 60 {
		s = s[:i]
	}
	return s
}
