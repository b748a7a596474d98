package resample

import (
	"errors"
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
		row := tc.ow * tc.b
		in := tc.w * tc.b
		for _, strip := range []int{1, 2, 3, 7, tc.oh} {
			// From the cube, and from a row source that reads the cube's
			// rows (and checks it is asked for rows in range).
			u, err := NewUpsampler(c, tc.oh, tc.ow)
			if err != nil {
				t.Fatal(err)
			}
			read := 0
			ur, err := NewRowUpsampler(tc.h, tc.w, tc.b, tc.oh, tc.ow, func(y0, y1 int, dst []float32) error {
				if y0 < 0 || y1 > tc.h || y0 >= y1 || len(dst) != (y1-y0)*in {
					t.Fatalf("%+v: read rows [%d, %d) into %d values", tc, y0, y1, len(dst))
				}
				read += y1 - y0
				copy(dst, c.Data[y0*in:y1*in])
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			gotRows := make([]float32, tc.oh*row)
			for u0 := 0; u0 < tc.oh; u0 += strip {
				u1 := min(tc.oh, u0+strip)
				if err := ur.RenderRows(u0, u1, gotRows[u0*row:u1*row]); err != nil {
					t.Fatal(err)
				}
			}
			// Consecutive strips share input rows: each is read once.
			if read > tc.h {
				t.Errorf("%+v strips of %d: %d input rows read for %d", tc, strip, read, tc.h)
			}
			for i := range gotRows {
				if math.Float32bits(gotRows[i]) != math.Float32bits(want.Data[i]) {
					t.Fatalf("%+v strips of %d from rows: value %d = %v, want %v", tc, strip, i, gotRows[i], want.Data[i])
				}
			}
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

// An error of the row source comes back from RenderRows, and nothing else
// is made of the rows it failed to read.
func TestRowUpsamplerReadError(t *testing.T) {
	bad := errors.New("bad row")
	u, err := NewRowUpsampler(8, 4, 2, 16, 8, func(y0, y1 int, dst []float32) error {
		if y1 > 5 {
			return bad
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float32, 2*8*2)
	if err := u.RenderRows(0, 2, dst); err != nil {
		t.Fatalf("rows before the bad one: %v", err)
	}
	if err := u.RenderRows(10, 12, dst); !errors.Is(err, bad) {
		t.Fatalf("rows that need the bad row: %v, want the source's error", err)
	}
	if _, err := NewRowUpsampler(0, 4, 2, 16, 8, nil); err == nil {
		t.Fatal("an empty input accepted")
	}
}

// A window rendered alone equals the same window of Upsample's output bit
// for bit, for integer and fractional factors, axes that keep their size,
// windows at the borders and one-pixel windows.
func TestUpsamplerWindowEqualsUpsample(t *testing.T) {
	for _, tc := range []struct{ h, w, b, oh, ow int }{
		{10, 12, 1, 160, 192},
		{7, 9, 5, 25, 31},
		{6, 8, 3, 6, 21},    // rows kept
		{6, 8, 3, 19, 8},    // columns kept
		{6, 8, 3, 6, 8},     // both kept
		{5, 5, 20, 9, 11},   // many bands (the SIMD path)
		{9, 7, 285, 36, 28}, // EMIT's band count
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
		for _, win := range [][4]int{
			{0, tc.oh, 0, tc.ow},
			{0, 1, 0, 1},
			{tc.oh - 1, tc.oh, tc.ow - 1, tc.ow},
			{tc.oh / 3, tc.oh/3 + (tc.oh+1)/2, tc.ow / 4, tc.ow/4 + (tc.ow+1)/2},
			{1, tc.oh, tc.ow / 2, tc.ow/2 + 1},
		} {
			u0, u1, v0, v1 := win[0], win[1], win[2], win[3]
			w := v1 - v0
			got := make([]float32, (u1-u0)*w*tc.b)
			if err := u.RenderWindow(u0, u1, v0, v1, got); err != nil {
				t.Fatal(err)
			}
			for y := u0; y < u1; y++ {
				for x := v0; x < v1; x++ {
					for k := 0; k < tc.b; k++ {
						g := got[((y-u0)*w+x-v0)*tc.b+k]
						if wv := want.At(y, x, k); math.Float32bits(g) != math.Float32bits(wv) {
							t.Fatalf("%+v window %v: (%d, %d) band %d = %v, want %v", tc, win, y, x, k, g, wv)
						}
					}
				}
			}
		}
	}
	// Resized gives the upsampler NewUpsampler gives.
	c := testrand.Cube(testrand.New(3, 1), 4, 4, 2)
	u, err := NewUpsampler(c, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if u, err = u.Resized(8, 8); err != nil {
		t.Fatal(err)
	}
	want, err := Upsample(c, 8, 8)
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, 8*8*2)
	if err := u.RenderWindow(0, 8, 0, 8, got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if math.Float32bits(got[i]) != math.Float32bits(want.Data[i]) {
			t.Fatalf("resized: value %d = %v, want %v", i, got[i], want.Data[i])
		}
	}
	if _, err := u.Resized(0, 8); err == nil {
		t.Error("Resized to 0x8 accepted")
	}
	for _, win := range [][4]int{{0, 9, 0, 1}, {0, 1, 3, 3}, {-1, 1, 0, 1}, {0, 1, 7, 9}} {
		if err := u.RenderWindow(win[0], win[1], win[2], win[3], make([]float32, 16)); err == nil {
			t.Errorf("window %v of an 8x8 output accepted", win)
		}
	}
	rs, err := NewRowUpsampler(4, 4, 2, 8, 8, func(y0, y1 int, dst []float32) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.RenderWindow(0, 2, 0, 2, make([]float32, 8)); err == nil {
		t.Error("a window of a row source: no error")
	}
	if err := u.RenderWindow(0, 2, 0, 2, make([]float32, 7)); err == nil {
		t.Error("short destination accepted")
	}
}
