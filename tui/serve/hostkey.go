package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// DefaultHostKeyPath is where the server keeps its host key when
// --host-key is not given: $XDG_DATA_HOME/passlens/host_ed25519, or
// ~/.local/share/passlens/host_ed25519 (never the working directory).
func DefaultHostKeyPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "passlens", "host_ed25519"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find the host key directory (set XDG_DATA_HOME or use --host-key): %v", err)
	}
	return filepath.Join(home, ".local", "share", "passlens", "host_ed25519"), nil
}

// DefaultAuthorizedKeysPath is ~/.ssh/authorized_keys.
func DefaultAuthorizedKeysPath() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find ~/.ssh/authorized_keys (use --authorized-keys): %v", err)
	}
	return filepath.Join(home, ".ssh", "authorized_keys"), nil
}

// LoadOrCreateHostKey reads the ed25519 host key at path, creating it on
// first start: the file with mode 0600 and a missing directory with 0700.
// created reports whether a new key was written.
func LoadOrCreateHostKey(path string) (signer gossh.Signer, created bool, err error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if data, err = createHostKey(path); err != nil {
			return nil, false, err
		}
		created = true
	} else if err != nil {
		return nil, false, fmt.Errorf("host key: %v", err)
	}
	signer, err = gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, false, fmt.Errorf("host key %s: %v", path, err)
	}
	return signer, created, nil
}

func createHostKey(path string) ([]byte, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("host key directory: %v", err)
	}
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate host key: %v", err)
	}
	block, err := gossh.MarshalPrivateKey(priv, "passlens host key")
	if err != nil {
		return nil, fmt.Errorf("encode host key: %v", err)
	}
	data := pem.EncodeToMemory(block)
	// O_EXCL: never overwrite a key another process wrote meanwhile.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create host key: %v", err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("write host key: %v", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("write host key: %v", err)
	}
	return data, nil
}
