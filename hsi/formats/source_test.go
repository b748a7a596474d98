package formats

import (
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testfiles"
)

// same reports whether a and b hold the same samples, NaN equal to NaN.
func same(a, b []float32) bool {
	return slices.EqualFunc(a, b, func(x, y float32) bool { return x == y || math.IsNaN(float64(x)) && math.IsNaN(float64(y)) })
}

// Open gives Read's header and samples for every committed file of every
// format (streamed or served from memory), in one range of rows and in
// ranges of one row; rows holding an infinite sample are the error Read
// gives, located in the rows read.
func TestOpenMatchesRead(t *testing.T) {
	paths := testfiles.Committed(filepath.Join("..", ".."))
	opened := 0
	for _, p := range paths {
		want, info, rerr := Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if rerr != nil && !errors.As(rerr, &nf) {
			continue // a file Read refuses (the hostile miniatures)
		}
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Errorf("%s: Read reads it, Open: %v", p, err)
			continue
		}
		opened++
		hd := src.Header()
		if hd.H != want.H || hd.W != want.W || hd.B != want.B || !reflect.DeepEqual(hd.Meta, want.Meta) || hd.Info != info {
			t.Errorf("%s: header %dx%dx%d %+v, Read %dx%dx%d %+v", p, hd.H, hd.W, hd.B, hd.Info, want.H, want.W, want.B, info)
		}
		got := make([]float32, len(want.Data))
		err = src.ReadRows(0, hd.H, got)
		if nf != nil {
			var g *hsi.NonFiniteError
			if !errors.As(err, &g) || *g != *nf {
				t.Errorf("%s: ReadRows error %v, Read's %v", p, err, nf)
			}
		} else if err != nil {
			t.Errorf("%s: %v", p, err)
		}
		if !same(got, want.Data) {
			t.Errorf("%s: rows differ from Read's", p)
		}
		row := hd.W * hd.B
		for y := hd.H - 1; y >= 0; y -= max(1, hd.H/5) {
			if err := src.ReadRows(y, y+1, got[:row]); err != nil && nf == nil {
				t.Errorf("%s: row %d: %v", p, y, err)
			}
			if !same(got[:row], want.Data[y*row:(y+1)*row]) {
				t.Errorf("%s: row %d differs from Read's", p, y)
			}
		}
		if err := src.Close(); err != nil {
			t.Error(err)
		}
	}
	if opened < 100 {
		t.Fatalf("opened %d files", opened)
	}
	t.Logf("%d files", opened)
}
