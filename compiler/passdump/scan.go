package passdump

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"strings"
)

// indexer is the state of the sequential scan: the dump being read (its
// banner and the pieces of its body so far) and the running module state
// of every track, used to tell changed steps from unchanged ones.
type indexer struct {
	l      *Log
	lineNo int // lines read so far

	// The current dump.
	cur          header
	have         bool // a banner was seen
	curOff       int64
	curLine      int
	track        int
	pieces       []int32 // finished pieces of the body
	first        string  // first non-blank body line (trimmed), for classification
	textOn       bool
	textOff      int64
	textHash     uint64
	prevHash     uint64 // textHash before the last line (to move "; Function Attrs:" into a function)
	lastAttr     int64  // offset of the previous line if it was "; Function Attrs:", else -1
	lastAttrHash uint64
	inFunc       bool
	fnOff        int64
	fnName       string
	fnHash       uint64
	bodyHash     uint64 // hash of the whole body (loop dumps)

	// spirv-opt: the pass whose "before" block comes next is the previous
	// pass's result.
	spvPending string
	spvBlocks  int

	// Running state per track.
	states   [nTracks]*state
	irLang   string
	lastFunc string            // last function printed (legacy loop dumps name none)
	loopHash map[string]uint64 // scope → body hash of its last dump
	// The text of the last piece a loop dump produced (see loop).
	strs           map[string]string
	lastMerged     int32
	lastMergedText string
	sinceCP        int
}

func newIndexer(l *Log) *indexer {
	ix := &indexer{l: l, lastAttr: -1, loopHash: map[string]uint64{}, irLang: LangLLVM, lastMerged: -1, strs: map[string]string{}}
	for i := range ix.states {
		ix.states[i] = newState()
	}
	return ix
}

// line consumes one line (with its newline) at offset off.
func (ix *indexer) line(off int64, b []byte) {
	ix.lineNo++
	if len(b) > 9 && (b[0] == ';' || b[0] == '*' || b[0] == '#') && maybeBanner(b) {
		s := strings.TrimRight(string(b), "\r\n")
		if h, ok := parseHeader(s); ok {
			ix.banner(h, off)
			return
		}
		// llc prints some banners without a newline: "*** IR Dump After
		// DummyCGSCCPass (DummyCGSCCPass) ***; Function Attrs: …".
		if i := strings.Index(s, " ***"); i > 0 && b[0] == '*' {
			if h, ok := parseHeader(s[:i+4]); ok {
				ix.banner(h, off)
				if ix.have {
					ix.bodyLine(off+int64(i+4), b[i+4:])
				}
				return
			}
		}
	}
	if !ix.have {
		return
	}
	ix.bodyLine(off, b)
}

// banner ends the current dump and starts the one h announces.
func (ix *indexer) banner(h header, off int64) {
	if !ix.have && len(ix.l.Steps) == 0 {
		ix.l.Preamble = off
		ix.l.Format = formatOf(h)
	}
	ix.endDump(off)
	if h.kind == hIgnored {
		ix.have = false
		return
	}
	ix.startDump(h, off)
}

func maybeBanner(b []byte) bool {
	return bytes.HasPrefix(b, []byte("; ***")) || bytes.HasPrefix(b, []byte("; IR ")) ||
		bytes.HasPrefix(b, []byte("*** ")) || bytes.HasPrefix(b, []byte("# *** IR Dump"))
}

func formatOf(h header) string {
	switch {
	case h.kind == hSPVBefore || h.kind == hSPVLast:
		return "spirv-opt"
	case h.mir:
		return "machine IR"
	case h.stage != "":
		return "passlens"
	case !h.legacy:
		return "new pass manager"
	}
	return "legacy pass manager"
}

func (ix *indexer) startDump(h header, off int64) {
	ix.cur, ix.have, ix.curOff, ix.curLine = h, true, off, ix.lineNo
	ix.pieces = ix.pieces[:0]
	ix.first = ""
	ix.textOn, ix.inFunc, ix.lastAttr = false, false, -1
	ix.bodyHash = 0
	switch {
	case h.mir:
		ix.track = trackMIR
	case h.kind == hSPVBefore || h.kind == hSPVLast:
		ix.track = trackSPV
	case h.stage != "":
		ix.track = trackStage
	default:
		ix.track = trackIR
		if strings.HasPrefix(h.scope, "@") {
			ix.irLang = LangPIR
		}
	}
}

