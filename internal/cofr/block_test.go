package cofr

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// Groups larger than maxBlockWeights have their weights computed a block
// of rows at a time: the image is the same (to float32 rounding) as with
// whole groups, and bands of rows and worker counts give the same bits as
// the whole image.
func TestBlockedGroupsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x := testrand.Cube(rng, 4, 5, 3)
	p := randPrims(rng, 4, 5, trained)
	const H, W = 150, 170 // factor ~35: one cell per group
	for _, opt := range []Options{{Workers: 1}, {Workers: 1, PaperRule: true}} {
		r0, err := NewRenderer(x, p, H, W, opt)
		if err != nil {
			t.Fatal(err)
		}
		unblocked, err := r0.Render()
		if err != nil {
			t.Fatal(err)
		}
		old := maxBlockWeights
		maxBlockWeights = 3000 // blocks of a few rows
		r1, _ := NewRenderer(x, p, H, W, opt)
		whole, err := r1.Render()
		if err != nil {
			maxBlockWeights = old
			t.Fatal(err)
		}
		for i, v := range whole.Data {
			if d := math.Abs(float64(v - unblocked.Data[i])); d > 1e-5*(1+math.Abs(float64(v))) {
				maxBlockWeights = old
				t.Fatalf("paper %v: value %d blocked %v, whole groups %v", opt.PaperRule, i, v, unblocked.Data[i])
			}
		}
		for _, nw := range []int{1, 3} {
			o := opt
			o.Workers = nw
			r, _ := NewRenderer(x, p, H, W, o)
			for _, band := range []int{1, 4, 37} {
				for u0 := 0; u0 < H; u0 += band {
					u1 := min(H, u0+band)
					dst := make([]float32, (u1-u0)*W*x.B)
					if err := r.RenderRows(u0, u1, dst); err != nil {
						t.Fatal(err)
					}
					for k, v := range dst {
						if math.Float32bits(v) != math.Float32bits(whole.Data[u0*W*x.B+k]) {
							maxBlockWeights = old
							t.Fatalf("paper %v workers %d band %d rows [%d,%d): value %d = %v, whole %v", opt.PaperRule, nw, band, u0, u1, k, v, whole.Data[u0*W*x.B+k])
						}
					}
				}
			}
		}
		maxBlockWeights = old
	}
}
