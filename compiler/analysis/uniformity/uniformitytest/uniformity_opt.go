package uniformitytest

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"passlens/compiler/analysis/analysistest"
	"passlens/compiler/analysis/uniformity"
	"slices"
	"sort"
	"strings"
)

// This file reads print<uniformity> output (opt-22's, or passlens's
// WriteOpt) into sets that do not depend on instruction spelling or print
// order, so that passlens can be compared with opt:
//
//   - divergent arguments, by name;
//   - divergent values, by name (instructions without a result, such as
//     stores and void calls, are only counted);
//   - blocks whose terminator is divergent, by name;
//   - cycles assumed divergent (outermost ones only) and cycles with a
//     divergent exit, by depth, header, entries and blocks;
//   - the temporal divergence list, as (value, user, cycle) for named users.

// UniformitySets is the comparable content of one function's uniformity
// printout.
type UniformitySets struct {
	Func        string
	AllUniform  bool            // "ALL VALUES UNIFORM"
	Args        map[string]bool // divergent arguments
	Values      map[string]bool // divergent named values
	Defined     map[string]bool // every named value printed, divergent or not
	Unnamed     int             // divergent instructions without a result
	Terminators map[string]bool // blocks with a divergent terminator
	Assumed     map[string]bool // cycle keys, outermost cycles only
	DivExit     map[string]bool // cycle keys
	Temporal    map[string]bool // "value -> user in cycle-key"
}

func newUniformitySets(fn string) *UniformitySets {
	return &UniformitySets{
		Func:        fn,
		Args:        map[string]bool{},
		Values:      map[string]bool{},
		Defined:     map[string]bool{},
		Terminators: map[string]bool{},
		Assumed:     map[string]bool{},
		DivExit:     map[string]bool{},
		Temporal:    map[string]bool{},
	}
}

// cycleKey is the canonical form of a printed cycle: its depth, header,
// sorted entries and sorted blocks (entries included).
func cycleKey(depth int, entries, others []string) string {
	es := slices.Clone(entries)
	slices.Sort(es)
	bs := append(slices.Clone(entries), others...)
	slices.Sort(bs)
	h := ""
	if len(entries) > 0 {
		h = entries[0]
	}
	return fmt.Sprintf("depth=%d header=%s entries=[%s] blocks=[%s]", depth, h, strings.Join(es, " "), strings.Join(bs, " "))
}

// parsedCycle is a cycle line: its key and block set.
type parsedCycle struct {
	key    string
	blocks map[string]bool
}

// parseUniformityCycle parses "depth=D: entries(H E...) B..." (leading
// spaces allowed).
func parseUniformityCycle(line string) (parsedCycle, error) {
	s := strings.TrimSpace(line)
	rest, ok := strings.CutPrefix(s, "depth=")
	colon := strings.Index(rest, ": entries(")
	if !ok || colon < 0 {
		return parsedCycle{}, fmt.Errorf("bad cycle %q", line)
	}
	var depth int
	if _, err := fmt.Sscanf(rest[:colon], "%d", &depth); err != nil {
		return parsedCycle{}, fmt.Errorf("bad cycle depth in %q", line)
	}
	rest = rest[colon+len(": entries("):]
	close := strings.IndexByte(rest, ')')
	if close < 0 {
		return parsedCycle{}, fmt.Errorf("bad cycle entries in %q", line)
	}
	entries := strings.Fields(rest[:close])
	others := strings.Fields(rest[close+1:])
	pc := parsedCycle{key: cycleKey(depth, entries, others), blocks: map[string]bool{}}
	for _, b := range entries {
		pc.blocks[b] = true
	}
	for _, b := range others {
		pc.blocks[b] = true
	}
	return pc, nil
}

// instrName returns the name defined by an instruction printed as
// "%name = ..." (LLVM or passlens quoting), or "" if it defines none.
func instrName(text string) string {
	t := strings.TrimSpace(text)
	if !strings.HasPrefix(t, "%") {
		return ""
	}
	name, rest, err := analysistest.ParseLLName([]byte(t[1:]))
	if err != nil || !strings.HasPrefix(strings.TrimLeft(string(rest), " "), "=") {
		return ""
	}
	return name
}

// argName returns the name of an argument printed as "type %name".
func argName(text string) string {
	t := strings.TrimSpace(text)
	i := strings.LastIndex(t, " %")
	if i < 0 {
		return t
	}
	name, _, err := analysistest.ParseLLName([]byte(t[i+2:]))
	if err != nil {
		return t[i+2:]
	}
	return name
}

