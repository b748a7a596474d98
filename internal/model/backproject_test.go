package model

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// consistencyRMS is the RMS of D(y) - lr, D the antialiased bicubic
// downsampling to lr's size.
func consistencyRMS(t *testing.T, y, lr *hsi.Cube) float64 {
	t.Helper()
	d, err := resample.Downsample(y, lr.H, lr.W)
	if err != nil {
		t.Fatal(err)
	}
	var s float64
	for i, v := range d.Data {
		e := float64(v - lr.Data[i])
		s += e * e
	}
	return math.Sqrt(s / float64(len(d.Data)))
}

// Zero steps are the plain model bit for bit; each further step brings the
// output's downsampling closer to the input, at integer and fractional
// factors.
func TestBackProjection(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ h, w, oh, ow int }{{12, 10, 48, 40}, {9, 11, 31, 23}, {6, 6, 100, 100}} {
		lr := testrand.Cube(testrand.New(3, 1), tc.h, tc.w, 6)
		plain, err := m.Upscale(lr, tc.oh, tc.ow)
		if err != nil {
			t.Fatal(err)
		}
		prev := math.Inf(1)
		for _, it := range []int{0, 1, 3} {
			y, err := m.UpscaleBackProjected(lr, tc.oh, tc.ow, it)
			if err != nil {
				t.Fatal(err)
			}
			if it == 0 && maxAbsDiff(y, plain) != 0 {
				t.Fatalf("%dx%d -> %dx%d: 0 steps differ from Upscale", tc.h, tc.w, tc.oh, tc.ow)
			}
			r := consistencyRMS(t, y, lr)
			if !(r < prev) {
				t.Errorf("%dx%d -> %dx%d, %d steps: consistency RMS %g, not below %g", tc.h, tc.w, tc.oh, tc.ow, it, r, prev)
			}
			prev = r
		}
	}
	if _, err := m.UpscaleBackProjected(testrand.Cube(testrand.New(1, 1), 4, 4, 2), 8, 8, -1); err == nil {
		t.Error("-1 steps: no error")
	}
}
