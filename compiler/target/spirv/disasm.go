package spirv

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// This file turns a binary module back into text, spelled exactly as
// `spirv-dis` (SPIRV-Tools, default options) spells it: the header
// comments, result ids right-aligned so opcodes start in column 15,
// friendly names for ids (OpName strings sanitized to [A-Za-z0-9_], type
// names such as %v4float and %_ptr_StorageBuffer_uint, constant names such
// as %uint_0 and %float_n1_5, built-in names such as
// %gl_GlobalInvocationID, and the id number for everything else, with _0,
// _1, ... appended on a clash), enumerants by name and typed literals by
// their type. Tests compare the output with spirv-dis byte for byte.

// numType describes a scalar type for printing typed literals.
type numType struct {
	float  bool
	width  int
	signed bool
}

type disasm struct {
	d       *Decoded
	names   map[uint32]string
	used    map[string]bool
	numeric map[uint32]numType // scalar numeric type ids
	typeOf  map[uint32]uint32  // value id -> its result type id
}

// Disassemble returns the text form of a SPIR-V module as spirv-dis
// prints it. It fails on malformed binaries and on opcodes or enumerants
// outside the subset passlens emits.
func Disassemble(words []uint32) (string, error) {
	d, err := Decode(words)
	if err != nil {
		return "", err
	}
	ds := &disasm{d: d, names: map[uint32]string{}, used: map[string]bool{},
		numeric: map[uint32]numType{}, typeOf: map[uint32]uint32{}}
	if err := ds.nameIDs(); err != nil {
		return "", err
	}
	var sb strings.Builder
	h := d.Header
	fmt.Fprintf(&sb, "; SPIR-V\n; Version: %d.%d\n", h.Version>>16&0xFF, h.Version>>8&0xFF)
	fmt.Fprintf(&sb, "; Generator: %s; %d\n", generatorName(h.Generator>>16), h.Generator&0xFFFF)
	fmt.Fprintf(&sb, "; Bound: %d\n; Schema: %d\n", h.Bound, h.Schema)
	for i := range d.Insts {
		line, err := ds.instruction(&d.Insts[i])
		if err != nil {
			return "", fmt.Errorf("spirv: word %d: %v", d.Insts[i].Offset, err)
		}
		sb.WriteString(line)
		sb.WriteByte('\n')
	}
	return sb.String(), nil
}

// generatorName names the generator tool as the Khronos registry does for
// the ids spirv-dis knows that matter here.
func generatorName(tool uint32) string {
	switch tool {
	case 0:
		return "Khronos"
	case 7:
		return "Khronos SPIR-V Tools Assembler"
	case 8:
		return "Khronos Glslang Reference Front End"
	}
	return fmt.Sprintf("Unknown(%d)", tool)
}

// sanitize replaces every character outside [A-Za-z0-9_] by '_'.
func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			b[i] = '_'
		}
	}
	return string(b)
}

// save records a friendly name for id unless it has one, making it unique.
func (ds *disasm) save(id uint32, suggested string) {
	if _, ok := ds.names[id]; ok {
		return
	}
	base := sanitize(suggested)
	name := base
	for k := 0; ds.used[name]; k++ {
		name = base + "_" + strconv.Itoa(k)
	}
	ds.used[name] = true
	ds.names[id] = name
}

// name is the friendly name of id (its number if it has none).
func (ds *disasm) name(id uint32) string {
	if n, ok := ds.names[id]; ok {
		return n
	}
	return strconv.FormatUint(uint64(id), 10)
}

var builtInFriendly = map[uint32]string{
	BuiltInPosition: "gl_Position", BuiltInFragCoord: "gl_FragCoord", BuiltInFrontFacing: "gl_FrontFacing",
	BuiltInSampleID: "gl_SampleID", BuiltInFragDepth: "gl_FragDepth", BuiltInNumWorkgroups: "gl_NumWorkGroups",
	BuiltInWorkgroupID: "gl_WorkGroupID", BuiltInLocalInvocationID: "gl_LocalInvocationID",
	BuiltInGlobalInvocationID: "gl_GlobalInvocationID", BuiltInLocalInvocationIndex: "gl_LocalInvocationIndex",
	BuiltInSubgroupSize: "SubgroupSize", BuiltInSubgroupLocalInvocationID: "SubgroupLocalInvocationId",
	BuiltInVertexIndex: "gl_VertexIndex", BuiltInInstanceIndex: "gl_InstanceIndex",
}

