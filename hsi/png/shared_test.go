package png

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// sharedDir returns ../shared beside the module root, or OMNIHSR_SHARED.
func sharedDir() string {
	if s := os.Getenv("OMNIHSR_SHARED"); s != "" {
		return s
	}
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// TestSharedNaturalImages reads a few PNGs of every folder of the training
// images: colour ones give 3 bands, the grey subset 1 band.
func TestSharedNaturalImages(t *testing.T) {
	root := filepath.Join(sharedDir(), "data", "rgb")
	dirs, err := os.ReadDir(root)
	if err != nil {
		t.Skipf("shared natural images not found at %s: %v", root, err)
	}
	n := 0
	for _, d := range dirs {
		files, _ := filepath.Glob(filepath.Join(root, d.Name(), "*.png"))
		for i, p := range files {
			if i >= 3 {
				break
			}
			c, info, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			want := 3
			if d.Name() == "DIV2K_gray_subset" {
				want = 1
			}
			if c.B != want || info.DataType != "uint8" {
				t.Errorf("%s: %d bands, %s; want %d bands", p, c.B, info.DataType, want)
			}
			n++
		}
	}
	if n == 0 {
		t.Skip("no PNG files under " + root)
	}
}
