// Package diag turns the errors of passes and back ends into messages
// located in the input the user gave, each said once:
//
//	shader.hlsl:11:17: sm3: uniform x at byte offset 4 does not fit in c0
//	shader.hlsl:8:15: sm3-lower: wave operation WaveGetLaneIndex is not available ...
//	module.pir:3:3: error: function @main, block %entry, %y = add: operand %z ... does not dominate this use
//
// Passes and back ends report positions as "NAME: LINE:COL: message" (the
// positions are the instructions' source locations, which for HLSL are
// the HLSL file's); they do not know the file name. The CLI, replay and
// the explorer's back end all print through here, so a message never
// carries the file twice, or "pass X failed:" twice.
package diag

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/compiler/pipeline"
	"passlens/compiler/target"
)

// Error is a located message, ready to print.
type Error struct {
	Text string
	Err  error // the underlying error
}

func (e *Error) Error() string { return e.Text }
func (e *Error) Unwrap() error { return e.Err }

// locRE matches "[INNER: ...][FILE:]LINE:COL: message", where INNER are
// nested stage names (the SM3 back end's "sir: 10:20: ...").
var locRE = regexp.MustCompile(`^((?:[A-Za-z0-9_<>.-]+: )*)(?:([^\s:]+):)?(\d+):(\d+): (.*)$`)

// Line locates one line of a message from pass or back end name in the
// file path: "NAME: L:C: msg" and "L:C: msg" become "path:L:C: NAME: msg",
// "NAME: msg" becomes "path: NAME: msg". A line already starting with the
// path is returned unchanged.
func Line(path, name, line string) string {
	return locate(path, name, line, true)
}

// locate is Line; keep says whether the name stays in the message.
func locate(path, name, line string, keep bool) string {
	if strings.HasPrefix(line, path+":") {
		return line
	}
	rest := line
	if name != "" {
		rest = strings.TrimPrefix(rest, name+": ")
	}
	prefix := ""
	if name != "" && keep {
		prefix = name + ": "
	}
	if m := locRE.FindStringSubmatch(rest); m != nil {
		file := path
		if m[2] != "" && filepath.Base(m[2]) != filepath.Base(path) {
			file = m[2] // a position in another file (an #include)
		}
		return fmt.Sprintf("%s:%s:%s: %s%s%s", file, m[3], m[4], prefix, m[1], m[5])
	}
	return path + ": " + prefix + rest
}

// Emit locates an error of target tgt's back end (target.Emit) in src.
// Every line that carries the target's prefix is located; continuation
// lines are kept as they are. A line located in an HLSL source is
// followed by that source line and a caret under the column.
func Emit(src *load.Source, tgt target.Name, err error) error {
	text := lines(src.Path, string(tgt), err.Error(), true)
	if src.Kind == "hlsl" && len(src.Text) > 0 {
		text = withCarets(src.Path, string(src.Text), text)
	}
	return &Error{Text: text, Err: err}
}

// withCarets adds, after every line of text located at "path:L:C: " in
// source, the source line L and a caret under column C (rendered as the
// IR parser renders its errors: long lines cut to a window, control bytes
// escaped).
func withCarets(path, source, text string) string {
	src := strings.Split(source, "\n")
	var out []string
	for _, l := range strings.Split(text, "\n") {
		out = append(out, l)
		m := caretRE.FindStringSubmatch(strings.TrimPrefix(l, path))
		if !strings.HasPrefix(l, path+":") || m == nil {
			continue
		}
		line, _ := strconv.Atoi(m[1])
		col, _ := strconv.Atoi(m[2])
		if line < 1 || line > len(src) || col < 1 {
			continue
		}
		pe := &ir.ParseError{File: path, Line: line, Col: col, Source: strings.TrimRight(src[line-1], "\r")}
		r := pe.Error()
		out = append(out, r[strings.IndexByte(r, '\n')+1:])
	}
	return strings.Join(out, "\n")
}

// caretRE matches ":LINE:COL: " after the file name of a located line.
var caretRE = regexp.MustCompile(`^:(\d+):(\d+): `)

func lines(path, name, text string, keep bool) string {
	ls := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range ls {
		if i == 0 || strings.HasPrefix(l, name+": ") {
			ls[i] = locate(path, name, l, keep)
		}
	}
	return strings.Join(ls, "\n")
}

// Step describes a failed pipeline step once, located in src. m is the
// module the pipeline ran on (it holds the state the verifier saw).
func Step(src *load.Source, m *ir.Module, e *pipeline.StepError) error {
	return &Error{Text: StepText(src, m, e), Err: e}
}

// StepText is Step's message. For a pass's own error there is no header:
// every line is "file:line:col: PASS: msg".
func StepText(src *load.Source, m *ir.Module, e *pipeline.StepError) string {
	return stepText(src, m, e, true)
}

// StepMessage is StepText for a place that already names the pass (the
// explorer's "pass X failed: ..."): the lines do not repeat it.
func StepMessage(src *load.Source, m *ir.Module, e *pipeline.StepError) string {
	return stepText(src, m, e, false)
}

func stepText(src *load.Source, m *ir.Module, e *pipeline.StepError, keep bool) string {
	full := e.Msg
	if e.Err != nil {
		full = strings.TrimSpace(e.Err.Error())
	}
	switch e.Kind {
	case pipeline.KindVerify:
		head := fmt.Sprintf("%s: the IR does not verify after pass %s", src.Path, e.Pass)
		if e.Step < 0 {
			head = fmt.Sprintf("%s: the input module does not verify", src.Path)
		}
		return head + ":\n" + load.LocateVerify(src, m, e.Err)
	case pipeline.KindPanic:
		return fmt.Sprintf("%s: internal error: pass %s panicked: %s", src.Path, e.Pass, e.Msg)
	case pipeline.KindCancelled:
		return fmt.Sprintf("%s: cancelled before pass %s", src.Path, e.Pass)
	}
	return lines(src.Path, e.Pass, full, keep)
}

// EmitSnapshot runs target tgt's back end on m, a module re-read from a
// snapshot's text (which keeps no source positions), and locates a
// failure in src. When located is the same module with its source
// positions (the module the pipeline ran on), the failure is taken from
// the back end's run on it, so the message carries the line:col of the
// user's file as the CLI's does; the output itself always comes from m.
func EmitSnapshot(src *load.Source, tgt target.Name, m, located *ir.Module) (*target.Output, error) {
	o, err := target.Emit(tgt, m)
	if err == nil {
		return o, nil
	}
	if located != nil {
		if _, lerr := target.Emit(tgt, located); lerr != nil {
			err = lerr
		}
	}
	if src == nil {
		return nil, err
	}
	return nil, Emit(src, tgt, err)
}
