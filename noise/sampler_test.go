package noise

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// screenInMemory is the screening of a cube held in memory, as the model
// does it (Screen), with the usable bands and their noise estimates.
func screenInMemory(t *testing.T, c *hsi.Cube) ([]int, []float64, []Outlier) {
	t.Helper()
	usable, sig, out, err := screen(c)
	if err != nil {
		t.Fatal(err)
	}
	return usable, sig, out
}

// feed gives every sample of c to a new Sampler in a shuffled order.
func feed(t *testing.T, c *hsi.Cube, seed uint64) *Sampler {
	t.Helper()
	s, err := NewSampler(c.H, c.W, c.B, c.Meta)
	if err != nil {
		t.Fatal(err)
	}
	order := rand.New(rand.NewPCG(seed, 5)).Perm(len(c.Data))
	for _, i := range order {
		p := i / c.B
		s.Add(c.Data[i], p/c.W, p%c.W, i%c.B)
	}
	return s
}

func near(a, b float64) bool {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.IsNaN(a) && math.IsNaN(b)
	}
	return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// TestSamplerAsInMemory: a cube streamed sample by sample in any order
// screens to the same bands, noise figures and signal ratios as the cube
// held in memory, with garbage bands, no-data values, NaN, bands flagged
// bad, a band that is no-data throughout and grids of strides 1 to 3.
func TestSamplerAsInMemory(t *testing.T) {
	block := []int{20, 21, 22, 23, 24}
	for _, tc := range []struct {
		name string
		make func() *hsi.Cube
		want []int // the bands judged unusable (checked against the in-memory screen too)
		st   int   // the grid's stride (0: no grid)
	}{
		{"clean", func() *hsi.Cube { return scene(40, 44, 48, 1) }, nil, 1},
		{"garbage block and edge", func() *hsi.Cube {
			c := scene(40, 44, 48, 2)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(2, 1)))
			garbageBands(c, append(slices.Clone(block), 0, 47), 0.05, 3)
			return c
		}, append([]int{0}, append(slices.Clone(block), 47)...), 1},
		{"no-data, NaN, bad and empty bands", func() *hsi.Cube {
			c := scene(40, 44, 48, 3)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(3, 1)))
			garbageBands(c, block, 0.05, 4)
			c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
			c.Meta.BadBands = make([]bool, c.B)
			c.Meta.BadBands[5], c.Meta.BadBands[22] = true, true
			r := rand.New(rand.NewPCG(3, 2))
			for range 300 {
				c.Data[r.IntN(len(c.Data))] = -9999
			}
			for range 50 {
				c.Data[r.IntN(len(c.Data))] = float32(math.NaN())
			}
			for p := 0; p < c.H*c.W; p++ {
				c.Data[p*c.B+30] = -9999 // no-data throughout: not usable
			}
			return c
		}, []int{20, 21, 23, 24}, 1},
		{"stride 2", func() *hsi.Cube {
			c := scene(200, 190, 10, 4)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(4, 1)))
			garbageBands(c, []int{9}, 0.1, 5)
			return c
		}, []int{9}, 2},
		{"stride 3", func() *hsi.Cube {
			c := scene(400, 410, 9, 5)
			Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(5, 1)))
			garbageBands(c, []int{4}, 0.1, 6)
			return c
		}, []int{4}, 3},
		{"two bands (no spectral residual, no screening)", func() *hsi.Cube { return scene(20, 20, 2, 6) }, nil, 1},
		{"smaller than 3 x 3", func() *hsi.Cube { return scene(2, 5, 12, 7) }, nil, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.make()
			usable, sig, want := screenInMemory(t, c)
			s := feed(t, c, 9)
			if s.st != tc.st || (s.st > 0 && s.st != stride(c.H, c.W)) {
				t.Fatalf("stride %d, want %d as Bands uses", s.st, tc.st)
			}
			got := s.bands(usable)
			for i := range sig {
				if !near(got[i], sig[i]) {
					t.Fatalf("band %d: streamed noise %v, in memory %v", usable[i], got[i], sig[i])
				}
			}
			out := s.Outliers(c.Meta.BadBands)
			if !slices.Equal(outlierBands(out), outlierBands(want)) {
				t.Fatalf("streamed: unusable bands %v, in memory %v", outlierBands(out), outlierBands(want))
			}
			if !slices.Equal(outlierBands(out), tc.want) {
				t.Fatalf("unusable bands %v, want %v", outlierBands(out), tc.want)
			}
			for i, o := range out {
				w := want[i]
				if !near(o.Sigma, w.Sigma) || !near(o.Ref, w.Ref) || math.Abs(o.NSR-w.NSR) > 1e-9*w.NSR {
					t.Fatalf("band %d: streamed %+v, in memory %+v", o.Band, o, w)
				}
			}
		})
	}
}

