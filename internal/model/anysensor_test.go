package model

import (
	"fmt"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// Any band count and any factor run through the whole model:
// B = 1, 2, 3, 31, 103, 145, 224 and factors 1.25 ... 48, on a non-square
// input, with non-zero operators.
func TestAnySensorAnyFactor(t *testing.T) {
	m, err := New(smallConfig(), 3)
	if err != nil {
		t.Fatal(err)
	}
	randomise(m, 4, 0.05)
	for _, b := range []int{1, 2, 3, 31, 103, 145, 224} {
		lr := testrand.Cube(testrand.New(uint64(b), 1), 5, 7, b)
		for _, s := range []float64{1.25, 2, 2.5, 3.7, 8, 16, 37.3, 48} {
			if b > 31 && s > 16 {
				continue // large outputs: B <= 31 covers the big factors
			}
			t.Run(fmt.Sprintf("B%d_x%g", b, s), func(t *testing.T) {
				h, w := resample.UpSize(lr.H, s), resample.UpSize(lr.W, s)
				y, err := m.Upscale(lr, h, w)
				if err != nil {
					t.Fatal(err)
				}
				if y.H != h || y.W != w || y.B != b {
					t.Fatalf("output %dx%dx%d, want %dx%dx%d", y.H, y.W, y.B, h, w, b)
				}
				if err := y.CheckFinite(); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
