package spirv

import (
	"fmt"
	"testing"
)

// checkSwitches parses a binary and reports an OpSwitch whose case
// construct falls through into another case with a non-empty body on the
// way: after switch-to-if no such switch may remain (lanes entering the
// second case by fallthrough need not reconverge with those entering it
// directly).
func checkSwitches(words []uint32) error {
	d, err := Decode(words)
	if err != nil {
		return err
	}
	type block struct {
		label  uint32
		succs  []uint32
		nInsts int // instructions other than label, merge and terminator
		merge  uint32
		sw     *Instruction
	}
	blocks := map[uint32]*block{}
	var cur *block
	for i := range d.Insts {
		in := &d.Insts[i]
		o := in.Operands
		switch in.Opcode {
		case OpLabel:
			cur = &block{label: o[0]}
			blocks[o[0]] = cur
		case OpSelectionMerge:
			cur.merge = o[0]
		case OpLoopMerge:
		case OpBranch:
			cur.succs = []uint32{o[0]}
		case OpBranchConditional:
			cur.succs = []uint32{o[1], o[2]}
		case OpSwitch:
			cur.sw = in
			cur.succs = append(cur.succs, o[1])
			for k := 3; k < len(o); k += 2 {
				cur.succs = append(cur.succs, o[k])
			}
		default:
			if cur != nil && in.Opcode != OpFunctionEnd {
				cur.nInsts++
			}
		}
	}
	for _, b := range blocks {
		if b.sw == nil {
			continue
		}
		targets := map[uint32]bool{}
		for _, s := range b.succs {
			if s != b.merge {
				targets[s] = true
			}
		}
		for t := range targets {
			// Walk the case construct from t; reaching another target
			// after a non-empty block is a fallthrough.
			seen := map[uint32]bool{t: true}
			type item struct {
				id       uint32
				nonEmpty bool
			}
			work := []item{{t, false}}
			for len(work) > 0 {
				it := work[len(work)-1]
				work = work[:len(work)-1]
				blk := blocks[it.id]
				if blk == nil {
					continue
				}
				ne := it.nonEmpty || blk.nInsts > 0
				for _, s := range blk.succs {
					if s == b.merge || s == b.label {
						continue
					}
					if targets[s] && s != t {
						if ne {
							return fmt.Errorf("OpSwitch in block %%%d: case %%%d falls through to case %%%d", b.label, t, s)
						}
						continue
					}
					if !seen[s] {
						seen[s] = true
						work = append(work, item{s, ne})
					}
				}
			}
		}
	}
	return nil
}

// TestCheckSwitchesCatchesFallthrough makes sure the checker is not
// vacuous: the unlowered switch42 module falls through.
func TestCheckSwitchesCatchesFallthrough(t *testing.T) {
	t.Parallel()
	m := parseFile(t, "../../interp/testdata/switch42.pir")
	words, err := Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSwitches(words); err == nil {
		t.Fatal("checkSwitches accepted a switch whose case 0 falls through into default")
	}
	if err := runSpirvPipeline(m); err != nil {
		t.Fatal(err)
	}
	words, err = Assemble(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := checkSwitches(words); err != nil {
		t.Fatalf("after switch-to-if: %v", err)
	}
}
