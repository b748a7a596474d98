package matfile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// FuzzRead feeds arbitrary bytes to the MAT reader (v5 and v7.3), seeded
// with the goldens: it must return an error or a valid cube, never panic or
// allocate without bound.
func FuzzRead(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.mat.golden"))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err == nil && len(b) < 64<<10 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := openReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		tryRead := func(opt hsi.ReadOptions) {
			c, _, err := s.read(opt)
			if err != nil {
				return
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("invalid cube: %v", err)
			}
		}
		tryRead(hsi.ReadOptions{})
		for i, v := range s.vars {
			if i >= 8 {
				break
			}
			tryRead(hsi.ReadOptions{Var: v.Name})
			tryRead(hsi.ReadOptions{Var: v.Name, Layout: LayoutBHW})
		}
	})
}
