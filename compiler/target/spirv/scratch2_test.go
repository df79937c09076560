package spirv

import (
	"fmt"
	"strings"
	"testing"

	"passlens/compiler/ir"
)

func TestScratchRandom(t *testing.T) {
	errs := map[string]int{}
	ok, bad := 0, 0
	for seed := int64(0); seed < 60; seed++ {
		m := ir.RandomModule(seed, ir.RandomOptions{PlainNames: true})
		if err := runSpirvPipeline(m); err != nil {
			errs["pipeline"]++
			continue
		}
		for _, ep := range m.EntryPoints() {
			w, err := Assemble(m, Options{Entry: ep.Name()})
			if err != nil {
				msg := err.Error()
				if i := strings.Index(msg, "`: "); i >= 0 {
					msg = msg[i+3:]
				}
				if len(msg) > 90 { msg = msg[:90] }
				errs[msg]++
				continue
			}
			if v := spirvVal(t, w, "vulkan1.1"); v != "" {
				bad++
				if bad < 6 {
					fmt.Printf("seed %d %s: %s\n", seed, ep.Name(), v)
				}
			} else {
				ok++
			}
		}
	}
	fmt.Println("ok", ok, "bad", bad)
	for k, v := range errs {
		fmt.Println(v, k)
	}
}