// nameIDs is the friendly-name pass: one walk in module order, where the
// first name suggested for an id wins (OpName before decorations before
// the defaults).
func (ds *disasm) nameIDs() error {
	for i := range ds.d.Insts {
		in := &ds.d.Insts[i]
		o := in.Operands
		need := func(n int) error {
			if len(o) < n {
				return fmt.Errorf("spirv: word %d: Op%s has %d operand words, want at least %d", in.Offset, opName(in.Opcode), len(o), n)
			}
			return nil
		}
		switch in.Opcode {
		case OpName:
			if err := need(2); err != nil {
				return err
			}
			s, _, err := decodeString(o[1:])
			if err != nil {
				return err
			}
			ds.save(o[0], s)
		case OpDecorate:
			if err := need(3); err == nil && o[1] == DecBuiltIn {
				if n, ok := builtInFriendly[o[2]]; ok {
					ds.save(o[0], n)
				}
			}
		case OpTypeVoid:
			ds.save(o[0], "void")
		case OpTypeBool:
			ds.save(o[0], "bool")
		case OpTypeInt:
			if err := need(3); err != nil {
				return err
			}
			sign, root := "", ""
			switch o[1] {
			case 8:
				root = "char"
			case 16:
				root = "short"
			case 32:
				root = "int"
			case 64:
				root = "long"
			default:
				root, sign = strconv.Itoa(int(o[1])), "i"
			}
			if o[2] == 0 {
				sign = "u"
			}
			ds.numeric[o[0]] = numType{width: int(o[1]), signed: o[2] != 0}
			ds.save(o[0], sign+root)
		case OpTypeFloat:
			if err := need(2); err != nil {
				return err
			}
			ds.numeric[o[0]] = numType{float: true, width: int(o[1])}
			switch o[1] {
			case 16:
				ds.save(o[0], "half")
			case 32:
				ds.save(o[0], "float")
			case 64:
				ds.save(o[0], "double")
			default:
				ds.save(o[0], "fp"+strconv.Itoa(int(o[1])))
			}
		case OpTypeVector:
			if err := need(3); err != nil {
				return err
			}
			ds.save(o[0], "v"+strconv.Itoa(int(o[2]))+ds.name(o[1]))
		case OpTypeMatrix:
			if err := need(3); err != nil {
				return err
			}
			ds.save(o[0], "mat"+strconv.Itoa(int(o[2]))+ds.name(o[1]))
		case OpTypeArray:
			if err := need(3); err != nil {
				return err
			}
			ds.save(o[0], "_arr_"+ds.name(o[1])+"_"+ds.name(o[2]))
		case OpTypeRuntimeArray:
			if err := need(2); err != nil {
				return err
			}
			ds.save(o[0], "_runtimearr_"+ds.name(o[1]))
		case OpTypePointer:
			if err := need(3); err != nil {
				return err
			}
			sc, ok := storageClassNames[o[1]]
			if !ok {
				sc = "StorageClass" + strconv.Itoa(int(o[1]))
			}
			ds.save(o[0], "_ptr_"+sc+"_"+ds.name(o[2]))
		case OpTypeStruct:
			if err := need(1); err != nil {
				return err
			}
			ds.save(o[0], "_struct_"+strconv.Itoa(int(o[0])))
		case OpConstantTrue:
			if err := need(2); err != nil {
				return err
			}
			ds.save(o[1], "true")
		case OpConstantFalse:
			if err := need(2); err != nil {
				return err
			}
			ds.save(o[1], "false")
		case OpConstant:
			if err := need(3); err != nil {
				return err
			}
			lit, _, err := ds.typedLiteral(o[0], o[2:])
			if err != nil {
				return err
			}
			ds.save(o[1], ds.name(o[0])+"_"+strings.ReplaceAll(lit, "-", "n"))
		default:
			if info := opTable[in.Opcode]; info != nil {
				if r, ok := resultID(info, o); ok {
					if _, named := ds.names[r]; !named {
						ds.save(r, strconv.FormatUint(uint64(r), 10))
					}
				}
			}
		}
		if info := opTable[in.Opcode]; info != nil && len(info.operands) >= 2 &&
			info.operands[0].kind == kResultType && info.operands[1].kind == kResult && len(o) >= 2 {
			ds.typeOf[o[1]] = o[0]
		}
	}
	return nil
}

// resultID returns the result id of an instruction, if it has one.
func resultID(info *opInfo, o []uint32) (uint32, bool) {
	for i, op := range info.operands {
		if op.kind == kResult {
			if i < len(o) {
				return o[i], true
			}
			return 0, false
		}
		if op.kind != kResultType {
			return 0, false
		}
	}
	return 0, false
}

