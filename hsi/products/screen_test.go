package products

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/noise"
)

// TestScreenHDF5: the noisy bands ScreenHDF5 finds, streaming the datasets
// StatHDF5 streams, are those the model's screen finds on the cube
// ReadHDF5 reads (noise.Outliers of the usable bands), with the same
// figures, for every miniature; noisy_bands.h5
// (scripts/miniatures/noisy_hdf5.py, stored band first, with fill values)
// has its two garbage bands found.
func TestScreenHDF5(t *testing.T) {
	var paths []string
	for _, pat := range []string{"*.nc", "*.h5", "*.he5", "hostile/float16.h5", "hostile/nested100.h5"} {
		m, _ := filepath.Glob(filepath.Join("testdata", pat))
		paths = append(paths, m...)
	}
	found := 0
	for _, p := range paths {
		for _, opt := range []hsi.ReadOptions{{}, {Ortho: true}} {
			c, _, err := ReadHDF5(p, opt)
			if err != nil {
				continue // damaged miniatures; -ortho on what is not EMIT
			}
			got, err := ScreenHDF5(p, opt)
			if err != nil {
				t.Fatalf("%s %+v: %v", p, opt, err)
			}
			want := screenCube(t, c)
			if !slices.Equal(bandsOf(got), bandsOf(want)) {
				t.Fatalf("%s %+v: noisy bands %v, in memory %v", p, opt, bandsOf(got), bandsOf(want))
			}
			for i, o := range got {
				w := want[i]
				if math.Abs(o.Sigma-w.Sigma) > 1e-9*w.Sigma || math.Abs(o.Ref-w.Ref) > 1e-9*w.Ref || math.Abs(o.NSR-w.NSR) > 1e-9*w.NSR {
					t.Errorf("%s: band %d: %+v, in memory %+v", p, o.Band, o, w)
				}
			}
			if filepath.Base(p) == "noisy_bands.h5" {
				found++
				if !slices.Equal(bandsOf(got), []int{7, 8}) {
					t.Errorf("%s: noisy bands %v, want 7 and 8 (0-based)", p, bandsOf(got))
				}
			}
		}
	}
	if found != 1 {
		t.Fatalf("noisy_bands.h5 screened %d times, want once", found)
	}
}

// screenCube is the model's screen of a cube in memory.
func screenCube(t *testing.T, c *hsi.Cube) []noise.Outlier {
	t.Helper()
	out, err := noise.Screen(c)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func bandsOf(out []noise.Outlier) []int {
	var b []int
	for _, o := range out {
		b = append(b, o.Band)
	}
	return b
}
