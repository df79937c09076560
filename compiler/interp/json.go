package interp

// This file writes the JSON result format of docs/run.md: keys in a fixed
// order, values as FormatValue spells them (NaNs, infinities and negative
// zero, which JSON numbers cannot carry exactly, as "0x..." strings the
// input format reads back), and an indenter that keeps short arrays and
// runs of scalars on few lines.

import (
	"bytes"
	"encoding/json"
	"io"
	"strconv"

	"passlens/compiler/ir"
)

// jsonValue writes a value as JSON: scalars as numbers/bools, vectors,
// matrices (rows) and arrays as lists, structs as objects in member order.
func jsonValue(buf *bytes.Buffer, t *ir.Type, cells []uint64) {
	if len(cells) < slots(t) {
		buf.WriteString("null")
		return
	}
	switch t.Kind {
	case ir.KBool, ir.KInt, ir.KUint, ir.KFloat, ir.KPointer:
		buf.WriteString(scalarText(t, cells[0], true))
		return
	case ir.KStruct:
		buf.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				buf.WriteByte(',')
			}
			jsonString(buf, f.Name)
			buf.WriteByte(':')
			et, c, ok := part(t, cells, i)
			if !ok {
				buf.WriteString("null")
				continue
			}
			jsonValue(buf, et, c)
		}
		buf.WriteByte('}')
		return
	}
	buf.WriteByte('[')
	for i := 0; i < numParts(t, len(cells)); i++ {
		if i > 0 {
			buf.WriteByte(',')
		}
		et, c, ok := part(t, cells, i)
		if !ok {
			buf.WriteString("null")
			continue
		}
		jsonValue(buf, et, c)
	}
	buf.WriteByte(']')
}

// jsonString writes a JSON string without HTML escaping (types such as
// <4 x f32> stay readable).
func jsonString(buf *bytes.Buffer, s string) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	buf.Truncate(buf.Len() - 1) // Encode appends a newline
}

// jsonObj writes an object with keys in the order given.
type jsonObj struct {
	buf   *bytes.Buffer
	first bool
}

func newObj(buf *bytes.Buffer) *jsonObj {
	buf.WriteByte('{')
	return &jsonObj{buf: buf, first: true}
}

func (o *jsonObj) key(k string) *bytes.Buffer {
	if !o.first {
		o.buf.WriteByte(',')
	}
	o.first = false
	jsonString(o.buf, k)
	o.buf.WriteByte(':')
	return o.buf
}

func (o *jsonObj) str(k, v string)     { jsonString(o.key(k), v) }
func (o *jsonObj) num(k string, v int) { o.key(k).WriteString(strconv.Itoa(v)) }
func (o *jsonObj) ints(k string, v []int) {
	b := o.key(k)
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
}
func (o *jsonObj) end() { o.buf.WriteByte('}') }

// MarshalJSON returns the result in the JSON format of docs/run.md
// (compact; WriteJSON indents).
func (r *Result) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	o := newObj(&buf)
	o.str("entry", r.Entry)
	o.str("stage", r.Stage.String())
	o.num("wave_size", r.WaveSize)
	o.str("policy", r.Policy.String())
	o.key("steps").WriteString(strconv.FormatInt(r.Steps, 10))
	b := o.key("buffers")
	b.WriteByte('[')
	for i := range r.Buffers {
		if i > 0 {
			b.WriteByte(',')
		}
		bf := &r.Buffers[i]
		bo := newObj(b)
		bo.str("name", bf.Name)
		if bf.IsArg {
			bo.num("arg", bf.Arg)
		} else {
			bo.num("set", bf.Set)
			bo.num("binding", bf.Binding)
		}
		bo.str("type", bf.Elem.String())
		bo.num("count", bf.Count)
		if bf.Tail > 0 {
			bo.num("tail", bf.Tail)
		}
		d := bo.key("data")
		d.WriteByte('[')
		for e := 0; e < bf.Count; e++ {
			if e > 0 {
				d.WriteByte(',')
			}
			jsonValue(d, bf.Elem, bf.Element(e))
		}
		d.WriteByte(']')
		bo.end()
	}
	b.WriteByte(']')
	if len(r.Targets) > 0 {
		b := o.key("targets")
		b.WriteByte('[')
		for i := range r.Targets {
			if i > 0 {
				b.WriteByte(',')
			}
			t := &r.Targets[i]
			to := newObj(b)
			to.str("name", t.Name)
			to.str("semantic", t.Semantic)
			to.str("type", t.Elem.String())
			to.num("width", t.Width)
			to.num("height", t.Height)
			rows := to.key("rows")
			rows.WriteByte('[')
			for y := 0; y < t.Height; y++ {
				if y > 0 {
					rows.WriteByte(',')
				}
				rows.WriteByte('[')
				for x := 0; x < t.Width; x++ {
					if x > 0 {
						rows.WriteByte(',')
					}
					if !t.Written[y*t.Width+x] {
						rows.WriteString("null")
						continue
					}
					jsonValue(rows, t.Elem, t.Pixel(x, y))
				}
				rows.WriteByte(']')
			}
			rows.WriteByte(']')
			to.end()
		}
		b.WriteByte(']')
	}
	if len(r.Lanes) > 0 {
		b := o.key("lanes")
		b.WriteByte('[')
		for i := range r.Lanes {
			if i > 0 {
				b.WriteByte(',')
			}
			l := &r.Lanes[i]
			lo := newObj(b)
			lo.num("index", l.Index)
			switch r.Stage {
			case ir.StagePixel:
				lo.ints("pixel", l.Pixel[:])
			case ir.StageVertex:
				lo.num("vertex", l.Vertex)
			default:
				lo.ints("group", l.Group[:])
				lo.ints("thread", l.Thread[:])
			}
			lo.num("wave", l.Wave)
			lo.num("lane", l.WaveLane)
			if l.Killed {
				lo.key("discarded").WriteString("true")
			}
			if l.Helper {
				lo.key("helper").WriteString("true")
			}
			oo := newObj(lo.key("outputs"))
			for j := range l.Outputs {
				out := &l.Outputs[j]
				k := out.Semantic
				if k == "" {
					k = out.Name
				}
				jsonValue(oo.key(k), out.Type, out.Cells)
			}
			oo.end()
			lo.end()
		}
		b.WriteByte(']')
	}
	if r.WaveOpsDropped > 0 {
		o.key("wave_ops_dropped").WriteString(strconv.FormatInt(r.WaveOpsDropped, 10))
	}
	if len(r.WaveOps) > 0 {
		b := o.key("wave_ops")
		b.WriteByte('[')
		for i := range r.WaveOps {
			if i > 0 {
				b.WriteByte(',')
			}
			w := &r.WaveOps[i]
			wo := newObj(b)
			wo.num("seq", w.Seq)
			wo.ints("group", w.Group[:])
			wo.num("wave", w.Wave)
			wo.str("function", w.Func)
			wo.str("block", w.Block)
			wo.str("op", w.Name)
			wo.str("instr", ir.InstrString(w.Instr))
			wo.ints("lanes", w.Lanes)
			if len(w.Results) > 0 {
				rs := wo.key("results")
				rs.WriteByte('[')
				for j, c := range w.Results {
					if j > 0 {
						rs.WriteByte(',')
					}
					jsonValue(rs, w.Type, c)
				}
				rs.WriteByte(']')
			}
			wo.end()
		}
		b.WriteByte(']')
	}
	o.end()
	return buf.Bytes(), nil
}

