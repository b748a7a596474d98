package resample

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Rendering in strips of any height gives exactly Upsample's output, for
// integer and fractional factors, one-band and many-band cubes, and axes
// that keep their size.
func TestUpsamplerRowsEqualUpsample(t *testing.T) {
	for _, tc := range []struct{ h, w, b, oh, ow int }{
		{10, 12, 1, 160, 192},
		{7, 9, 5, 25, 31},
		{6, 8, 3, 6, 21},  // rows kept
		{6, 8, 3, 19, 8},  // columns kept
		{5, 5, 20, 9, 11}, // many bands (the SIMD path)
		{1, 3, 2, 4, 9},
	} {
		c := testrand.Cube(testrand.New(7, 1), tc.h, tc.w, tc.b)
		want, err := Upsample(c, tc.oh, tc.ow)
		if err != nil {
			t.Fatal(err)
		}
		u, err := NewUpsampler(c, tc.oh, tc.ow)
		if err != nil {
			t.Fatal(err)
		}
		row := tc.ow * tc.b
		for _, strip := range []int{1, 2, 3, 7, tc.oh} {
			got := make([]float32, tc.oh*row)
			for u0 := 0; u0 < tc.oh; u0 += strip {
				u1 := min(tc.oh, u0+strip)
				if err := u.RenderRows(u0, u1, got[u0*row:u1*row]); err != nil {
					t.Fatal(err)
				}
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want.Data[i]) {
					t.Fatalf("%+v strips of %d: value %d = %v, want %v", tc, strip, i, got[i], want.Data[i])
				}
			}
		}
	}
}

// An output far larger than memory is accepted: only its rows are made.
func TestUpsamplerHugeOutput(t *testing.T) {
	c := testrand.Cube(testrand.New(3, 1), 10, 12, 1)
	u, err := NewUpsampler(c, 1<<20, 1<<20) // 4 TiB as a cube
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float32, 2<<20)
	if err := u.RenderRows(500000, 500002, dst); err != nil {
		t.Fatal(err)
	}
	c.Data[5] = float32(math.NaN())
	if _, err := NewUpsampler(c, 20, 24); err == nil {
		t.Fatal("NaN input accepted")
	}
}