func opName(op uint16) string {
	if info := opTable[op]; info != nil {
		return info.name
	}
	return strconv.Itoa(int(op))
}

// typedLiteral prints the literal at ws typed by type id t, returning the
// text and the number of words used.
func (ds *disasm) typedLiteral(t uint32, ws []uint32) (string, int, error) {
	nt, ok := ds.numeric[t]
	if !ok {
		return "", 0, fmt.Errorf("literal of non-numeric type %%%d", t)
	}
	n := 1
	if nt.width > 32 {
		n = 2
	}
	if len(ws) < n {
		return "", 0, fmt.Errorf("truncated literal")
	}
	v := uint64(ws[0])
	if n == 2 {
		v |= uint64(ws[1]) << 32
	}
	return formatLiteral(nt, v), n, nil
}

// formatLiteral spells a numeric literal as SPIRV-Tools does: integers in
// decimal (signed types sign-extended), normal and zero floats with the
// type's max_digits10 significant digits in %g style, other floats
// (subnormals, infinities, NaNs) and 16-bit floats as hex floats.
func formatLiteral(nt numType, v uint64) string {
	if !nt.float {
		if nt.signed {
			sh := uint(64 - nt.width)
			return strconv.FormatInt(int64(v<<sh)>>sh, 10)
		}
		if nt.width < 64 {
			v &= 1<<uint(nt.width) - 1
		}
		return strconv.FormatUint(v, 10)
	}
	switch nt.width {
	case 32:
		f := math.Float32frombits(uint32(v))
		if f == 0 || isNormal32(uint32(v)) {
			return formatG(float64(f), 9)
		}
		return hexFloat(v&0xFFFFFFFF, 23, 8)
	case 64:
		f := math.Float64frombits(v)
		if f == 0 || isNormal64(v) {
			return formatG(f, 17)
		}
		return hexFloat(v, 52, 11)
	case 16:
		return hexFloat(v&0xFFFF, 10, 5)
	}
	return strconv.FormatUint(v, 10)
}

func isNormal32(b uint32) bool {
	e := b >> 23 & 0xFF
	return e != 0 && e != 0xFF
}

func isNormal64(b uint64) bool {
	e := b >> 52 & 0x7FF
	return e != 0 && e != 0x7FF
}

// formatG is C's "%.<prec>g" (as C++ streams print with that precision).
func formatG(f float64, prec int) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0"
		}
		return "0"
	}
	return strconv.FormatFloat(f, 'g', prec, 64)
}

// hexFloat spells an IEEE value in SPIRV-Tools' hex-float notation:
// [-]0x1[.hhh]p±e with trailing zero digits dropped; subnormals are
// normalized, infinities and NaNs use the maximum exponent.
func hexFloat(v uint64, fracBits, expBits int) string {
	sign := v >> uint(fracBits+expBits) & 1
	exp := int(v >> uint(fracBits) & (1<<uint(expBits) - 1))
	frac := v & (1<<uint(fracBits) - 1)
	bias := 1<<uint(expBits-1) - 1
	var sb strings.Builder
	if sign != 0 {
		sb.WriteByte('-')
	}
	sb.WriteString("0x")
	e := exp - bias
	if exp == 0 {
		if frac == 0 {
			sb.WriteString("0p+0")
			return sb.String()
		}
		// Normalize: move the leading one into the implicit position.
		h := bits.Len64(frac) - 1
		shift := fracBits - h
		e = 1 - bias - shift
		frac = frac << uint(shift) & (1<<uint(fracBits) - 1)
	}
	sb.WriteString("1")
	digits := (fracBits + 3) / 4
	frac <<= uint(4*digits - fracBits)
	if frac != 0 {
		s := fmt.Sprintf("%0*x", digits, frac)
		sb.WriteString(".")
		sb.WriteString(strings.TrimRight(s, "0"))
	}
	sb.WriteString("p")
	if e >= 0 {
		sb.WriteString("+")
	}
	sb.WriteString(strconv.Itoa(e))
	return sb.String()
}

