package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"passlens/compiler/pipeline"
	"passlens/compiler/target"
	"passlens/tui/backend"
)

// The compile worker's protocol (worker.go runs the child, workerclient.go
// the parent side).
//
// Request (parent → child, stdin): one JSON object, workerRequest, at
// most maxWorkerRequest bytes.
//
// Reply (child → parent, stdout): a frame
//
//	passlens-worker 1\n
//	META DATA\n          two decimal byte counts
//	META bytes of JSON   (workerReply)
//	DATA bytes           the texts META points into, back to back
//
// The snapshots travel as what pipeline.Snapshot already is: printed
// passlens IR, one text per function and one for the module header, each
// distinct text once (a part a pass did not change is shared by the
// snapshots, by index, as it is in process). Print → parse → print is the
// identity for that IR, so the parent's snapshots parse (on demand, as in
// process) into exactly the module the child compiled. The texts are not
// JSON-escaped: the parent slices them out of one buffer. Metadata (pass
// names, changed functions, failures with their located messages,
// timings, the back end's output and stages) is the small JSON part.

// workerMagic is the first line of every reply.
const workerMagic = "passlens-worker 1"

// maxWorkerMeta bounds the JSON part of a reply: names and numbers per
// snapshot, which is small next to the texts.
const maxWorkerMeta = 64 << 20

// maxWorkerRequest bounds a request: a module's text (base64 in JSON) and
// a few names.
const maxWorkerRequest = 2*MaxModuleSize + 1<<20

// workerRequest asks the child to load a module and, for op "compile",
// compile it.
type workerRequest struct {
	Op         string `json:"op"` // "load" or "compile"
	Name       string `json:"name"`
	Path       string `json:"path"`
	Kind       string `json:"kind"`
	Text       []byte `json:"text"`
	ModulesDir string `json:"modules_dir,omitempty"` // for HLSL #include
	Target     string `json:"target,omitempty"`
	Spec       string `json:"spec,omitempty"` // enabled passes, comma-separated
}

// workerReply is the JSON part of a reply.
type workerReply struct {
	// Err is why the module did not load (located in the user's file) or
	// the request could not be served; nothing else is set then.
	Err       string          `json:"err,omitempty"`
	Parts     []replyPart     `json:"parts,omitempty"`
	Snapshots []replySnapshot `json:"snapshots,omitempty"`
	Out       *replyOutput    `json:"out,omitempty"`
	OutErr    string          `json:"out_err,omitempty"`
}

// replyPart is one distinct text: Len bytes of DATA, after the texts of
// the parts before it.
type replyPart struct {
	Name string `json:"name"`
	Len  int    `json:"len"`
}

// replySnapshot is one pipeline.Snapshot, its texts as part indices.
type replySnapshot struct {
	Pass         string        `json:"pass"`
	Option       string        `json:"option,omitempty"`
	Header       int           `json:"header"` // -1: none
	Funcs        []int         `json:"funcs"`
	Changed      bool          `json:"changed,omitempty"`
	ChangedFuncs []string      `json:"changed_funcs,omitempty"`
	Reported     bool          `json:"reported,omitempty"`
	Skipped      bool          `json:"skipped,omitempty"`
	Duration     time.Duration `json:"duration"`
	VerifyTime   time.Duration `json:"verify_time"`
	Err          *replyStepErr `json:"err,omitempty"`
	Msg          string        `json:"msg,omitempty"` // Outcome.StepMsgs
}

// replyStepErr is a pipeline.StepError (without its wrapped error and
// stack: the located message is in replySnapshot.Msg).
type replyStepErr struct {
	Step int    `json:"step"`
	Pass string `json:"pass"`
	Kind string `json:"kind"`
	Msg  string `json:"msg"`
}

// replyOutput is a target.Output; Text, Binary and the stage texts are
// lengths of DATA after the parts.
type replyOutput struct {
	Text   int          `json:"text"`
	Binary int          `json:"binary"`
	Lang   string       `json:"lang"`
	Ext    string       `json:"ext"`
	BinExt string       `json:"bin_ext"`
	Stages []replyStage `json:"stages,omitempty"`
}

type replyStage struct {
	Name     string        `json:"name"`
	Summary  string        `json:"summary"`
	Lang     string        `json:"lang"`
	Text     int           `json:"text"`
	Duration time.Duration `json:"duration"`
}

