package model

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
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
		t.Skip(err)
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
			lr := randCube(4, 12, 10, 5)
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
