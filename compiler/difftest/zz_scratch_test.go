package difftest

import (
	"context"
	"os"
	"strings"
	"testing"

	"passlens/compiler/load"
	"passlens/compiler/passes"
	"passlens/compiler/pipeline"
)

func TestZZScratch(t *testing.T) {
	name := os.Getenv("ZZPROG")
	if name == "" {
		t.Skip()
	}
	progs := programs(t, 300)
	p := progs[name]
	want, err := runAll(p.make(), p.in)
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := pipeline.Parse(strings.Join(passes.DefaultPipelines["sm3"], ","))
	res := pipeline.Run(context.Background(), p.make(), spec, pipeline.Options{Target: "sm3", VerifyEach: true})
	for i, snap := range res.Snapshots {
		os.WriteFile("/tmp/scr/"+strings.ReplaceAll(name, "/", "_")+"."+string(rune('a'+i))+"."+snap.Pass+".pir", []byte(snap.Text()), 0o644)
		if snap.Err != nil {
			t.Logf("%s: %v", snap.Pass, snap.Err.Msg)
			break
		}
		m, _ := snap.FreshModule()
		got, err := runAll(m, p.in)
		if err != nil {
			t.Logf("%s: run %v", snap.Pass, err)
			continue
		}
		_, diff := want[0].Equal(got[0])
		t.Logf("%s: %s", snap.Pass, diff)
	}
}

func TestZZFile(t *testing.T) {
	name := os.Getenv("ZZFILE")
	if name == "" {
		t.Skip()
	}
	m, _, err := load.File(name, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	spec, _ := pipeline.Parse(strings.Join(passes.DefaultPipelines["sm3"], ","))
	res := pipeline.Run(context.Background(), m, spec, pipeline.Options{Target: "sm3", VerifyEach: true})
	base := "/tmp/scr/" + strings.ReplaceAll(name, "/", "_")
	for i, snap := range res.Snapshots {
		os.WriteFile(base+"."+string(rune('a'+i))+"."+snap.Pass+".pir", []byte(snap.Text()), 0o644)
		if snap.Err != nil {
			t.Logf("%s: %v", snap.Pass, snap.Err.Err)
			break
		}
	}
}
