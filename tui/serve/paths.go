package serve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"passlens/internal/limits"
	"path/filepath"
	"sort"
	"strings"
)

// MaxModuleSize bounds the size of a module file a session may load, so a
// large file in the modules directory cannot exhaust the server's memory.
const MaxModuleSize = limits.MaxModuleSize

// maxListed bounds how many files of the modules directory the picker lists.
const maxListed = 500

// ResolveModule maps rel, a module path typed by (or listed to) an SSH
// user, to a file inside dir. It refuses empty and absolute paths, any `..`
// component, and paths whose symlinks resolve outside dir, so a session can
// only ever read the modules the operator put in dir. The result is the
// symlink-free absolute path of a regular file.
func ResolveModule(dir, rel string) (string, error) {
	if dir == "" {
		return "", errors.New("no modules directory is configured (start the server with --modules DIR)")
	}
	if strings.TrimSpace(rel) == "" {
		return "", errors.New("empty module path")
	}
	if strings.ContainsRune(rel, 0) {
		return "", fmt.Errorf("%q: invalid module path", rel)
	}
	if filepath.IsAbs(rel) || strings.HasPrefix(rel, "/") || strings.HasPrefix(rel, `\`) || filepath.VolumeName(rel) != "" {
		return "", fmt.Errorf("%s: absolute paths are not allowed; give a path inside the modules directory", rel)
	}
	for _, part := range strings.FieldsFunc(rel, func(r rune) bool { return r == '/' || r == '\\' }) {
		if part == ".." {
			return "", fmt.Errorf("%s: '..' is not allowed in module paths", rel)
		}
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("modules directory: %v", err)
	}
	root, err = filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("modules directory: %v", err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("%s: no such module in the modules directory", rel)
		}
		return "", fmt.Errorf("%s: cannot resolve the module path", rel)
	}
	if !within(root, real) {
		return "", fmt.Errorf("%s: resolves outside the modules directory (symlink)", rel)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("%s: cannot read the module", rel)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file", rel)
	}
	if fi.Size() > MaxModuleSize {
		return "", fmt.Errorf("%s: too large (%d bytes; the limit is %d)", rel, fi.Size(), MaxModuleSize)
	}
	return real, nil
}

// within reports whether path is root or below it; both must be clean and
// absolute.
func within(root, path string) bool {
	r, err := filepath.Rel(root, path)
	if err != nil || filepath.IsAbs(r) {
		return false
	}
	return r == "." || (r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)))
}

// listModules returns the module files (.hlsl, .pir, .ll) below dir as
// slash-separated relative paths, sorted. Symlinked directories are not
// followed; at most maxListed files are returned.
func listModules(dir string) []string {
	if dir == "" {
		return nil
	}
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if len(out) >= maxListed {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".hlsl", ".pir", ".ll":
		default:
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}