// ParseUniformity reads print<uniformity> output for any number of
// functions.
func ParseUniformity(r io.Reader) ([]*UniformitySets, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<30)
	var (
		out     []*UniformitySets
		cur     *UniformitySets
		mode    string
		block   string
		assumed []parsedCycle
		tValue  string
		tUser   string
	)
	finish := func() {
		if cur == nil {
			return
		}
		for i, a := range assumed {
			maximal := true
			for j, b := range assumed {
				if i != j && len(a.blocks) < len(b.blocks) && subset(a.blocks, b.blocks) {
					maximal = false
					break
				}
			}
			if maximal {
				cur.Assumed[a.key] = true
			}
		}
		assumed = nil
	}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		errorf := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", lineNo, fmt.Sprintf(format, args...))
		}
		if name, ok := strings.CutPrefix(line, "UniformityInfo for function '"); ok {
			finish()
			name = strings.TrimSuffix(name, "':")
			cur = newUniformitySets(name)
			out = append(out, cur)
			mode = ""
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if cur == nil {
			return nil, errorf("output does not start with a function header")
		}
		switch {
		case line == "ALL VALUES UNIFORM":
			cur.AllUniform = true
			continue
		case line == "DIVERGENT ARGUMENTS:":
			mode = "args"
			continue
		case line == "CYCLES ASSUMED DIVERGENT:":
			mode = "assumed"
			continue
		case line == "CYCLES WITH DIVERGENT EXIT:":
			mode = "exit"
			continue
		case line == "TEMPORAL DIVERGENCE LIST:":
			mode = "temporal"
			continue
		case strings.HasPrefix(line, "BLOCK "):
			block = strings.TrimPrefix(line, "BLOCK ")
			mode = "block"
			continue
		case line == "DEFINITIONS":
			mode = "defs"
			continue
		case line == "TERMINATORS":
			mode = "terms"
			continue
		case line == "END BLOCK":
			mode = ""
			continue
		}
		switch mode {
		case "args":
			text, ok := strings.CutPrefix(line, "  DIVERGENT: ")
			if !ok {
				return nil, errorf("bad argument line %q", line)
			}
			cur.Args[argName(text)] = true
		case "assumed", "exit":
			pc, err := parseUniformityCycle(line)
			if err != nil {
				return nil, errorf("%v", err)
			}
			if mode == "assumed" {
				assumed = append(assumed, pc)
			} else {
				cur.DivExit[pc.key] = true
			}
		case "temporal":
			switch {
			case strings.HasPrefix(line, "Value         :"):
				tValue = instrName(strings.TrimPrefix(line, "Value         :"))
				if tValue == "" {
					tValue = argName(strings.TrimPrefix(line, "Value         :"))
				}
			case strings.HasPrefix(line, "Used by       :"):
				tUser = instrName(strings.TrimPrefix(line, "Used by       :"))
			case strings.HasPrefix(line, "Outside cycle :"):
				pc, err := parseUniformityCycle(strings.TrimPrefix(line, "Outside cycle :"))
				if err != nil {
					return nil, errorf("%v", err)
				}
				if tUser != "" {
					cur.Temporal[tValue+" -> "+tUser+" in "+pc.key] = true
				}
			default:
				// The rest of a multi-line instruction (a switch).
			}
		case "defs", "terms":
			text, div := strings.CutPrefix(line, "  DIVERGENT: ")
			if !div {
				if mode == "defs" && strings.HasPrefix(line, "             ") {
					if n := instrName(line); n != "" {
						cur.Defined[n] = true
					}
				}
				continue
			}
			if mode == "terms" {
				cur.Terminators[block] = true
				continue
			}
			if n := instrName(text); n != "" {
				cur.Values[n] = true
				cur.Defined[n] = true
			} else {
				cur.Unnamed++
			}
		default:
			return nil, errorf("unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	finish()
	return out, nil
}

// restrict returns the keys of a that are also in b.
func restrict(a, b map[string]bool) map[string]bool {
	out := make(map[string]bool, len(a))
	for k := range a {
		if b[k] {
			out[k] = true
		}
	}
	return out
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// Sets returns the comparable sets of u, computed directly (not by
// printing and parsing).
func Sets(u *uniformity.UniformityInfo) *UniformitySets {
	s := newUniformitySets(u.Func.Name())
	s.AllUniform = !u.HasDivergence()
	if s.AllUniform {
		return s
	}
	for _, a := range u.DivergentParams() {
		s.Args[a.Name()] = true
	}
	for _, b := range u.Func.Blocks {
		term := b.Terminator()
		for _, in := range b.Instrs {
			if in != term && in.HasResult() {
				s.Defined[in.Name()] = true
			}
			if in == term || !u.IsDivergent(in) {
				continue
			}
			if in.HasResult() {
				s.Values[in.Name()] = true
				s.Defined[in.Name()] = true
			} else {
				s.Unnamed++
			}
		}
		if u.IsDivergentTerminator(b) {
			s.Terminators[b.Name()] = true
		}
	}
	key := func(cy int) string {
		pc, _ := parseUniformityCycle(u.CycleString(cy))
		return pc.key
	}
	for _, c := range u.AssumedDivergentCycles() {
		s.Assumed[key(c)] = true
	}
	for _, c := range u.DivergentExitCycles() {
		s.DivExit[key(c)] = true
	}
	for _, t := range u.TemporalDivergence() {
		if t.User.HasResult() {
			v := t.Value.Name()
			s.Temporal[v+" -> "+t.User.Name()+" in "+key(t.Cycle)] = true
		}
	}
	return s
}

// CompareUniformityOptions selects what CompareUniformity compares.
type CompareUniformityOptions struct {
	Unnamed  bool // compare the number of divergent instructions without a result
	Temporal bool // compare the temporal divergence lists
	// CommonValues compares divergent values only for names both sides
	// define (an importer may split one LLVM instruction into several).
	CommonValues bool
	Limit        int // report at most this many differences (0: all)
}

// CompareUniformity compares two sets and describes each difference.
func CompareUniformity(want, got *UniformitySets, o CompareUniformityOptions) []string {
	var diffs []string
	add := func(format string, args ...any) {
		if o.Limit <= 0 || len(diffs) < o.Limit {
			diffs = append(diffs, fmt.Sprintf(format, args...))
		}
	}
	if want.AllUniform != got.AllUniform {
		add("all values uniform: got %v, want %v", got.AllUniform, want.AllUniform)
	}
	cmp := func(what string, w, g map[string]bool) {
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if !g[k] {
				add("%s %s: missing", what, k)
			}
		}
		for _, k := range slices.Sorted(maps.Keys(g)) {
			if !w[k] {
				add("%s %s: unexpected", what, k)
			}
		}
	}
	cmp("divergent argument", want.Args, got.Args)
	if o.CommonValues {
		cmp("divergent value", restrict(want.Values, got.Defined), restrict(got.Values, want.Defined))
	} else {
		cmp("divergent value", want.Values, got.Values)
	}
	cmp("divergent terminator of block", want.Terminators, got.Terminators)
	cmp("cycle assumed divergent", want.Assumed, got.Assumed)
	cmp("cycle with divergent exit", want.DivExit, got.DivExit)
	if o.Temporal {
		cmp("temporal divergence", want.Temporal, got.Temporal)
	}
	if o.Unnamed && want.Unnamed != got.Unnamed {
		add("divergent instructions without a result: got %d, want %d", got.Unnamed, want.Unnamed)
	}
	return diffs
}

// NormalizeOptOrder sorts the lines of the three lists of opt-22's
// print<uniformity> output whose order passlens does not reproduce:
// "DIVERGENT ARGUMENTS" (opt iterates a hash set of pointers, so its order
// changes with addresses), "CYCLES ASSUMED DIVERGENT" and "CYCLES WITH
// DIVERGENT EXIT" (the order in which opt's worklist found the cycles).
// Everything else is left as is, so two outputs equal after it are the
// same line for line but for the order inside those lists.
func NormalizeOptOrder(text string) string {
	lines := strings.SplitAfter(text, "\n")
	inList := false
	start := 0
	flush := func(end int) {
		if inList {
			sort.Strings(lines[start:end])
		}
		inList = false
	}
	for i, l := range lines {
		switch {
		case l == "DIVERGENT ARGUMENTS:\n", l == "CYCLES ASSUMED DIVERGENT:\n", l == "CYCLES WITH DIVERGENT EXIT:\n":
			flush(i)
			inList, start = true, i+1
		case inList && !strings.HasPrefix(l, "  "):
			flush(i)
		}
	}
	flush(len(lines))
	return strings.Join(lines, "")
}
