package model

import (
	"errors"
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// The no-data value never reaches the model: output pixels over no-data
// input pixels are the no-data value in every band, every other output
// value stays within +-10 of the valid data in [0, 1) (a -9999 leaking
// through bicubic or an operator would be far outside), and the output keeps
// the no-data value in its metadata. The same holds for the
// self-ensemble and back-projection, and for NaN as the no-data value.
func TestUpscaleNoData(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		v    float32
		ens  int
		bp   bool
	}{{"-9999", -9999, 0, false}, {"NaN", float32(math.NaN()), 0, false}, {"-9999 ensemble", -9999, 8, false}, {"-9999 back-projection", -9999, 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			// The top-right 4 x 4 low-res pixels are no-data.
			inHole := func(i, j int) bool { return i < 4 && j >= 6 }
			lr := testrand.Cube(testrand.New(4, 1), 12, 10, 5)
			for p := 0; p < lr.H*lr.W; p++ {
				if inHole(p/lr.W, p%lr.W) {
					px := lr.Data[p*lr.B : (p+1)*lr.B]
					for k := range px {
						px[k] = tc.v
					}
				}
			}
			lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = float64(tc.v), true
			const oh, ow = 36, 30
			var out *hsi.Cube
			switch {
			case tc.bp:
				out, err = m.UpscaleBackProjected(lr, oh, ow, 2)
			case tc.ens > 0:
				out, err = m.UpscaleEnsemble(lr, oh, ow, tc.ens)
			default:
				out, err = m.Upscale(lr, oh, ow)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !out.Meta.HasDataIgnore {
				t.Error("output lost the data ignore value")
			}
			masked := 0
			for u := 0; u < oh; u++ {
				for v := 0; v < ow; v++ {
					hole := inHole(u/3, v/3) // factor 3: the low-res pixel holding the centre
					for k := 0; k < 5; k++ {
						x := out.Data[(u*ow+v)*5+k]
						switch {
						case hole && tc.name == "NaN":
							if x == x {
								t.Fatalf("(%d,%d): %v, want NaN", u, v, x)
							}
						case hole:
							if x != tc.v {
								t.Fatalf("(%d,%d): %v, want %v", u, v, x, tc.v)
							}
						case !(x > -10 && x < 10): // random data overshoots a little; -9999 times any weight would not stay inside
							t.Fatalf("(%d,%d) band %d = %v: no-data leaked into valid pixels", u, v, k, x)
						}
					}
					if hole {
						masked++
					}
				}
			}
			if masked != 12*12 {
				t.Errorf("%d output pixels masked, want 144", masked)
			}
		})
	}
}

// No-data is handled band by band: a column at -9999 in two of six bands
// is no-data in those bands only, and no output sample of any band lies
// between the no-data value and the valid range (the measured leak was
// half a million samples between -9999 and -1). The same for the
// self-ensemble and back-projection.
func TestUpscaleNoDataPerBand(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	const h, w, b, col = 10, 12, 6, 5
	lr := testrand.Cube(testrand.New(11, 1), h, w, b)
	for y := 0; y < h; y++ {
		for _, k := range []int{2, 3} {
			lr.Data[(y*w+col)*b+k] = -9999
		}
	}
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -9999, true
	const oh, ow = 40, 48
	for name, up := range map[string]func() (*hsi.Cube, error){
		"plain":           func() (*hsi.Cube, error) { return m.Upscale(lr, oh, ow) },
		"ensemble":        func() (*hsi.Cube, error) { return m.UpscaleEnsemble(lr, oh, ow, 4) },
		"back-projection": func() (*hsi.Cube, error) { return m.UpscaleBackProjected(lr, oh, ow, 1) },
	} {
		out, err := up()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		nodata := 0
		for u := 0; u < oh; u++ {
			for v := 0; v < ow; v++ {
				for k := 0; k < b; k++ {
					x := out.Data[(u*ow+v)*b+k]
					want := v/4 == col && (k == 2 || k == 3)
					if want != (x == -9999) {
						t.Fatalf("%s: (%d,%d) band %d = %v, no-data expected: %v", name, u, v, k, x, want)
					}
					if x == -9999 {
						nodata++
					} else if !(x > -10 && x < 10) {
						t.Fatalf("%s: (%d,%d) band %d = %v: no-data leaked", name, u, v, k, x)
					}
				}
			}
		}
		if nodata != oh*4*2 {
			t.Errorf("%s: %d no-data samples, want %d", name, nodata, oh*4*2)
		}
	}
}

// Bad bands are left out of the network input: the usable bands of an
// input with a band flagged bad (bbl = 0, holding values far off the
// others) and an all-NaN band come out as the input without those two
// bands gives them, and the bad bands are no-data (NaN, declared in the
// output's metadata) in every output pixel.
func TestUpscaleBadBands(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	const h, w, b = 9, 8, 7
	lr := testrand.Cube(testrand.New(12, 1), h, w, b)
	lr.Meta.BadBands = make([]bool, b)
	lr.Meta.BadBands[1] = true
	for p := 0; p < h*w; p++ {
		lr.Data[p*b+1] = 5000 // flagged bad: must not reach the network
		lr.Data[p*b+4] = float32(math.NaN())
	}
	usable := []int{0, 2, 3, 5, 6}
	ref, err := lr.SelectBands(usable)
	if err != nil {
		t.Fatal(err)
	}
	ref.Meta.BadBands = nil
	const oh, ow = 27, 24
	want, err := m.Upscale(ref, oh, ow)
	if err != nil {
		t.Fatal(err)
	}
	got, err := m.Upscale(lr, oh, ow)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Meta.HasDataIgnore || !math.IsNaN(got.Meta.DataIgnore) {
		t.Errorf("output declares no-data %v (%v), want NaN", got.Meta.DataIgnore, got.Meta.HasDataIgnore)
	}
	for p := 0; p < oh*ow; p++ {
		for k := 1; k < b; k += 3 {
			if x := got.Data[p*b+k]; x == x {
				t.Fatalf("pixel %d of bad band %d = %v, want NaN", p, k, x)
			}
		}
		for i, k := range usable {
			x, y := got.Data[p*b+k], want.Data[p*len(usable)+i]
			if math.Abs(float64(x-y)) > 1e-5*(1+math.Abs(float64(y))) {
				t.Fatalf("pixel %d band %d = %v, the input without its bad bands gives %v", p, k, x, y)
			}
		}
	}

	lr.Meta.BadBands = []bool{true, true, true, true, false, true, true}
	if _, err := m.Upscale(lr, oh, ow); !errors.Is(err, hsi.ErrAllNoData) {
		t.Errorf("no usable band: error %v", err)
	}
}
