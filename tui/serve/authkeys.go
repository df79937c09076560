package serve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"

	gossh "golang.org/x/crypto/ssh"
)

// readAuthorizedKeys parses an OpenSSH authorized_keys file. Lines that do
// not parse are reported in bad (by line number) and skipped; options such
// as from="..." are not honoured, so keys restricted that way are refused
// rather than granted more than the file allows.
func readAuthorizedKeys(path string) (keys []gossh.PublicKey, bad []int, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("no authorized keys file at %s: passlens serve only accepts public-key logins; create it or pass --authorized-keys PATH", path)
		}
		return nil, nil, fmt.Errorf("authorized keys: %v", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		k, _, opts, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil || len(opts) > 0 {
			bad = append(bad, n)
			continue
		}
		keys = append(keys, k)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("authorized keys %s: %v", path, err)
	}
	return keys, bad, nil
}

// authorized reports whether key is one of keys.
func authorized(keys []gossh.PublicKey, key gossh.PublicKey) bool {
	if key == nil {
		return false
	}
	m := key.Marshal()
	for _, k := range keys {
		if bytes.Equal(k.Marshal(), m) {
			return true
		}
	}
	return false
}
