package products

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestStatHDF5: the statistics StatHDF5 streams equal those of the cube
// ReadHDF5 reads, with the same size, metadata and description, for every
// miniature (dense and sparse unlimited datasets, EMIT with and without
// -ortho, PRISMA, packed CF values with a fill value).
func TestStatHDF5(t *testing.T) {
	var paths []string
	for _, pat := range []string{"*.nc", "*.h5", "*.he5", "hostile/float16.h5", "hostile/nested100.h5"} {
		m, _ := filepath.Glob(filepath.Join("testdata", pat))
		paths = append(paths, m...)
	}
	streamed := 0
	for _, p := range paths {
		for _, opt := range []hsi.ReadOptions{{}, {Ortho: true}} {
			c, info, err := ReadHDF5(p, opt)
			if err != nil {
				continue // damaged miniatures; -ortho on what is not EMIT
			}
			sc, sinfo, st, err := StatHDF5(p, opt)
			if err != nil {
				t.Fatalf("%s %+v: %v", p, opt, err)
			}
			if st == nil {
				if sc.Data == nil {
					t.Errorf("%s %+v: no statistics and no cube", p, opt)
				}
				continue
			}
			streamed++
			if sc.Data != nil || sc.H != c.H || sc.W != c.W || sc.B != c.B || !reflect.DeepEqual(sc.Meta, c.Meta) || sinfo != info {
				t.Errorf("%s %+v: %dx%dx%d %+v, want %dx%dx%d %+v", p, opt, sc.H, sc.W, sc.B, sinfo, c.H, c.W, c.B, info)
			}
			if want := hsi.StatsOf(c); *st != want {
				t.Errorf("%s %+v: stats %+v, want %+v", p, opt, *st, want)
			}
		}
	}
	if streamed < 8 {
		t.Errorf("%d files streamed", streamed)
	}
}