// WriteJSON writes the result as indented JSON followed by a newline.
// Objects are indented two spaces per level; an array without objects is
// written on one line when short (data, vectors, lane lists), as filled
// lines when it is a long list of scalars, else one element per line.
func (r *Result) WriteJSON(w io.Writer) error {
	compact, err := r.MarshalJSON()
	if err != nil {
		return err
	}
	out := indentJSON(compact)
	out = append(out, '\n')
	_, err = w.Write(out)
	return err
}

// inlineLimit is the longest array written on one line.
const inlineLimit = 100

// indentJSON re-indents compact JSON (as MarshalJSON writes it).
func indentJSON(b []byte) []byte {
	var out []byte
	depth := 0
	nl := func() {
		out = append(out, '\n')
		for i := 0; i < depth; i++ {
			out = append(out, "  "...)
		}
	}
	for i := 0; i < len(b); i++ {
		switch c := b[i]; c {
		case '"':
			j := stringEnd(b, i)
			out = append(out, b[i:j]...)
			i = j - 1
		case '{', '[':
			j := closing(b, i)
			if j == i+1 {
				out = append(out, c, b[j])
				i = j
				continue
			}
			if c == '[' && !bytes.ContainsAny(b[i:j], "{") {
				if j-i < inlineLimit {
					out = appendSpaced(out, b[i:j+1])
					i = j
					continue
				}
				if !bytes.ContainsAny(b[i+1:j], "[") {
					// A long list of scalars: filled lines.
					out = append(out, '[')
					depth++
					nl()
					out = appendFilled(out, b[i+1:j], depth)
					depth--
					nl()
					out = append(out, ']')
					i = j
					continue
				}
			}
			out = append(out, c)
			depth++
			nl()
		case '}', ']':
			depth--
			nl()
			out = append(out, c)
		case ',':
			out = append(out, ',')
			nl()
		case ':':
			out = append(out, ": "...)
		default:
			out = append(out, c)
		}
	}
	return out
}

// stringEnd returns the index just past the JSON string starting at i.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(b)
}

// closing returns the index of the bracket closing the one at i.
func closing(b []byte, i int) int {
	depth := 0
	for j := i; j < len(b); j++ {
		switch b[j] {
		case '"':
			j = stringEnd(b, j) - 1
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(b) - 1
}

// appendFilled writes the comma-separated scalars of seg, wrapping lines
// before inlineLimit columns (continuation lines indented depth levels).
func appendFilled(out, seg []byte, depth int) []byte {
	col := 0
	for i := 0; i < len(seg); {
		j := i
		for j < len(seg) && seg[j] != ',' {
			if seg[j] == '"' {
				j = stringEnd(seg, j)
				continue
			}
			j++
		}
		item := seg[i:j]
		if col > 0 && col+len(item)+2 > inlineLimit {
			out = append(out, '\n')
			for k := 0; k < depth; k++ {
				out = append(out, "  "...)
			}
			col = 0
		} else if col > 0 {
			out = append(out, ' ')
			col++
		}
		out = append(out, item...)
		col += len(item)
		if j < len(seg) {
			out = append(out, ',')
			col++
		}
		i = j + 1
	}
	return out
}

// appendSpaced copies an inline array, adding a space after each comma
// outside strings.
func appendSpaced(out, seg []byte) []byte {
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		if c == '"' {
			j := stringEnd(seg, i)
			out = append(out, seg[i:j]...)
			i = j - 1
			continue
		}
		out = append(out, c)
		if c == ',' {
			out = append(out, ' ')
		}
	}
	return out
}
