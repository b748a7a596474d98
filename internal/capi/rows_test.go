package capi

import (
	"errors"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestReadRows: windows of an ENVI file are ReadFile's rows (NaN kept as
// no-data), its metadata ReadFile's; NPY, TIFF and HDF5 stream too; MAT,
// Fortran-order NPY and ENVI with reader options that read it whole give
// ErrNoStream; rows outside the image are an option error.
func TestReadRows(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(31, 7), 11, 6, 4, 0, 1)
	c.Data[(3*6+2)*4+1] = float32(math.NaN())
	c.Meta.Wavelengths = []float64{450, 550, 650, 850}
	hdr := filepath.Join(dir, "c.hdr")
	if err := formats.Write(hdr, c, hsi.WriteOptions{Interleave: hsi.BIL}); err != nil {
		t.Fatal(err)
	}
	whole, info, err := ReadFile(hdr, "")
	if err != nil {
		t.Fatal(err)
	}
	wantMeta, _ := Marshal(MetaOf(whole, info))
	for _, r := range [][2]int{{0, 11}, {2, 5}, {10, 11}, {4, 4}} {
		dst := make([]float32, (r[1]-r[0])*6*4)
		m, err := ReadRows(hdr, "", r[0], r[1], dst)
		if err != nil {
			t.Fatalf("rows %v: %v", r, err)
		}
		if got := whole.Data[r[0]*6*4 : r[1]*6*4]; !slices.EqualFunc(dst, got, func(a, b float32) bool { return a == b || a != a && b != b }) {
			t.Errorf("rows %v differ from ReadFile's", r)
		}
		if s, _ := Marshal(m); s != wantMeta {
			t.Errorf("rows %v: metadata %s, want %s", r, s, wantMeta)
		}
	}
	// NPY (C order), TIFF and HDF5 stream as ENVI does; MAT, Fortran-order
	// NPY and reader options that make ENVI read whole do not.
	for _, name := range []string{"c.npy", "c.tif"} {
		p := filepath.Join(dir, name)
		if err := formats.Write(p, c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		whole, _, err := ReadFile(p, "")
		if err != nil {
			t.Fatal(err)
		}
		dst := make([]float32, 3*6*4)
		if _, err := ReadRows(p, "", 2, 5, dst); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := whole.Data[2*6*4 : 5*6*4]; !slices.EqualFunc(dst, got, func(a, b float32) bool { return a == b || a != a && b != b }) {
			t.Errorf("%s: rows [2, 5) differ from ReadFile's", name)
		}
	}
	h5 := filepath.Join("..", "..", "hsi", "products", "testdata", "noisy_bands.h5")
	if _, err := ReadRows(h5, "", 0, 0, nil); err != nil {
		t.Errorf("HDF5: %v", err)
	}
	mat := filepath.Join(dir, "c.mat")
	if err := formats.Write(mat, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join("..", "..", "hsi", "npy", "testdata", "float32_F_le.npy"), mat} {
		if _, err := ReadRows(p, "", 0, 0, nil); !errors.Is(err, ErrNoStream) {
			t.Errorf("%s: %v, want ErrNoStream", p, err)
		}
	}
	if _, err := ReadRows(hdr, `{"refuse_nan": true}`, 0, 0, nil); err != nil {
		t.Errorf("refuse_nan: %v", err)
	}
	if _, err := ReadRows(hdr, `{"layout": "HWB"}`, 0, 0, nil); !errors.Is(err, ErrNoStream) {
		t.Errorf("reader options: %v, want ErrNoStream", err)
	}
	if _, err := ReadRows(hdr, "", 9, 12, make([]float32, 3*6*4)); StatusOf(err) != StatusOption {
		t.Errorf("rows [9, 12) of 11: %v, want an option error", err)
	}
	if _, err := ReadRows(hdr, "", 0, 2, make([]float32, 5)); StatusOf(err) != StatusOption {
		t.Errorf("short buffer: %v, want an option error", err)
	}
}
