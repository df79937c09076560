package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"passlens/compiler/ir"
	"passlens/compiler/load"
	"passlens/internal/guard"
	"passlens/internal/termsafe"
	"passlens/samples"
	"passlens/tui/backend"
)

// moduleRef names what a session asked to open: an embedded sample or a
// path relative to the modules directory.
type moduleRef struct {
	sample string // sample name, or ""
	path   string // relative path in the modules directory
}

func (r moduleRef) String() string {
	if r.sample != "" {
		return "samples/" + r.sample
	}
	return r.path
}

// openModuleCtx loads a module for a session and returns its driver, capped
// at the server's interpreter budget. Module files come only from the
// modules directory (ResolveModule) and so do HLSL #includes; embedded
// samples never touch the file system. A panic in a frontend becomes an
// error for this session.
//
// Cancelling ctx (the session ended) stops a load in a compile worker. A
// module of heavyModuleSize or more is loaded in a child process
// (workerclient.go), never here.
func (s *Server) openModuleCtx(ctx context.Context, ref moduleRef) (drv *backend.Driver, err error) {
	defer guard.Handle("loading "+ref.String(), func(e *guard.Error) {
		s.log.Error("panic loading module", "module", ref.String(), "panic", e.Error(), "stack", e.Stack)
		drv, err = nil, e
	})
	var src *load.Source
	if ref.sample != "" {
		sm, ok := samples.Lookup(ref.sample)
		if !ok {
			return nil, fmt.Errorf("no sample named %q", ref.sample)
		}
		kind, err := kindOf(sm.File)
		if err != nil {
			return nil, err
		}
		src = &load.Source{Name: "samples/" + sm.Name, Path: "samples/" + sm.File, Kind: kind, Text: sm.Source, Input: sm.Input}
	} else {
		kind, err := kindOf(ref.path)
		if err != nil {
			return nil, err
		}
		data, err := s.readModuleFile(ref.path)
		if err != nil {
			return nil, err
		}
		// Diagnostics name the module by its path inside the modules
		// directory, never by the server's absolute path.
		src = &load.Source{Name: termsafe.Escape(ref.path), Path: termsafe.Escape(filepath.ToSlash(ref.path)), Kind: kind, Text: data}
	}
	if s.useWorker(len(src.Text)) {
		return s.openRemote(ctx, src)
	}
	release, err := s.heavySlot(ctx, len(src.Text))
	if err != nil {
		return nil, err
	}
	defer release()
	var m *ir.Module
	grown, over := s.heavyWatch(len(src.Text), nil, func() {
		m, err = load.Module(src, load.Options{ReadFile: s.readInclude})
	})
	if over {
		// The frontend cannot be stopped half-way; its module is dropped.
		return nil, s.memoryError("loading "+ref.String(), grown)
	}
	if err != nil {
		return nil, err
	}
	drv = backend.New(src, m)
	drv.MaxRunSteps = s.cfg.MaxRunSteps
	drv.NoAllocStats = true // no stop-the-world per pass (backend.Driver.NoAllocStats)
	return drv, nil
}

// readModuleFile reads rel from the modules directory, at most
// MaxModuleSize bytes.
func (s *Server) readModuleFile(rel string) ([]byte, error) {
	real, err := ResolveModule(s.cfg.ModulesDir, rel)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(real)
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the module", rel)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxModuleSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: cannot read the module", rel)
	}
	if len(data) > MaxModuleSize {
		return nil, fmt.Errorf("%s: too large (the limit is %d bytes)", rel, MaxModuleSize)
	}
	return data, nil
}

// readInclude serves HLSL #include from the modules directory only.
func (s *Server) readInclude(p string) ([]byte, error) {
	if s.cfg.ModulesDir == "" {
		return nil, errors.New("includes are not available (the server has no modules directory)")
	}
	return s.readModuleFile(filepath.ToSlash(p))
}

// kindOf maps a module file name to its frontend.
func kindOf(name string) (string, error) {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".hlsl", ".hlsli", ".fx":
		return "hlsl", nil
	case ".pir":
		return "pir", nil
	case ".ll":
		return "ll", nil
	}
	return "", fmt.Errorf("%s: unknown module kind (want .hlsl, .pir or .ll)", name)
}