// bodyLine splits a dump's body into function pieces and the text between.
func (ix *indexer) bodyLine(off int64, b []byte) {
	lh := maphash.Bytes(seed, b)
	ix.bodyHash = mix(ix.bodyHash, lh)
	t := b
	for len(t) > 0 && (t[len(t)-1] == '\n' || t[len(t)-1] == '\r') {
		t = t[:len(t)-1]
	}
	if ix.first == "" {
		if s := strings.TrimSpace(string(t)); s != "" {
			ix.first = s
			if ix.track == trackIR && strings.HasPrefix(s, `module "`) {
				ix.irLang = LangPIR
			}
		}
	}
	end := off + int64(len(b))
	if ix.inFunc {
		ix.fnHash = mix(ix.fnHash, lh)
		if ix.funcEnd(t) {
			ix.closeFunc(end)
		}
		return
	}
	if name, ok := ix.funcStart(t); ok && ix.track != trackStage {
		start, h := off, uint64(0)
		if ix.lastAttr >= 0 {
			// "; Function Attrs:" belongs to the function it describes.
			start = ix.lastAttr
			h = mix(0, ix.lastAttrHash)
			ix.textHash = ix.prevHash
		}
		ix.closeText(start)
		ix.inFunc, ix.fnOff, ix.fnName, ix.fnHash = true, start, name, mix(h, lh)
		ix.lastAttr = -1
		if ix.funcEnd(t) {
			ix.closeFunc(end)
		}
		return
	}
	if !ix.textOn {
		ix.textOn, ix.textOff, ix.textHash = true, off, 0
	}
	ix.prevHash = ix.textHash
	ix.textHash = mix(ix.textHash, lh)
	ix.lastAttr = -1
	if ix.track == trackIR && bytes.HasPrefix(t, []byte("; Function Attrs:")) {
		ix.lastAttr, ix.lastAttrHash = off, lh
	}
}

// funcStart recognises the first line of a function in the current track.
func (ix *indexer) funcStart(t []byte) (string, bool) {
	switch ix.track {
	case trackIR:
		if bytes.HasPrefix(t, []byte("define ")) {
			return funcName(string(t)), true
		}
	case trackMIR:
		if rest, ok := bytes.CutPrefix(t, []byte("# Machine code for function ")); ok {
			if i := bytes.LastIndexByte(rest, ':'); i >= 0 {
				rest = rest[:i]
			}
			return string(rest), true
		}
	case trackSPV:
		s := bytes.TrimSpace(t)
		if len(s) > 0 && s[0] == '%' {
			if i := bytes.Index(s, []byte(" = OpFunction ")); i > 0 {
				return string(s[1:i]), true
			}
		}
	}
	return "", false
}

func (ix *indexer) funcEnd(t []byte) bool {
	switch ix.track {
	case trackIR:
		return len(t) == 1 && t[0] == '}'
	case trackMIR:
		return bytes.HasPrefix(t, []byte("# End machine code for function "))
	case trackSPV:
		return string(bytes.TrimSpace(t)) == "OpFunctionEnd"
	}
	return false
}

// funcName extracts @name from a define line (quoted names kept unquoted).
func funcName(line string) string {
	i := strings.Index(line, " @")
	if i < 0 {
		return ""
	}
	s := line[i+2:]
	if strings.HasPrefix(s, `"`) {
		if j := strings.IndexByte(s[1:], '"'); j >= 0 {
			return s[1 : j+1]
		}
		return s[1:]
	}
	if j := strings.IndexAny(s, "( "); j >= 0 {
		return s[:j]
	}
	return s
}

func (ix *indexer) closeText(end int64) {
	if ix.textOn && end > ix.textOff {
		ix.pieces = append(ix.pieces, ix.addSeg(seg{off: ix.textOff, n: end - ix.textOff, hash: ix.textHash}))
	}
	ix.textOn = false
}

// intern shares the strings that repeat in every step (pass, scope and
// function names) so that a log of 100k steps holds each once.
func (ix *indexer) intern(s string) string {
	if v, ok := ix.strs[s]; ok {
		return v
	}
	ix.strs[s] = s
	return s
}

func (ix *indexer) closeFunc(end int64) {
	ix.pieces = append(ix.pieces, ix.addSeg(seg{off: ix.fnOff, n: end - ix.fnOff, name: ix.intern(ix.fnName), hash: mix(ix.fnHash, 7)}))
	ix.inFunc = false
}

func (ix *indexer) addSeg(s seg) int32 {
	ix.l.segs = append(ix.l.segs, s)
	return int32(len(ix.l.segs) - 1)
}

func (ix *indexer) finish(end int64) {
	ix.endDump(end)
	if ix.track == trackSPV && ix.spvPending != "" && ix.spvBlocks > 0 {
		// A log cut before "; IR after last pass": the last pass has no result.
		ix.spvPending = ""
	}
}

