package passdump

import (
	"regexp"
	"strings"
)

// What the last step of a log can be compared with: the tool's final
// output, reduced by Comparable to the part a log reproduces.
//
//   - LLVM IR (Whole false, the default logs): the function definitions, in
//     order, each with its "; Function Attrs:" comment, with attribute-group
//     references ("#3") written "#N" and metadata references ("!7") written
//     "!N". Function-level dumps print no globals, declarations, attribute
//     groups or metadata, and number attribute groups and metadata for the
//     printed function only, so those are not part of the comparison.
//   - LLVM IR with Whole (logs made with -print-module-scope, or whose last
//     dump is a module dump): the whole text, without the "; ModuleID" line.
//   - SPIR-V assembly: every non-blank line that is not a comment, trimmed
//     (spirv-dis indents and prints a "; SPIR-V" header; spirv-opt does not).
//   - anything else: the text without trailing blank lines.

var (
	attrRef = regexp.MustCompile(`(^|[ ,(])#[0-9]+\b`)
	mdRef   = regexp.MustCompile(`(^|[ ,(])![0-9]+\b`)
)

// Comparable reduces text in language lang as described above.
func Comparable(lang, text string, whole bool) string {
	switch lang {
	case LangLLVM:
		if whole {
			var out []string
			for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
				if !strings.HasPrefix(l, "; ModuleID") {
					out = append(out, l)
				}
			}
			return strings.Join(out, "\n") + "\n"
		}
		var sb strings.Builder
		in := false
		prev := ""
		for _, l := range strings.Split(text, "\n") {
			if !in && strings.HasPrefix(l, "define ") {
				in = true
				if strings.HasPrefix(prev, "; Function Attrs:") {
					sb.WriteString(prev + "\n")
				}
			}
			if in {
				l = attrRef.ReplaceAllString(l, "${1}#N")
				sb.WriteString(mdRef.ReplaceAllString(l, "${1}!N") + "\n")
				if l == "}" {
					in = false
				}
			}
			prev = l
		}
		return sb.String()
	case LangSPIRV:
		var sb strings.Builder
		for _, l := range strings.Split(text, "\n") {
			t := strings.TrimSpace(l)
			if t == "" || strings.HasPrefix(t, ";") {
				continue
			}
			sb.WriteString(t + "\n")
		}
		return sb.String()
	}
	return strings.TrimRight(text, "\n") + "\n"
}
