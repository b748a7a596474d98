package model

import (
	"fmt"
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// The extracted 1-D matrices reproduce resample.Downsample and
// resample.Upsample, and the adjoints pass the dot-product test
// <g, M x> = <M^T g, x>.
func TestResampleMatricesAndAdjoints(t *testing.T) {
	cases := []struct {
		kind       resampleKind
		h, w, H, W int
	}{
		{kindDown, 13, 17, 5, 4},
		{kindDown, 9, 9, 9, 9},
		{kindUp, 5, 4, 13, 17},
		{kindUp, 3, 7, 8, 10},
		{kindUp, 1, 2, 3, 9},
		{kindUp, 6, 6, 6, 6},
	}
	for ci, c := range cases {
		t.Run(fmt.Sprintf("kind%d/%dx%d->%dx%d", c.kind, c.h, c.w, c.H, c.W), func(t *testing.T) {
			const B = 3
			x := testrand.Cube(testrand.New(uint64(ci+1), 1), c.h, c.w, B)
			var want *hsi.Cube
			var err error
			if c.kind == kindUp {
				want, err = resample.Upsample(x, c.H, c.W)
			} else {
				want, err = resample.Downsample(x, c.H, c.W)
			}
			if err != nil {
				t.Fatal(err)
			}
			rows, err := resampleMatrix(c.kind, c.h, c.H)
			if err != nil {
				t.Fatal(err)
			}
			cols, err := resampleMatrix(c.kind, c.w, c.W)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < c.H; i++ {
				for j := 0; j < c.W; j++ {
					for b := 0; b < B; b++ {
						var s float64
						for ki, wy := range rows.w[i] {
							for kj, wx := range cols.w[j] {
								s += float64(wy) * float64(wx) * float64(x.At(rows.first[i]+ki, cols.first[j]+kj, b))
							}
						}
						if math.Abs(s-float64(want.At(i, j, b))) > 1e-5 {
							t.Fatalf("(%d,%d,%d): matrices give %v, resample %v", i, j, b, s, want.At(i, j, b))
						}
					}
				}
			}
			g := testrand.Cube(testrand.New(uint64(ci+50), 1), c.H, c.W, B)
			dst := make([]float32, len(x.Data))
			if c.kind == kindUp {
				err = UpsampleAdjoint(dst, g.Data, c.h, c.w, c.H, c.W, B, 1)
			} else {
				err = DownsampleAdjoint(dst, g.Data, c.h, c.w, c.H, c.W, B, 1)
			}
			if err != nil {
				t.Fatal(err)
			}
			var lhs, rhs float64
			for i, v := range g.Data {
				lhs += float64(v) * float64(want.Data[i])
			}
			for i, v := range dst {
				rhs += float64(v) * float64(x.Data[i])
			}
			if math.Abs(lhs-rhs) > 1e-5*math.Abs(lhs) {
				t.Fatalf("<g, M x> = %v, <M^T g, x> = %v", lhs, rhs)
			}
		})
	}
	if err := UpsampleAdjoint(make([]float32, 3), make([]float32, 4), 1, 1, 2, 2, 1, 1); err == nil {
		t.Fatal("wrong lengths accepted")
	}
}