// endDump turns the dump that ends at off into a step.
func (ix *indexer) endDump(off int64) {
	if !ix.have {
		return
	}
	ix.have = false
	if ix.inFunc {
		// A function cut off by the next banner or the end of the log.
		ix.closeFunc(off)
	} else {
		ix.closeText(off)
	}
	h := ix.cur
	st := Step{Pass: ix.intern(h.pass), Scope: ix.intern(h.scope), Line: ix.curLine, Offset: ix.curOff, Failed: h.failed, Status: Changed}
	d := delta{track: uint8(ix.track)}
	switch ix.track {
	case trackIR:
		st.Lang = ix.irLang
	case trackMIR:
		st.Lang = LangMIR
	case trackSPV:
		st.Lang = LangSPIRV
	case trackStage:
		st.Lang = h.stage
	}
	s := ix.states[ix.track]
	switch {
	case h.kind == hSPVBefore || h.kind == hSPVLast:
		ix.spvBlocks++
		prev := ix.spvPending
		ix.spvPending = h.pass
		if ix.spvBlocks == 1 {
			st.Pass, st.Status = "input", Input
		} else {
			st.Pass = prev
		}
		ix.reset(&st, &d, s)
	case h.kind == hOmitted:
		st.Status = Unchanged
	case h.kind == hDeleted:
		for _, f := range scopeFuncs(h.scope) {
			if _, ok := s.pos[f]; ok {
				d.del = append(d.del, f)
				st.ChangedFuncs = append(st.ChangedFuncs, f)
			}
		}
		st.Note = "function deleted"
		if len(d.del) == 0 {
			st.Status = Unchanged
		}
	case ix.track == trackStage || ix.isModule() || h.kind == hStart:
		// "At Start" is the whole input, whatever its first line.
		ix.reset(&st, &d, s)
	case ix.isLoop():
		ix.loop(&st, &d, s, h)
	default:
		ix.merge(&st, &d, s)
	}
	if h.kind == hStart {
		st.Pass, st.Status = "input", Input
	}
	if h.kind == hBefore {
		st.Before = true
	}
	if st.Failed != "" && st.Note == "" {
		st.Note = "FAILED: " + st.Failed
	}
	s.apply(ix.l, &d)
	ix.l.Steps = append(ix.l.Steps, st)
	ix.l.deltas = append(ix.l.deltas, d)
	ix.checkpoint(&d)
}

// isModule reports a body that prints a whole module.
func (ix *indexer) isModule() bool {
	return strings.HasPrefix(ix.first, "; ModuleID") || strings.HasPrefix(ix.first, `module "`) ||
		strings.HasPrefix(ix.first, "source_filename") || strings.HasPrefix(ix.first, "target ")
}

func (ix *indexer) isLoop() bool {
	if strings.HasPrefix(ix.first, "define ") || strings.HasPrefix(ix.first, "; Function Attrs:") {
		// A whole function under a loop banner: a -print-changed=diff
		// loop step as RebuildDiff writes it.
		return false
	}
	if _, ok := loopFunc(ix.cur.scope); ok {
		return true
	}
	return ix.cur.legacy && (ix.first == "; Preheader:" || ix.first == "; Loop:")
}

// reset makes the body the whole module state.
func (ix *indexer) reset(st *Step, d *delta, s *state) {
	d.reset = append([]int32{}, ix.pieces...)
	segs := ix.l.segs
	old := map[string]uint64{}
	var oldText, newText []uint64
	for _, id := range s.segs {
		if n := segs[id].name; n != "" {
			old[n] = segs[id].hash
		} else if id != sepSeg {
			oldText = append(oldText, segs[id].hash)
		}
	}
	seen := map[string]bool{}
	for _, id := range d.reset {
		sg := &segs[id]
		if sg.name == "" {
			newText = append(newText, sg.hash)
			continue
		}
		seen[sg.name] = true
		if h, ok := old[sg.name]; !ok || h != sg.hash {
			st.ChangedFuncs = append(st.ChangedFuncs, sg.name)
		}
		ix.lastFunc = sg.name
	}
	for _, id := range s.segs {
		if n := segs[id].name; n != "" && !seen[n] {
			st.ChangedFuncs = append(st.ChangedFuncs, n) // removed
		}
	}
	st.ModuleChanged = !equalHashes(oldText, newText)
	if len(st.ChangedFuncs) == 0 && !st.ModuleChanged && len(s.segs) > 0 {
		st.Status = Unchanged
	}
}

