package tiff

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// FuzzRead feeds arbitrary bytes to the TIFF reader, seeded with the
// goldens: it must return an error or a valid cube, never panic or allocate
// without bound.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.tif"))
	for _, p := range seeds {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c, _, err := Decode(bytes.NewReader(data), int64(len(data)), hsi.ReadOptions{})
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("invalid cube: %v", err)
		}
	})
}