// TestSamplerMemory: the residuals are checked against the memory limit
// before they are allocated; a sample outside the cube is ignored.
func TestSamplerMemory(t *testing.T) {
	t.Setenv(memlimit.Env, "1M")
	if _, err := NewSampler(1<<20, 1<<20, 1<<20, hsi.Meta{}); !errors.Is(err, memlimit.ErrTooLarge) {
		t.Fatalf("a 2^20-band cube: err %v, want ErrTooLarge", err)
	}
	if _, err := NewSampler(0, 4, 4, hsi.Meta{}); err == nil {
		t.Fatal("an empty cube: no error")
	}
	c := scene(30, 30, 16, 8)
	s := feed(t, c, 1)
	before := slices.Clone(s.r)
	for _, p := range [][3]int{{-1, 0, 0}, {30, 0, 0}, {0, -1, 0}, {0, 30, 0}, {0, 0, -1}, {0, 0, 16}} {
		s.Add(1e9, p[0], p[1], p[2])
	}
	if !slices.Equal(before, s.r) {
		t.Fatal("a sample outside the cube changed the residuals")
	}
}

// TestSamplerUnwritten: samples never added count as valid zeros (the
// unwritten chunks of an HDF5 dataset), as in the cube.
func TestSamplerUnwritten(t *testing.T) {
	c := scene(40, 40, 24, 9)
	Spec{Kind: White, Sigma: 0.002}.Add(c, rand.New(rand.NewPCG(9, 1)))
	garbageBands(c, []int{10, 11}, 0.05, 7)
	for i := range c.Data[:len(c.Data)/3] {
		c.Data[i] = 0 // the first rows never written
	}
	usable, sig, want := screenInMemory(t, c)
	if len(want) == 0 {
		t.Fatal("no noisy band in the test cube")
	}
	s, err := NewSampler(c.H, c.W, c.B, c.Meta)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range c.Data {
		if v != 0 {
			p := i / c.B
			s.Add(v, p/c.W, p%c.W, i%c.B)
		}
	}
	got := s.bands(usable)
	for i := range sig {
		if !near(got[i], sig[i]) {
			t.Fatalf("band %d: noise %v, in memory %v", i, got[i], sig[i])
		}
	}
	out := s.Outliers(nil)
	if !slices.Equal(outlierBands(out), outlierBands(want)) {
		t.Fatalf("unusable bands %v, in memory %v", outlierBands(out), outlierBands(want))
	}
	for i, o := range out {
		if math.Abs(o.NSR-want[i].NSR) > 1e-9*want[i].NSR {
			t.Fatalf("band %d: signal ratio %v, in memory %v", o.Band, o.NSR, want[i].NSR)
		}
	}
}

// TestSamplerBudget: a cube of many bands is sampled on a coarser grid, so
// that the residuals stay within the budget, whatever its declared size.
func TestSamplerBudget(t *testing.T) {
	for _, sz := range [][3]int{{1000, 1000, 128}, {1000, 1000, 300}, {200000, 200000, 300}, {3, 1 << 31, 4000}, {1 << 20, 1 << 20, 1 << 20}} {
		s, err := NewSampler(sz[0], sz[1], sz[2], hsi.Meta{})
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		if g := s.ny * s.nx; g*sz[2] > samplerBudget && g > 1 || g < 1 {
			t.Errorf("%v: %d grid pixels of %d bands, over the budget of %d residuals", sz, g, sz[2], samplerBudget)
		}
		if sz[2] <= 128 && s.st != stride(sz[0], sz[1]) {
			t.Errorf("%v: stride %d, Bands uses %d", sz, s.st, stride(sz[0], sz[1]))
		}
	}
}