func equalHashes(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// merge replaces the functions the body prints.
func (ix *indexer) merge(st *Step, d *delta, s *state) {
	segs := ix.l.segs
	for _, id := range ix.pieces {
		sg := &segs[id]
		if sg.name == "" {
			continue
		}
		d.set = append(d.set, id)
		st.Touched = append(st.Touched, sg.name)
		if i, ok := s.pos[sg.name]; !ok || segs[s.segs[i]].hash != sg.hash {
			st.ChangedFuncs = append(st.ChangedFuncs, sg.name)
		}
		ix.lastFunc = sg.name
	}
	if len(d.set) == 0 {
		st.Note = "no function printed"
	}
	if len(st.ChangedFuncs) == 0 {
		st.Status = Unchanged
	}
}

// loop merges a loop dump into its function (see Step.Partial).
func (ix *indexer) loop(st *Step, d *delta, s *state, h header) {
	fn, ok := loopFunc(h.scope)
	if !ok {
		fn = ix.lastFunc
	}
	key := fn + "\x00" + h.scope
	if h.legacy {
		key = fn + "\x00" + ix.first
	}
	body := ix.addSeg(seg{off: ix.curBodyOff(), n: 0, name: "loop", hash: ix.bodyHash})
	if len(ix.pieces) > 0 {
		first, last := ix.l.segs[ix.pieces[0]], ix.l.segs[ix.pieces[len(ix.pieces)-1]]
		ix.l.segs[body].off, ix.l.segs[body].n = first.off, last.off+last.n-first.off
	}
	i, found := s.pos[fn]
	if !found {
		st.Status, st.Partial = Unchanged, true
		st.Note = "loop of a function not printed before: not merged"
		return
	}
	st.Touched = []string{fn}
	prev, seenLoop := ix.loopHash[key]
	ix.loopHash[key] = ix.bodyHash
	if seenLoop && prev == ix.bodyHash {
		st.Status = Unchanged
		return
	}
	base := ix.l.segs[s.segs[i]]
	ns := base
	ns.patches = append(append([]int32{}, base.patches...), body)
	// Whether the merge changes the function is decided on the merged
	// text: the loop may print what function passes already did.
	// The last merged text is kept, so that a run of loop dumps on one
	// function patches once per dump.
	var before string
	var err error
	if ix.lastMerged >= 0 && ix.lastMerged == s.segs[i] {
		before = ix.lastMergedText
	} else {
		before, err = ix.l.segText(&base)
	}
	lt, err2 := ix.l.read(ix.l.segs[body].off, ix.l.segs[body].n)
	if err != nil || err2 != nil {
		st.Status, st.Partial, st.Note = Unchanged, true, "loop dump not merged: the log cannot be read back"
		return
	}
	after, lost := mergeLoop(before, lt)
	if lost > 0 {
		// The loop's blocks are not the function's any more (a rotated
		// loop): the function cannot be rebuilt from this dump.
		st.Partial = true
		st.ChangedFuncs = []string{fn}
		st.Note = fmt.Sprintf("loop dump not merged: %d of its blocks are not in @%s, whose text is as of the previous step", lost, fn)
		if before == after {
			return
		}
	} else if before == after {
		st.Status = Unchanged
		return
	}
	// The hash a function dump of the merged text would have, so that the
	// next dump of the function is unchanged if it prints the same text.
	ns.hash = funcHash(after)
	d.set = []int32{ix.addSeg(ns)}
	ix.lastMerged, ix.lastMergedText = d.set[0], after
	st.ChangedFuncs = []string{fn}
	st.Partial = true
	if st.Note == "" {
		st.Note = "loop dump merged into @" + fn + ": blocks outside the loop as of the previous step"
	}
}

// curBodyOff is where the current body would start if it had no pieces.
func (ix *indexer) curBodyOff() int64 { return ix.curOff }

// scopeFuncs lists the functions a scope names: "f", "(f, g)".
func scopeFuncs(scope string) []string {
	if fn, ok := loopFunc(scope); ok {
		return []string{fn}
	}
	if scope == "[module]" || scope == "" {
		return nil
	}
	if strings.HasPrefix(scope, "(") && strings.HasSuffix(scope, ")") {
		var out []string
		for _, f := range strings.Split(scope[1:len(scope)-1], ", ") {
			out = append(out, strings.TrimSpace(f))
		}
		return out
	}
	return []string{strings.TrimPrefix(scope, "@")}
}

// checkpoint stores the states every so often, so that a step's state is
// rebuilt from the nearest checkpoint by replaying few deltas.
func (ix *indexer) checkpoint(d *delta) {
	ix.sinceCP += 1 + len(d.set) + len(d.reset)/8
	total := 0
	for _, s := range ix.states {
		total += len(s.segs)
	}
	if ix.sinceCP < 32 || ix.sinceCP*4 < total {
		return
	}
	ix.sinceCP = 0
	cp := checkpoint{step: len(ix.l.Steps) - 1}
	for t, s := range ix.states {
		cp.state[t] = append([]int32(nil), s.segs...)
	}
	ix.l.cps = append(ix.l.cps, cp)
}

// funcHash hashes a function's text as the scan hashes a function piece
// (closeFunc): every line with its newline, folded in order.
func funcHash(text string) uint64 {
	var h uint64
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		line := text
		if i >= 0 {
			line = text[:i+1]
		}
		h = mix(h, maphash.String(seed, line))
		text = text[len(line):]
	}
	return mix(h, 7)
}
