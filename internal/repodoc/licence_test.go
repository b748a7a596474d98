package repodoc

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// apacheSHA256 is the SHA-256 of the Apache License 2.0 as the Apache
// Software Foundation publishes it (https://www.apache.org/licenses/LICENSE-2.0.txt,
// and Debian's /usr/share/common-licenses/Apache-2.0, byte for byte).
const apacheSHA256 = "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30"

// TestLicence checks that LICENSE is the unchanged Apache-2.0 text and that
// every place that must name the licence does: the README, the module's
// package docs, the Python package's metadata and the QGIS plugin's
// metadata.txt (the release archives, the wheels and the QGIS zip copy
// LICENSE itself; scripts/release, python/build.sh and qgis/build.sh
// check that they did).
func TestLicence(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(root, "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != apacheSHA256 {
		t.Errorf("LICENSE: SHA-256 %s, want %s (the Apache License 2.0 text, unchanged)", got, apacheSHA256)
	}
	for _, c := range []struct{ path, want string }{
		{"README.md", "[Apache License 2.0](LICENSE)"},
		{"doc.go", "Apache License, Version 2.0"},
		{"python/pyproject.toml", `license = {text = "Apache-2.0"}`},
		{"qgis/omnihsr/metadata.txt", "\nlicense=Apache-2.0\n"},
		{"sample/README.md", "Apache License,"},
	} {
		b, err := os.ReadFile(filepath.Join(root, c.path))
		if err != nil {
			t.Error(err)
			continue
		}
		if !strings.Contains(string(b), c.want) {
			t.Errorf("%s does not name the licence (%q)", c.path, c.want)
		}
	}
}
