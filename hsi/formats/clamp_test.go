package formats

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Clamping follows gdal_translate -ot: values whose rounding leaves the
// type's range take the nearest end, NaN becomes 0, values inside are
// kept for the writer to round; no-data samples become the clamped
// no-data value and are not counted.
func TestClamp(t *testing.T) {
	nan := float32(math.NaN())
	for _, tc := range []struct {
		typ      sample.Type
		nd       float64
		hasND    bool
		in, want []float32
		n        int64
		ndOut    float64
		changed  bool
	}{
		{sample.Uint16, 0, false, []float32{-0.939, -0.4, 0, 65535.4, 65535.5, 70000, nan}, []float32{0, -0.4, 0, 65535.4, 65535, 65535, 0}, 4, 0, false},
		{sample.Int16, -9999, true, []float32{-9999, -40000, 40000, 12.5}, []float32{-9999, -32768, 32767, 12.5}, 2, -9999, false},
		{sample.Uint16, -9999, true, []float32{-9999, -1, 3}, []float32{0, 0, 3}, 1, 0, true},
		{sample.Uint8, math.NaN(), true, []float32{nan, 256, -3, 7}, []float32{0, 255, 0, 7}, 2, 0, true},
		{sample.Int32, 0, false, []float32{3e9, -3e9}, []float32{2147483520, -2147483648}, 2, 0, false},
		{sample.Uint32, 0, false, []float32{5e9}, []float32{4294967040}, 1, 0, false},
	} {
		c, err := NewClamp(tc.typ, tc.nd, tc.hasND)
		if err != nil {
			t.Fatal(err)
		}
		got := slices.Clone(tc.in)
		if n := c.Apply(got); n != tc.n || c.Clamped() != tc.n {
			t.Errorf("%s %v: %d clamped (total %d), want %d", tc.typ, tc.in, n, c.Clamped(), tc.n)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %v: clamped to %v, want %v", tc.typ, tc.in, got, tc.want)
		}
		if v, ch := c.NoData(); tc.hasND && (v != tc.ndOut || ch != tc.changed) {
			t.Errorf("%s: no-data %v written as %v (changed %v), want %v (%v)", tc.typ, tc.nd, v, ch, tc.ndOut, tc.changed)
		}
	}
	for _, typ := range []sample.Type{sample.Invalid, sample.Float32, sample.Float64} {
		if c, err := NewClamp(typ, 0, false); c != nil || err != nil {
			t.Errorf("%q: clamp %v, err %v; float types need none", typ, c, err)
		}
	}
	if _, err := NewClamp(sample.Type(99), 0, false); err == nil {
		t.Error("unknown type accepted")
	}
}

// Every clamped value is written by every integer writer: the ends of the
// 32-bit ranges are inside the range once in float32.
func TestClampWriteEveryFormat(t *testing.T) {
	for _, typ := range []sample.Type{sample.Uint8, sample.Int16, sample.Uint16, sample.Int32, sample.Uint32} {
		c := hsi.MustNew(2, 3, 2)
		copy(c.Data, []float32{-1e10, 1e10, -0.6, 0.4, float32(math.NaN()), 1e5, 1e9, -1e9, 5e9, -5e9, 3, 4})
		cl, err := NewClamp(typ, 0, false)
		if err != nil {
			t.Fatal(err)
		}
		cl.Apply(c.Data)
		for _, name := range []string{"c.hdr", "c.npy", "c.tif", "c.mat"} {
			p := filepath.Join(t.TempDir(), name)
			if err := Write(p, c, hsi.WriteOptions{DataType: typ}); err != nil {
				t.Errorf("%s %s: %v", typ, name, err)
			}
		}
	}
}
