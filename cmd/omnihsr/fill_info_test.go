package main

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// info on an HDF5 or NetCDF-4 cube written in part
// (scripts/miniatures/fill_hdf5.py) counts the samples never written as
// their fill value, as reading them gives it: describe's counts (the rows
// never written counted without reading, and, with a band of one sample,
// the columns never written of chunk rows read in windows) are those of
// the whole cube formats.Read gives (hsi.StatsOf), and the netCDF fill
// equal to _FillValue is counted as no-data (44 of the 60 samples of
// nc_fillvalue.nc), not as valid samples; the noise screen, which takes a
// sample never added as 0, is given up (every fill here is not 0).
func TestInfoFillValues(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "hsi", "products", "testdata", "fill", "*.[hn][5c]"))
	if len(paths) != 7 {
		t.Fatalf("%d fill miniatures, want 7", len(paths))
	}
	for _, p := range paths {
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := hsi.StatsOf(c)
		for _, band := range []int{describeBand, 1} {
			src, err := formats.Open(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			d, err := describeIn(src, p, band)
			src.Close()
			if err != nil {
				t.Fatal(err)
			}
			if !sameStats(d.st, want) {
				t.Errorf("%s (band %d): described %+v, the cube's %+v", p, band, d.st, want)
			}
			if d.ns != nil {
				t.Errorf("%s (band %d): screened although its fill is not 0", p, band)
			}
		}
	}
	p := filepath.Join("..", "..", "hsi", "products", "testdata", "fill", "nc_fillvalue.nc")
	code, out, stderr := runCmd(t, "info", p)
	if code != 0 || !strings.Contains(out, "value range:    -8 .. 8 (left out: 44 no-data samples at -9999)\n") {
		t.Errorf("exit %d, stdout %q, stderr %q: want 44 no-data samples", code, out, stderr)
	}
}

// describer.unwritten counts a run of samples never written as add counts
// them read: a NaN or infinite fill value in NaN or Inf with the run's
// first sample as the first bad one, a fill at the data ignore value as
// no-data, another in the range, and the bands it makes valid.
func TestUnwrittenCountsAsRead(t *testing.T) {
	const W, B = 4, 3
	meta := hsi.Meta{DataIgnore: -9999, HasDataIgnore: true}
	for _, v := range []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), -9999, 5, 0} {
		fresh := func() *describer {
			return &describer{described: described{st: *hsi.NewStats(meta)}, W: W, B: B, nd: meta.NoData(), valid: make([]bool, B)}
		}
		// a written sample first, so that the run's position matters
		got, want := fresh(), fresh()
		got.add([]float32{1}, 0, 0, 1)
		want.add([]float32{1}, 0, 0, 1)
		got.unwritten(2*2*B, v, 1, 2) // rows 1-2, columns 2-3
		run := make([]float32, 2*B)
		for i := range run {
			run[i] = v
		}
		want.add(run, 1, 2, 2)
		want.add(run, 2, 2, 2)
		if !sameStats(got.st, want.st) || !slices.Equal(got.valid, want.valid) {
			t.Errorf("fill %v: counted %+v (valid %v), read %+v (%v)", v, got.st, got.valid, want.st, want.valid)
		}
	}
}