// writeReply frames meta and the texts of data (written as they are: the
// snapshots of a 4 MiB module are hundreds of MB, not to be copied).
func writeReply(w io.Writer, meta *workerReply, data []string) error {
	js, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	n := 0
	for _, d := range data {
		n += len(d)
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	fmt.Fprintf(bw, "%s\n%d %d\n", workerMagic, len(js), n)
	bw.Write(js)
	for _, d := range data {
		bw.WriteString(d)
	}
	return bw.Flush()
}

// writeError replies with a message only.
func writeError(w io.Writer, msg string) error {
	return writeReply(w, &workerReply{Err: msg}, nil)
}

// writeOutcome replies with a compile's outcome.
func writeOutcome(w io.Writer, o *backend.Outcome) error {
	meta := &workerReply{}
	var data []string
	index := map[*pipeline.Part]int{}
	part := func(p *pipeline.Part) int {
		if p == nil {
			return -1
		}
		if i, ok := index[p]; ok {
			return i
		}
		i := len(meta.Parts)
		index[p] = i
		meta.Parts = append(meta.Parts, replyPart{Name: p.Name, Len: len(p.Text)})
		data = append(data, p.Text)
		return i
	}
	for i, s := range o.Res.Snapshots {
		rs := replySnapshot{Pass: s.Pass, Option: s.Option, Header: part(s.Header), Funcs: make([]int, len(s.Funcs)),
			Changed: s.Changed, ChangedFuncs: s.ChangedFuncs, Reported: s.Reported, Skipped: s.Skipped,
			Duration: s.Duration, VerifyTime: s.VerifyTime}
		for j, f := range s.Funcs {
			rs.Funcs[j] = part(f)
		}
		if s.Err != nil {
			rs.Err = &replyStepErr{Step: s.Err.Step, Pass: s.Err.Pass, Kind: string(s.Err.Kind), Msg: s.Err.Msg}
		}
		if i < len(o.StepMsgs) {
			rs.Msg = o.StepMsgs[i]
		}
		meta.Snapshots = append(meta.Snapshots, rs)
	}
	if o.OutErr != nil {
		meta.OutErr = o.OutErr.Error()
	}
	if out := o.Out; out != nil {
		ro := &replyOutput{Text: len(out.Text), Binary: len(out.Binary), Lang: out.Lang, Ext: out.Ext, BinExt: out.BinExt}
		data = append(data, out.Text, string(out.Binary))
		for _, st := range out.Stages {
			ro.Stages = append(ro.Stages, replyStage{Name: st.Name, Summary: st.Summary, Lang: st.Lang, Text: len(st.Text), Duration: st.Duration})
			data = append(data, st.Text)
		}
		meta.Out = ro
	}
	return writeReply(w, meta, data)
}

// errReplyTooLarge is a reply whose texts are over the parent's bound.
var errReplyTooLarge = errors.New("the compile's snapshots are over the server's memory limit per session")

// readReply reads one reply of at most maxData bytes of texts. Every
// length and index is checked before it is used, so a malformed reply is
// an error, never a panic or an unbounded allocation.
func readReply(r io.Reader, maxData int64) (*workerReply, string, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	// A header line is short: read at most 64 bytes for it.
	line := func() (string, error) {
		var b []byte
		for len(b) < 64 {
			c, err := br.ReadByte()
			if err == io.EOF {
				return "", io.ErrUnexpectedEOF
			}
			if err != nil {
				return "", err
			}
			if c == '\n' {
				return string(b), nil
			}
			b = append(b, c)
		}
		return "", fmt.Errorf("no end of line in %q", clip(string(b), 40))
	}
	magic, err := line()
	if err != nil {
		return nil, "", fmt.Errorf("reading the frame header: %w", err)
	}
	if magic != workerMagic {
		return nil, "", fmt.Errorf("not a worker reply (first line %q)", clip(magic, 40))
	}
	sizes, err := line()
	if err != nil {
		return nil, "", fmt.Errorf("reading the frame sizes: %w", err)
	}
	ms, ds, ok := strings.Cut(sizes, " ")
	metaLen, err1 := strconv.ParseInt(ms, 10, 64)
	dataLen, err2 := strconv.ParseInt(ds, 10, 64)
	if !ok || err1 != nil || err2 != nil || metaLen < 0 || dataLen < 0 {
		return nil, "", fmt.Errorf("bad frame sizes %q", clip(sizes, 40))
	}
	if metaLen > maxWorkerMeta {
		return nil, "", fmt.Errorf("metadata of %d bytes (at most %d)", metaLen, maxWorkerMeta)
	}
	if dataLen > maxData {
		return nil, "", errReplyTooLarge
	}
	js := make([]byte, metaLen)
	if _, err := io.ReadFull(br, js); err != nil {
		return nil, "", fmt.Errorf("reading the metadata: %w", err)
	}
	meta := &workerReply{}
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(meta); err != nil {
		return nil, "", fmt.Errorf("metadata: %v", err)
	}
	if dec.More() {
		return nil, "", errors.New("metadata: trailing data")
	}
	// The lengths must add up to DATA exactly before anything is read.
	var want int64
	add := func(n int) error {
		if n < 0 || int64(n) > dataLen-want {
			return errors.New("text lengths do not match the frame size")
		}
		want += int64(n)
		return nil
	}
	for _, p := range meta.Parts {
		if err := add(p.Len); err != nil {
			return nil, "", err
		}
	}
	if o := meta.Out; o != nil {
		if err := add(o.Text); err != nil {
			return nil, "", err
		}
		if err := add(o.Binary); err != nil {
			return nil, "", err
		}
		for _, st := range o.Stages {
			if err := add(st.Text); err != nil {
				return nil, "", err
			}
		}
	}
	if want != dataLen {
		return nil, "", errors.New("text lengths do not match the frame size")
	}
	// One string for all texts, read in place (a strings.Builder's
	// String does not copy): the parts are substrings of it.
	var data strings.Builder
	data.Grow(int(dataLen))
	if n, err := io.CopyN(&data, br, dataLen); err != nil {
		return nil, "", fmt.Errorf("reading the texts (%d of %d bytes): %w", n, dataLen, err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, "", errors.New("trailing bytes after the reply")
	}
	return meta, data.String(), nil
}

// outcome rebuilds the compile's outcome from a reply. spec is the
// pipeline the parent asked for.
func (meta *workerReply) outcome(spec pipeline.Spec, data string) (*backend.Outcome, error) {
	parts := make([]*pipeline.Part, len(meta.Parts))
	off := 0
	text := func(n int) string {
		s := data[off : off+n]
		off += n
		return s
	}
	for i, p := range meta.Parts {
		parts[i] = pipeline.NewPart(p.Name, text(p.Len))
	}
	partAt := func(i int, header bool) (*pipeline.Part, error) {
		if header && i == -1 {
			return nil, nil
		}
		if i < 0 || i >= len(parts) {
			return nil, fmt.Errorf("part %d of %d", i, len(parts))
		}
		return parts[i], nil
	}
	if len(meta.Snapshots) == 0 {
		return nil, errors.New("no snapshots")
	}
	if len(meta.Snapshots) > len(spec.Steps)+1 {
		return nil, fmt.Errorf("%d snapshots for %d steps", len(meta.Snapshots), len(spec.Steps))
	}
	o := &backend.Outcome{Res: &pipeline.Result{Spec: spec}}
	for i, rs := range meta.Snapshots {
		s := &pipeline.Snapshot{Index: i, Pass: rs.Pass, Option: rs.Option, Changed: rs.Changed, ChangedFuncs: rs.ChangedFuncs,
			Reported: rs.Reported, Skipped: rs.Skipped, Duration: rs.Duration, VerifyTime: rs.VerifyTime}
		var err error
		if s.Header, err = partAt(rs.Header, true); err != nil {
			return nil, fmt.Errorf("snapshot %d: %v", i, err)
		}
		s.Funcs = make([]*pipeline.Part, len(rs.Funcs))
		for j, k := range rs.Funcs {
			if s.Funcs[j], err = partAt(k, false); err != nil {
				return nil, fmt.Errorf("snapshot %d: %v", i, err)
			}
		}
		if rs.Err != nil {
			if i != len(meta.Snapshots)-1 {
				return nil, fmt.Errorf("snapshot %d failed but is not the last", i)
			}
			s.Err = &pipeline.StepError{Step: rs.Err.Step, Pass: rs.Err.Pass, Kind: pipeline.ErrorKind(rs.Err.Kind), Msg: rs.Err.Msg}
			o.Res.Err = s.Err
		}
		o.Res.Snapshots = append(o.Res.Snapshots, s)
		o.StepMsgs = append(o.StepMsgs, rs.Msg)
	}
	if meta.OutErr != "" {
		o.OutErr = errors.New(meta.OutErr)
	}
	if ro := meta.Out; ro != nil {
		out := &target.Output{Text: text(ro.Text), Lang: ro.Lang, Ext: ro.Ext, BinExt: ro.BinExt}
		if ro.Binary > 0 {
			out.Binary = []byte(text(ro.Binary))
		}
		for _, st := range ro.Stages {
			out.Stages = append(out.Stages, target.Stage{Name: st.Name, Summary: st.Summary, Lang: st.Lang, Text: text(st.Text), Duration: st.Duration})
		}
		o.Out = out
	}
	return o, nil
}

// clip shortens s for an error message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
