package interp

import (
	"errors"
	"fmt"
	"strings"

	"passlens/compiler/ir"
)

// Policy chooses how lanes that diverged reconverge (see doc.go).
type Policy uint8

const (
	// PolicyMaximal reconverges lanes at the earliest point maximal
	// convergence allows.
	PolicyMaximal Policy = iota
	// PolicySwitchSeparate is PolicyMaximal except that lanes entering a
	// switch through different case labels stay apart until they leave the
	// switch's construct (at its merge), as SPIR-V permits for OpSwitch and
	// some drivers do: a wave op in a case reached by fallthrough then sees
	// only the lanes that entered through the same label.
	PolicySwitchSeparate
)

var policyNames = [...]string{"maximal", "switch-separate"}

func (p Policy) String() string {
	if int(p) < len(policyNames) {
		return policyNames[p]
	}
	return fmt.Sprintf("policy%d", p)
}

// ParsePolicy is the inverse of Policy.String.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if n == s {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown reconvergence policy %q (want %s)", s, strings.Join(policyNames[:], " or "))
}

// Policies lists every policy, for help texts and UI cycling.
func Policies() []Policy { return []Policy{PolicyMaximal, PolicySwitchSeparate} }

// Defaults used when Options fields are zero.
const (
	DefaultWaveSize = 32
	DefaultMaxSteps = 10_000_000
	// DefaultBufferCount is the minimum element count of a runtime-sized
	// buffer that the input does not size (the count is max(this, number of
	// invocations of the run)).
	DefaultBufferCount = 64
	// MaxDispatch bounds each dispatch size (D3D's limit per dimension).
	MaxDispatch = 65535
	MinWaveSize = 4
	MaxWaveSize = 64
	// MaxTrace bounds Result.WaveOps; later wave ops are only counted
	// (Result.WaveOpsDropped).
	MaxTrace = 100_000
)

// Options controls a run.
type Options struct {
	// Entry names the entry point; "" picks the module's only entry point.
	Entry string
	// WaveSize is the number of lanes of a wave: a power of two from 4 to
	// 64 (0 means 32).
	WaveSize int
	// Policy is the reconvergence policy.
	Policy Policy
	// MaxSteps bounds the work of the whole run: one step is one
	// instruction executed by one lane group (0 means DefaultMaxSteps).
	MaxSteps int
	// Trace records every wave operation and barrier with the lanes that
	// took part (Result.WaveOps).
	Trace bool
	// Denorm is the float32 denormal mode: DenormFTZ (the zero value,
	// D3D's fp32 rule) flushes denormal operands and results of float32
	// arithmetic to zero; DenormPreserve keeps them (IEEE).
	Denorm Denorm
}

// Denorm is a float32 denormal mode.
type Denorm uint8

const (
	DenormFTZ      Denorm = iota // flush to zero (D3D fp32; the default)
	DenormPreserve               // keep denormals (IEEE)
)

func (d Denorm) String() string {
	if d == DenormPreserve {
		return "preserve"
	}
	return "ftz"
}

// ParseDenorm is the inverse of Denorm.String.
func ParseDenorm(s string) (Denorm, error) {
	switch s {
	case "ftz":
		return DenormFTZ, nil
	case "preserve":
		return DenormPreserve, nil
	}
	return 0, fmt.Errorf("unknown denormal mode %q (want ftz or preserve)", s)
}

// Sentinel errors, matched with errors.Is on the errors Run returns.
var (
	ErrStepLimit        = errors.New("step limit exceeded")
	ErrDivergentBarrier = errors.New("barrier in divergent control flow")
	ErrUnsupported      = errors.New("unsupported")
	ErrUndefined        = errors.New("undefined behaviour")
	ErrReadOnly         = errors.New("write to read-only memory")
	ErrInput            = errors.New("bad input")
	ErrMalformed        = errors.New("malformed IR")
	ErrMemoryLimit      = errors.New("memory limit exceeded")
)

// Error is a run-time (or preparation) error located in the program.
type Error struct {
	Func  string // function name (without @)
	Block string // block name (without %)
	Instr string // the instruction as printed
	Loc   ir.Loc // source position, if known
	Group [3]int // workgroup id
	Wave  int    // wave index within the group
	Lanes uint64 // lanes of the group executing the instruction
	Msg   string // message when Err does not say it all
	Err   error  // wrapped cause (ErrStepLimit, context.Canceled, ...)
}

func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("interp: ")
	if e.Func != "" {
		sb.WriteString("@" + ir.QuoteName(e.Func))
		if e.Block != "" {
			sb.WriteString(" %" + ir.QuoteName(e.Block))
		}
		if e.Loc != (ir.Loc{}) {
			fmt.Fprintf(&sb, " (line %d:%d)", e.Loc.Line, e.Loc.Col)
		}
		if e.Instr != "" {
			sb.WriteString(": `" + e.Instr + "`")
		}
		if e.Lanes != 0 {
			fmt.Fprintf(&sb, " [group (%d,%d,%d) wave %d lanes %s]", e.Group[0], e.Group[1], e.Group[2], e.Wave, laneSet(e.Lanes))
		}
		sb.WriteString(": ")
	}
	switch {
	case e.Msg != "" && isSentinel(e.Err):
		sb.WriteString(e.Err.Error() + ": " + e.Msg)
	case e.Msg != "" && e.Err != nil:
		sb.WriteString(e.Msg + ": " + e.Err.Error())
	case e.Msg != "":
		sb.WriteString(e.Msg)
	case e.Err != nil:
		sb.WriteString(e.Err.Error())
	}
	return sb.String()
}

func (e *Error) Unwrap() error { return e.Err }

func isSentinel(err error) bool {
	switch err {
	case ErrStepLimit, ErrDivergentBarrier, ErrUnsupported, ErrUndefined, ErrReadOnly, ErrInput, ErrMalformed, ErrMemoryLimit:
		return true
	}
	return false
}

func inputErr(format string, args ...any) error {
	return &Error{Msg: fmt.Sprintf(format, args...), Err: ErrInput}
}
