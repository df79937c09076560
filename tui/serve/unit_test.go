package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	gossh "golang.org/x/crypto/ssh"
)

func TestResolveModule(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "mods")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "a.pir"), []byte("x"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "sub", "b.ll"), []byte("x"), 0o644))
	must(os.WriteFile(filepath.Join(root, "secret.pir"), []byte("x"), 0o644))
	must(os.Symlink(filepath.Join(root, "secret.pir"), filepath.Join(dir, "out.pir")))
	must(os.Symlink(filepath.Join(dir, "a.pir"), filepath.Join(dir, "in.pir")))
	must(os.Symlink(root, filepath.Join(dir, "up")))
	must(os.Symlink("/dev/zero", filepath.Join(dir, "zero.pir")))
	big := make([]byte, MaxModuleSize+1)
	must(os.WriteFile(filepath.Join(dir, "big.pir"), big, 0o644))

	ok := map[string]string{
		"a.pir":      "a.pir",
		"./a.pir":    "a.pir",
		"sub/b.ll":   "sub/b.ll",
		"sub//b.ll":  "sub/b.ll",
		"in.pir":     "a.pir", // symlink inside the directory
		"sub/./b.ll": "sub/b.ll",
	}
	realDir, _ := filepath.EvalSymlinks(dir)
	for in, want := range ok {
		got, err := ResolveModule(dir, in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if got != filepath.Join(realDir, want) {
			t.Errorf("%s: got %s, want %s", in, got, filepath.Join(realDir, want))
		}
	}
	bad := map[string]string{
		"":                       "empty",
		"..":                     "'..' is not allowed",
		"../secret.pir":          "'..' is not allowed",
		"sub/../a.pir":           "'..' is not allowed",
		"sub/../../secret.pir":   "'..' is not allowed",
		`sub\..\..\secret.pir`:   "'..' is not allowed",
		"/etc/passwd":            "absolute paths are not allowed",
		filepath.Join(root, "x"): "absolute paths are not allowed",
		"out.pir":                "resolves outside the modules directory",
		"up/secret.pir":          "resolves outside the modules directory",
		"zero.pir":               "resolves outside the modules directory",
		"missing.pir":            "no such module",
		"sub":                    "not a regular file",
		"big.pir":                "too large",
		"a.pir\x00":              "invalid",
	}
	for in, want := range bad {
		got, err := ResolveModule(dir, in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %q, %v; want an error containing %q", in, got, err, want)
		}
	}
	if _, err := ResolveModule("", "a.pir"); err == nil {
		t.Error("no modules directory: accepted")
	}
	// A modules directory reached through a symlink still works.
	must(os.Symlink(dir, filepath.Join(root, "alias")))
	if _, err := ResolveModule(filepath.Join(root, "alias"), "a.pir"); err != nil {
		t.Errorf("through a symlinked directory: %v", err)
	}
}

func TestListModules(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.pir", "b.ll", "c.hlsl", "notes.txt", "sub/d.pir", ".git/e.pir"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got := strings.Join(listModules(dir), ",")
	if got != "a.pir,b.ll,c.hlsl,sub/d.pir" {
		t.Fatalf("listModules = %s", got)
	}
}

func TestHostKeyCreatedPrivately(t *testing.T) {
	data := t.TempDir()
	t.Setenv("XDG_DATA_HOME", data)
	p, err := DefaultHostKeyPath()
	if err != nil {
		t.Fatal(err)
	}
	if p != filepath.Join(data, "passlens", "host_ed25519") {
		t.Fatalf("DefaultHostKeyPath = %s", p)
	}
	s1, created, err := LoadOrCreateHostKey(p)
	if err != nil || !created {
		t.Fatalf("create: %v %v", created, err)
	}
	if s1.PublicKey().Type() != gossh.KeyAlgoED25519 {
		t.Fatalf("host key type %s", s1.PublicKey().Type())
	}
	fi, _ := os.Stat(p)
	di, _ := os.Stat(filepath.Dir(p))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Fatalf("modes: key %v, dir %v", fi.Mode().Perm(), di.Mode().Perm())
	}
	s2, created, err := LoadOrCreateHostKey(p)
	if err != nil || created || string(s2.PublicKey().Marshal()) != string(s1.PublicKey().Marshal()) {
		t.Fatalf("reload: created=%v err=%v, same key=%v", created, err, string(s2.PublicKey().Marshal()) == string(s1.PublicKey().Marshal()))
	}
	// A relative XDG_DATA_HOME is ignored (XDG spec), never the working directory.
	t.Setenv("XDG_DATA_HOME", "rel")
	t.Setenv("HOME", data)
	if p, _ := DefaultHostKeyPath(); p != filepath.Join(data, ".local", "share", "passlens", "host_ed25519") {
		t.Fatalf("fallback path %s", p)
	}
}

func TestNewRefusesWithoutAuthorizedKeys(t *testing.T) {
	tmp := t.TempDir()
	_, err := New(Config{AuthorizedKeysPath: filepath.Join(tmp, "nope"), HostKeyPath: filepath.Join(tmp, "hk")})
	if err == nil || !strings.Contains(err.Error(), "no authorized keys file") {
		t.Fatalf("missing file: %v", err)
	}
	empty := filepath.Join(tmp, "empty")
	os.WriteFile(empty, []byte("# nothing\nnot a key\n"), 0o600)
	_, err = New(Config{AuthorizedKeysPath: empty, HostKeyPath: filepath.Join(tmp, "hk"), Log: &syncBuffer{}})
	if err == nil || !strings.Contains(err.Error(), "no usable public keys") {
		t.Fatalf("empty file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tmp, "hk")); err == nil {
		t.Fatal("host key created although the server refused to start")
	}
}

func TestAuthorizedKeysOptionsNotHonoured(t *testing.T) {
	s := newSigner(t)
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
	p := filepath.Join(t.TempDir(), "ak")
	os.WriteFile(p, []byte(`from="10.0.0.1" `+line+"\n"), 0o600)
	keys, bad, err := readAuthorizedKeys(p)
	if err != nil || len(keys) != 0 || len(bad) != 1 || bad[0] != 1 {
		t.Fatalf("keys=%d bad=%v err=%v", len(keys), bad, err)
	}
}

func TestSessionProfile(t *testing.T) {
	cases := []struct {
		env  []string
		want colorprofile.Profile
	}{
		{[]string{"TERM=xterm-256color"}, colorprofile.ANSI256},
		{[]string{"TERM=xterm"}, colorprofile.ANSI256},
		{[]string{"TERM=xterm-256color", "COLORTERM=truecolor"}, colorprofile.TrueColor},
		{[]string{"TERM=xterm-direct"}, colorprofile.TrueColor},
		{[]string{"TERM=xterm-256color", "NO_COLOR=1"}, colorprofile.ASCII},
		{[]string{"TERM=dumb"}, colorprofile.ASCII},
	}
	for _, c := range cases {
		if got := sessionProfile(c.env); got != c.want {
			t.Errorf("%v: %v, want %v", c.env, got, c.want)
		}
	}
	if th := themeFor([]string{"NO_COLOR=1"}); !th.NoColor {
		t.Errorf("NO_COLOR: theme %s", th.Name)
	}
	if th := themeFor([]string{"PASSLENS_THEME=light"}); th.Name != "light" {
		t.Errorf("PASSLENS_THEME=light: theme %s", th.Name)
	}
}