// instruction prints one instruction line.
func (ds *disasm) instruction(in *Instruction) (string, error) {
	info := opTable[in.Opcode]
	if info == nil {
		return "", fmt.Errorf("unknown opcode %d", in.Opcode)
	}
	var sb strings.Builder
	o := in.Operands
	var parts []string
	res, hasRes := resultID(info, o)
	pos := 0
	id := func() (string, error) {
		if pos >= len(o) {
			return "", fmt.Errorf("missing operand of Op%s", info.name)
		}
		pos++
		return "%" + ds.name(o[pos-1]), nil
	}
	lit := func() (uint32, error) {
		if pos >= len(o) {
			return 0, fmt.Errorf("missing operand of Op%s", info.name)
		}
		pos++
		return o[pos-1], nil
	}
	for _, op := range info.operands {
		if (op.optional || op.repeat) && pos >= len(o) {
			break
		}
		for first := true; first || (op.repeat && pos < len(o)); first = false {
			var s string
			var err error
			switch op.kind {
			case kResult:
				pos++
				continue
			case kResultType, kID:
				s, err = id()
				if err == nil && op.pair {
					var s2 string
					s2, err = id()
					s += " " + s2
				}
			case kLitInt:
				var v uint32
				v, err = lit()
				s = strconv.FormatUint(uint64(v), 10)
			case kLitString:
				if pos >= len(o) {
					return "", fmt.Errorf("missing string operand of Op%s", info.name)
				}
				var str string
				var n int
				str, n, err = decodeString(o[pos:])
				pos += n
				s = quoteString(str)
			case kTypedLit:
				var n int
				s, n, err = ds.typedLiteral(o[0], o[pos:])
				pos += n
			case kSwitchLit:
				sel := ds.typeOf[o[0]]
				var n int
				s, n, err = ds.typedLiteral(sel, o[pos:])
				pos += n
				if err == nil {
					var t string
					t, err = id()
					s += " " + t
				}
			case kExtInstNum:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = enumName(glslNames, "GLSL.std.450 instruction", v)
				}
			case kCapability, kAddressing, kMemoryModel, kExecModel, kStorageClass, kGroupOp:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = enumName(map[operandKind]map[uint32]string{
						kCapability: capabilityNames, kAddressing: addressingNames, kMemoryModel: memoryModelNames,
						kExecModel: execModelNames, kStorageClass: storageClassNames, kGroupOp: groupOpNames,
					}[op.kind], "enumerant", v)
				}
			case kDim, kImageFormat:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = enumName(map[operandKind]map[uint32]string{kDim: dimNames, kImageFormat: imageFormatNames}[op.kind], "enumerant", v)
				}
			case kImageOperands:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = maskName(imageOpBits, v)
				}
			case kFuncControl, kSelControl, kLoopControl, kMemAccess:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = maskName(map[operandKind][]string{
						kFuncControl: funcControlBits, kSelControl: selControlBits,
						kLoopControl: loopControlBits, kMemAccess: memAccessBits,
					}[op.kind], v)
				}
			case kExecMode:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = enumName(execModeNames, "execution mode", v)
					for k := 0; err == nil && k < execModeLits[v]; k++ {
						var l uint32
						l, err = lit()
						s += " " + strconv.FormatUint(uint64(l), 10)
					}
				}
			case kDecoration:
				var v uint32
				if v, err = lit(); err == nil {
					s, err = enumName(decorationNames, "decoration", v)
					if err == nil && v == DecBuiltIn {
						var b uint32
						if b, err = lit(); err == nil {
							var bn string
							bn, err = enumName(builtInNames, "built-in", b)
							s += " " + bn
						}
					}
					for k := 0; err == nil && k < decorationLits[v]; k++ {
						var l uint32
						l, err = lit()
						s += " " + strconv.FormatUint(uint64(l), 10)
					}
				}
			}
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
	}
	if pos != len(o) {
		return "", fmt.Errorf("%d unexpected trailing operand words after Op%s", len(o)-pos, info.name)
	}
	if hasRes {
		n := ds.name(res)
		if pad := standardIndent - 3 - len(n) - 1; pad > 0 {
			sb.WriteString(strings.Repeat(" ", pad))
		}
		sb.WriteString("%" + n + " = ")
	} else {
		sb.WriteString(strings.Repeat(" ", standardIndent))
	}
	sb.WriteString("Op" + info.name)
	for _, p := range parts {
		sb.WriteByte(' ')
		sb.WriteString(p)
	}
	return sb.String(), nil
}

// standardIndent is the column where opcodes start (spirv-dis --indent).
const standardIndent = 15

// quoteString quotes a literal string, escaping '"' and '\'.
func quoteString(s string) string {
	var sb strings.Builder
	sb.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if s[i] == '"' || s[i] == '\\' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	sb.WriteByte('"')
	return sb.String()
}
