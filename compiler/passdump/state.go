package passdump

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unsafe"
)

// state is a module as an ordered list of pieces, with the position of
// every function piece by name.
type state struct {
	segs []int32
	pos  map[string]int
}

func newState() *state { return &state{pos: map[string]int{}} }

func stateOf(l *Log, segs []int32) *state {
	s := &state{segs: append([]int32(nil), segs...)}
	s.reindex(l)
	return s
}

func (s *state) reindex(l *Log) {
	s.pos = make(map[string]int, len(s.pos))
	for i, id := range s.segs {
		if n := l.segs[id].name; n != "" {
			s.pos[n] = i
		}
	}
}

// apply performs a delta of this state's track.
func (s *state) apply(l *Log, d *delta) {
	if d.reset != nil {
		s.segs = append(s.segs[:0:0], d.reset...)
		s.reindex(l)
		return
	}
	for _, id := range d.set {
		name := l.segs[id].name
		if i, ok := s.pos[name]; ok {
			s.segs[i] = id
			continue
		}
		// A function not in the state yet: after the last function, with
		// a blank line between.
		at := len(s.segs)
		for i := len(s.segs) - 1; i >= 0; i-- {
			if l.segs[s.segs[i]].name != "" {
				at = i + 1
				break
			}
		}
		ins := []int32{id}
		if at > 0 && l.segs[s.segs[at-1]].name != "" {
			ins = []int32{sepSeg, id}
		}
		s.segs = append(s.segs[:at], append(ins, s.segs[at:]...)...)
		s.reindex(l)
	}
	if len(d.del) > 0 {
		gone := map[string]bool{}
		for _, f := range d.del {
			gone[f] = true
		}
		out := s.segs[:0]
		for i, id := range s.segs {
			if gone[l.segs[id].name] {
				continue
			}
			// Drop the separator that preceded a removed function.
			if id == sepSeg && i+1 < len(s.segs) && gone[l.segs[s.segs[i+1]].name] {
				continue
			}
			out = append(out, id)
		}
		s.segs = out
		s.reindex(l)
	}
}

// stateAt rebuilds the state of a track after step i.
func (l *Log) stateAt(i, track int) *state {
	k := sort.Search(len(l.cps), func(j int) bool { return l.cps[j].step > i }) - 1
	start := 0
	s := newState()
	if k >= 0 {
		s = stateOf(l, l.cps[k].state[track])
		start = l.cps[k].step + 1
	}
	for j := start; j <= i; j++ {
		if d := &l.deltas[j]; int(d.track) == track {
			s.apply(l, d)
		}
	}
	return s
}

// trackOf returns the track of step i.
func (l *Log) trackOf(i int) int { return int(l.deltas[i].track) }

// Text returns the whole module after step i, and where its functions are.
func (l *Log) Text(i int) (string, []FuncSpan, error) {
	if i < 0 || i >= len(l.Steps) {
		return "", nil, fmt.Errorf("no step %d (the log has %d)", i, len(l.Steps))
	}
	l.mu.Lock()
	for _, c := range l.cache {
		if c.step == i {
			l.mu.Unlock()
			return c.text, c.funcs, nil
		}
	}
	l.mu.Unlock()
	s := l.stateAt(i, l.trackOf(i))
	text, funcs, err := l.compose(s)
	if err != nil {
		return "", nil, err
	}
	l.mu.Lock()
	if len(l.cache) >= 4 {
		l.cache = l.cache[1:]
	}
	l.cache = append(l.cache, cached{i, text, funcs})
	l.mu.Unlock()
	return text, funcs, nil
}

// compose reads the pieces of a state into one buffer; pieces that follow
// each other in the log are read at once.
func (l *Log) compose(s *state) (string, []FuncSpan, error) {
	total := 0
	for _, id := range s.segs {
		total += int(l.segs[id].n) + len(l.segs[id].lit)
	}
	buf := make([]byte, 0, total)
	var funcs []FuncSpan
	line := 0
	span := func(sg *seg, part []byte) {
		n := bytes.Count(part, []byte{'\n'})
		if sg.name != "" {
			funcs = append(funcs, FuncSpan{Name: sg.name, Start: line, End: line + max(n, 1)})
		}
		line += n
	}
	for i := 0; i < len(s.segs); {
		sg := &l.segs[s.segs[i]]
		if sg.lit != "" || len(sg.patches) > 0 {
			txt, err := l.segText(sg)
			if err != nil {
				return "", nil, err
			}
			at := len(buf)
			buf = append(buf, txt...)
			span(sg, buf[at:])
			i++
			continue
		}
		// Extend over pieces that follow in the file.
		j, end := i+1, sg.off+sg.n
		for j < len(s.segs) {
			nx := &l.segs[s.segs[j]]
			if nx.lit != "" || len(nx.patches) > 0 || nx.off != end {
				break
			}
			end += nx.n
			j++
		}
		at := len(buf)
		n := int(end - sg.off)
		if cap(buf)-at < n {
			nb := make([]byte, at, at+n+total/4)
			copy(nb, buf)
			buf = nb
		}
		buf = buf[:at+n]
		if k, err := l.r.ReadAt(buf[at:], sg.off); k != n {
			return "", nil, fmt.Errorf("%s: reading bytes %d-%d: %v", l.Name, sg.off, end, err)
		}
		for k := i; k < j; k++ {
			p := &l.segs[s.segs[k]]
			span(p, buf[at:at+int(p.n)])
			at += int(p.n)
		}
		i = j
	}
	// buf is never written again: share it with the string.
	return unsafe.String(unsafe.SliceData(buf), len(buf)), funcs, nil
}

func (l *Log) read(off, n int64) (string, error) {
	buf := make([]byte, n)
	if k, err := l.r.ReadAt(buf, off); int64(k) != n {
		return "", fmt.Errorf("%s: reading bytes %d-%d: %v", l.Name, off, off+n, err)
	}
	return string(buf), nil
}

// Functions lists the functions defined at step i, in module order.
func (l *Log) Functions(i int) []string {
	if i < 0 || i >= len(l.Steps) {
		return nil
	}
	s := l.stateAt(i, l.trackOf(i))
	var out []string
	for _, id := range s.segs {
		if n := l.segs[id].name; n != "" {
			out = append(out, n)
		}
	}
	return out
}

// FuncText returns function fn's text at step i ("" if it is not defined).
func (l *Log) FuncText(i int, fn string) (string, error) {
	text, funcs, err := l.Text(i)
	if err != nil {
		return "", err
	}
	for _, f := range funcs {
		if f.Name == fn {
			lines := strings.SplitAfter(text, "\n")
			return strings.Join(lines[f.Start:min(f.End, len(lines))], ""), nil
		}
	}
	return "", nil
}

// segText reads one piece, with its loop patches applied.
func (l *Log) segText(sg *seg) (string, error) {
	if sg.lit != "" {
		return sg.lit, nil
	}
	txt, err := l.read(sg.off, sg.n)
	if err != nil {
		return "", err
	}
	for _, p := range sg.patches {
		ps := &l.segs[p]
		lt, err := l.read(ps.off, ps.n)
		if err != nil {
			return "", err
		}
		txt = patchLoop(txt, lt)
	}
	return txt, nil
}
