package matfile

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/fillgolden"
)

// An HDF5 (MAT v7.3-like) dataset written in part reads, in its chunks
// never written, as its fill value, as h5py reads it
// (scripts/miniatures/fill_hdf5.py: fill -9999 and int16 fill 7): the
// cube's samples are h5py's values (compared as sorted lists, MATLAB's
// column-major axes aside).
func TestV73FillValue(t *testing.T) {
	dir := filepath.Join("..", "products", "testdata", "fill")
	goldens := fillgolden.Load(t, dir)
	n := 0
	for _, g := range goldens {
		if g.File != "explicit_fill.h5" && g.File != "int16_fill7.h5" {
			continue
		}
		n++
		c, _, err := Read(filepath.Join(dir, g.File), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float32, len(g.Values))
		for i, v := range g.Values {
			want[i] = float32(v)
		}
		got := slices.Clone(c.Data)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: samples %v, h5py reads %v", g.File, got, want)
		}
	}
	if n != 2 {
		t.Fatalf("%d files tested, want 2", n)
	}
}
