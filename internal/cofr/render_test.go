package cofr

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

func TestCellStarts(t *testing.T) {
	for _, c := range [][2]int{{1, 1}, {1, 7}, {7, 1}, {3, 4}, {4, 3}, {5, 16}, {16, 5}, {7, 26}, {32, 128}, {9, 9}, {10, 4}, {6, 15}} {
		n, m := c[0], c[1]
		st := cellStarts(n, m)
		for u := 0; u < m; u++ {
			want := int(math.Floor((float64(u) + 0.5) * float64(n) / float64(m)))
			if got := cellOf(u, n, m); got != want {
				t.Fatalf("cellOf(%d, %d, %d) = %d, want %d", u, n, m, got, want)
			}
			if u < st[want] || u >= st[want+1] {
				t.Fatalf("n=%d m=%d: target %d (cell %d) outside [%d, %d)", n, m, u, want, st[want], st[want+1])
			}
		}
	}
}

// factorSize returns round(f*side).
func factorSize(side int, f float64) int { return int(math.Round(f * float64(side))) }

func TestZeroOperatorsIsBicubicBitwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := testrand.Cube(rng, 9, 7, 5)
	p := randPrims(rng, 9, 7, wide)
	clear(p.K)
	for _, f := range []float64{0.5, 1, 1.25, 2, 2.5, 3.7, 4, 8, 16} {
		H, W := factorSize(9, f), factorSize(7, f)
		for _, opt := range []Options{{}, {PaperRule: true}, {Neighbourhood: 9, Workers: 1}} {
			y, err := Render(x, p, H, W, opt)
			if err != nil {
				t.Fatal(err)
			}
			u, err := upsample(x, H, W, 1)
			if err != nil {
				t.Fatal(err)
			}
			for k := range y.Data {
				if math.Float32bits(y.Data[k]) != math.Float32bits(u.Data[k]) {
					t.Fatalf("x%g %+v: value %d = %v, bicubic %v", f, opt, k, y.Data[k], u.Data[k])
				}
			}
		}
	}
}

// TestZeroOperatorsIsResampleUpsample: with every operator zero the output
// is bit for bit resample.Upsample, the project's bicubic U_s (which matches
// PyTorch; see resample's golden tests).
func TestZeroOperatorsIsResampleUpsample(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for _, B := range []int{1, 3, 8, 31, 37} {
		x := testrand.Cube(rng, 7, 9, B)
		p := randPrims(rng, 7, 9, trained)
		clear(p.K)
		for _, f := range []float64{0, 0.6, 1, 1.25, 2, 2.5, 3.7, 8, 16, 37.3} {
			H, W := factorSize(7, f), factorSize(9, f*1.1)
			if f == 0 {
				H, W = 7, 9 // same size: resample copies, COFR computes 1*x
			}
			y, err := Render(x, p, H, W, Options{})
			if err != nil {
				t.Fatal(err)
			}
			u, err := resample.Upsample(x, H, W)
			if err != nil {
				t.Fatal(err)
			}
			for k := range y.Data {
				if math.Float32bits(y.Data[k]) != math.Float32bits(u.Data[k]) {
					t.Fatalf("B=%d %dx%d: value %d = %v, resample.Upsample %v", B, H, W, k, y.Data[k], u.Data[k])
				}
			}
		}
	}
}

func TestSum4AssemblyMatchesGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	for _, n := range []int{1, 7, 8, 9, 15, 16, 17, 31, 145, 224} {
		s := make([][]float32, 5)
		for k := range s {
			s[k] = make([]float32, n)
			for i := range s[k] {
				s[k][i] = float32(rng.NormFloat64() * 100)
			}
		}
		w := [4]float32{-0.07, 0.61, 0.52, -0.06}
		for _, tt := range [][]float32{nil, s[4]} {
			got, want := make([]float32, n), make([]float32, n)
			sum4(got, s[0], s[1], s[2], s[3], tt, &w)
			sum4Go(want, s[0], s[1], s[2], s[3], tt, &w)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("n=%d add=%v: element %d = %v, Go %v", n, tt != nil, i, got[i], want[i])
				}
			}
		}
	}
}

func TestMulVec(t *testing.T) {
	rng := rand.New(rand.NewPCG(35, 36))
	for _, n := range []int{1, 7, 8, 9, 16, 17, 33, 256} {
		d, s := make([]float32, n), make([]float32, n)
		for i := range d {
			d[i], s[i] = float32(rng.Float64()), float32(rng.Float64())
			if i%3 == 1 {
				d[i] = 1e-25 // product below tinyWeight: flushed to zero
			}
		}
		want := make([]float32, n)
		for i := range want {
			want[i] = d[i] * s[i]
			if want[i] < tinyWeight {
				want[i] = 0
			}
		}
		mulVec(d, s)
		for i := range d {
			if d[i] != want[i] {
				t.Fatalf("n=%d: element %d = %v, want %v", n, i, d[i], want[i])
			}
		}
	}
}

func TestAxpyDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(37, 38))
	for _, n := range []int{1, 7, 8, 9, 16, 17, 31, 145, 224} {
		a, b := make([]float32, n), make([]float32, n)
		for i := range a {
			a[i], b[i] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		var want float64
		for i := range a {
			want += float64(a[i]) * float64(b[i])
		}
		if got := dot(a, b); math.Abs(float64(got)-want) > 1e-5*(1+math.Abs(want)) {
			t.Errorf("n=%d: dot = %v, want %v", n, got, want)
		}
		d := append([]float32(nil), a...)
		axpy(d, b, 0.37)
		for i := range d {
			if w := a[i] + float32(0.37*b[i]); d[i] != w {
				t.Fatalf("n=%d: axpy element %d = %v, want %v", n, i, d[i], w)
			}
		}
	}
}

// maxRelErr returns max |got-want| / max |want| and max |got-want|.
func maxRelErr(got []float32, want []float64) (rel, abs float64) {
	var scale float64
	for k, w := range want {
		abs = math.Max(abs, math.Abs(float64(got[k])-w))
		scale = math.Max(scale, math.Abs(w))
	}
	if scale == 0 {
		return abs, abs
	}
	return abs / scale, abs
}

func TestBicubicMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range [][4]int{{5, 6, 10, 12}, {7, 5, 26, 13}, {4, 4, 64, 64}, {9, 8, 4, 5}, {1, 1, 3, 3}, {1, 6, 2, 15}} {
		x := testrand.Cube(rng, c[0], c[1], 3)
		u, err := upsample(x, c[2], c[3], 2)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, len(u.Data))
		for uu := 0; uu < c[2]; uu++ {
			for v := 0; v < c[3]; v++ {
				for b := 0; b < 3; b++ {
					want[(uu*c[3]+v)*3+b] = refBicubic(x, c[2], c[3], uu, v, b)
				}
			}
		}
		if rel, abs := maxRelErr(u.Data, want); rel > 1e-6 {
			t.Errorf("%v: bicubic differs from the direct sum by %.3g (relative %.3g)", c, abs, rel)
		}
	}
}

type refCase struct {
	h, w, b, H, W int
	spec          primSpec
	opt           Options
}

func (c refCase) String() string {
	return fmt.Sprintf("%dx%dx%d->%dx%d/sig%.2g-%.2g/K%d/paper=%v/workers%d", c.h, c.w, c.b, c.H, c.W,
		c.spec.sigLo, c.spec.sigHi, c.opt.Neighbourhood, c.opt.PaperRule, c.opt.Workers)
}

func TestMatchesReference(t *testing.T) {
	cases := []refCase{
		{6, 7, 3, 12, 14, trained, Options{}},
		{6, 7, 3, 15, 18, trained, Options{}},                               // x2.5
		{6, 7, 3, 24, 28, trained, Options{Workers: 1}},                     // x4
		{5, 6, 4, 22, 22, trained, Options{}},                               // x4.4 / x3.67 per axis
		{9, 8, 2, 18, 16, trained, Options{Neighbourhood: 9}},               // K = 9
		{9, 8, 2, 18, 16, trained, Options{Neighbourhood: 3}},               // K = 3
		{6, 7, 3, 24, 28, wide, Options{}},                                  // narrow and wide primitives
		{4, 5, 3, 64, 80, wide, Options{}},                                  // x16, narrow: direct exponentials
		{6, 7, 3, 15, 18, trained, Options{PaperRule: true}},                // paper's rule
		{6, 6, 2, 24, 24, wide, Options{PaperRule: true}},                   // paper's rule, wide
		{5, 7, 3, 9, 11, trained, Options{PaperRule: true}},                 // paper's rule, x1.8 / x1.57
		{8, 6, 3, 5, 4, trained, Options{}},                                 // downscaling
		{1, 1, 3, 7, 5, trained, Options{}},                                 // one pixel
		{3, 1, 2, 11, 2, wide, Options{PaperRule: true}},                    // one column
		{12, 3, 2, 24, 6, trained, Options{Workers: 3}},                     // row chunks
		{2, 9, 2, 8, 36, trained, Options{Workers: 2, A: 0.8}},              // column chunks, a = 0.8
		{6, 7, 3, 12, 14, trained, Options{Neighbourhood: 13}},              // K larger than the image
		{3, 3, 2, 111, 111, trained, Options{Neighbourhood: 7}},             // x37
		{6, 7, 3, 24, 28, primSpec{0.05, 0.06, 0.5, 0.3}, Options{}},        // all narrow
		{5, 6, 3, 40, 48, primSpec{0.01, 0.03, 0.5, 0.3}, Options{A: 0.05}}, // direct exponentials
		{16, 13, 2, 7, 5, trained, Options{Workers: 2}},                     // downscaling, empty cells
	}
	for k, c := range cases {
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		x := testrand.Cube(rng, c.h, c.w, c.b)
		p := randPrims(rng, c.h, c.w, c.spec)
		y, err := Render(x, p, c.H, c.W, c.opt)
		if err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		ref := refRender(x, toRef(p), c.H, c.W, c.opt)
		rel, abs := maxRelErr(y.Data, ref.Y)
		u, _ := upsample(x, c.H, c.W, 1)
		field := make([]float32, len(u.Data))
		for i := range field {
			field[i] = y.Data[i] - u.Data[i]
		}
		frel, fabs := maxRelErr(field, ref.Field)
		if rel > 1e-5 || (frel > 1e-4 && fabs > 1e-6*abs/rel) {
			t.Errorf("%v: output differs from the reference by %.3g (relative %.3g), field relative %.3g", c, abs, rel, frel)
		}
		t.Logf("%v: relative error %.2g, field relative error %.2g", c, rel, frel)
	}
}

func TestRowsAndWorkersAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	x := testrand.Cube(rng, 11, 9, 6)
	p := randPrims(rng, 11, 9, trained)
	for _, opt := range []Options{{}, {PaperRule: true}} {
		H, W := 40, 31
		opt.Workers = 1
		r1, err := NewRenderer(x, p, H, W, opt)
		if err != nil {
			t.Fatal(err)
		}
		whole, err := r1.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, nw := range []int{2, 3, 5} {
			opt.Workers = nw
			r, _ := NewRenderer(x, p, H, W, opt)
			for _, band := range []int{1, 3, 7, 40} {
				for u0 := 0; u0 < H; u0 += band {
					u1 := min(H, u0+band)
					dst := make([]float32, (u1-u0)*W*x.B)
					if err := r.RenderRows(u0, u1, dst); err != nil {
						t.Fatal(err)
					}
					for k, v := range dst {
						if math.Float32bits(v) != math.Float32bits(whole.Data[u0*W*x.B+k]) {
							t.Fatalf("workers %d, band %d, rows [%d,%d): value %d = %v, whole image %v", nw, band, u0, u1, k, v, whole.Data[u0*W*x.B+k])
						}
					}
				}
			}
		}
	}
}

func TestRenderRowsFunction(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	x := testrand.Cube(rng, 5, 6, 3)
	p := randPrims(rng, 5, 6, trained)
	q := p.Clone()
	y, err := Render(x, p, 13, 17, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]float32, 4*17*3)
	if err := RenderRows(x, q, 13, 17, 6, 10, dst, Options{}); err != nil {
		t.Fatal(err)
	}
	for k, v := range dst {
		if v != y.Data[6*17*3+k] {
			t.Fatalf("value %d = %v, Render %v", k, v, y.Data[6*17*3+k])
		}
	}
	q.K[0], q.Sigma1[0] = 5, 9
	if p.K[0] == 5 || p.Sigma1[0] == 9 {
		t.Error("Clone shares memory with the original")
	}
}

func TestConstantImageStaysConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []struct {
		f    float64
		spec primSpec
		opt  Options
	}{{2, trained, Options{}}, {3.7, wide, Options{}}, {8, wide, Options{PaperRule: true}}, {1.25, trained, Options{Neighbourhood: 9}}} {
		x := hsi.MustNew(7, 6, 4)
		for i := range x.Data {
			x.Data[i] = []float32{0.3, 1, 250, -7}[i%4]
		}
		p := randPrims(rng, 7, 6, c.spec)
		for i := range p.K {
			p.K[i] *= 10 // large operators
		}
		y, err := Render(x, p, factorSize(7, c.f), factorSize(6, c.f), c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range y.Data {
			want := x.Data[i%4]
			if math.Abs(float64(v-want)) > 1e-5*math.Abs(float64(want)) {
				t.Fatalf("x%g: value %d = %v, want %v", c.f, i, v, want)
			}
		}
	}
}

// TestSpectralMapsCommute checks paper Eq. 11: for fixed primitives, a band
// subset, a merge of neighbouring bands, a per-band gain and a per-band
// offset pass through the reconstruction.
func TestSpectralMapsCommute(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	h, w, B := 8, 7, 12
	x := testrand.Cube(rng, h, w, B)
	p := randPrims(rng, h, w, trained)
	for _, f := range []float64{2, 3.7, 8} {
		H, W := factorSize(h, f), factorSize(w, f)
		y, err := Render(x, p, H, W, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var scale float64
		for _, v := range y.Data {
			scale = math.Max(scale, math.Abs(float64(v)))
		}
		// Each map is a B' x B matrix P and an offset c: X' = X P^T + c.
		type spectralMap struct {
			name string
			P    [][]float64
			c    []float64
		}
		var maps []spectralMap
		sub := spectralMap{name: "subset"}
		for _, b := range []int{0, 3, 4, 11} {
			row := make([]float64, B)
			row[b] = 1
			sub.P = append(sub.P, row)
		}
		sub.c = make([]float64, len(sub.P))
		merge := spectralMap{name: "neighbour-pair merge"}
		for b := 0; b+1 < B; b += 2 {
			row := make([]float64, B)
			row[b], row[b+1] = 0.5, 0.5
			merge.P = append(merge.P, row)
		}
		merge.c = make([]float64, len(merge.P))
		gain := spectralMap{name: "gain", c: make([]float64, B)}
		offset := spectralMap{name: "offset", c: make([]float64, B)}
		for b := 0; b < B; b++ {
			g := make([]float64, B)
			g[b] = 0.2 + 3*rng.Float64()
			gain.P = append(gain.P, g)
			o := make([]float64, B)
			o[b] = 1
			offset.P = append(offset.P, o)
			offset.c[b] = 5 * (rng.Float64() - 0.5)
		}
		maps = append(maps, sub, merge, gain, offset)
		for _, m := range maps {
			Bp := len(m.P)
			apply := func(src []float32, n int) []float32 {
				out := make([]float32, n*Bp)
				for q := 0; q < n; q++ {
					for o := 0; o < Bp; o++ {
						v := m.c[o]
						for b := 0; b < B; b++ {
							v += m.P[o][b] * float64(src[q*B+b])
						}
						out[q*Bp+o] = float32(v)
					}
				}
				return out
			}
			xm := &hsi.Cube{H: h, W: w, B: Bp, Data: apply(x.Data, h*w)}
			ym, err := Render(xm, p, H, W, Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := apply(y.Data, H*W)
			var worst float64
			for k := range want {
				worst = math.Max(worst, math.Abs(float64(ym.Data[k]-want[k])))
			}
			ms := 0.0
			for _, v := range want {
				ms = math.Max(ms, math.Abs(float64(v)))
			}
			if worst > 1e-5*ms {
				t.Errorf("x%g %s: reconstruction and map differ by %.3g (scale %.3g)", f, m.name, worst, ms)
			}
		}
	}
}

func TestBandCountsAndFactorsRun(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	// Every band count, at x2 and x3.7, against the reference.
	for _, B := range []int{1, 2, 3, 31, 103, 145, 224} {
		x := testrand.Cube(rng, 5, 4, B)
		p := randPrims(rng, 5, 4, trained)
		for _, f := range []float64{2, 3.7} {
			H, W := factorSize(5, f), factorSize(4, f)
			y, err := Render(x, p, H, W, Options{})
			if err != nil {
				t.Fatalf("B=%d x%g: %v", B, f, err)
			}
			if y.H != H || y.W != W || y.B != B {
				t.Fatalf("B=%d x%g: output %dx%dx%d", B, f, y.H, y.W, y.B)
			}
			ref := refRender(x, toRef(p), H, W, Options{})
			if rel, abs := maxRelErr(y.Data, ref.Y); rel > 1e-5 {
				t.Errorf("B=%d x%g: differs from the reference by %.3g (relative %.3g)", B, f, abs, rel)
			}
		}
	}
	// Every factor of the paper, non-square inputs and per-axis factors.
	sizes := [][2]int{{6, 5}, {4, 7}}
	factors := []float64{1.25, 2, 2.5, 3.7, 8, 16, 37.3, 48}
	if testing.Short() {
		factors = []float64{1.25, 2.5, 3.7, 16, 48}
	}
	for _, sz := range sizes {
		x := testrand.Cube(rng, sz[0], sz[1], 3)
		p := randPrims(rng, sz[0], sz[1], trained)
		for _, f := range factors {
			for _, fx := range []float64{f, f * 0.7} {
				H, W := factorSize(sz[0], f), factorSize(sz[1], fx)
				y, err := Render(x, p, H, W, Options{})
				if err != nil {
					t.Fatalf("%v x%g,%g: %v", sz, f, fx, err)
				}
				ref := refRender(x, toRef(p), H, W, Options{})
				if rel, abs := maxRelErr(y.Data, ref.Y); rel > 1e-5 {
					t.Errorf("%v -> %dx%d: differs from the reference by %.3g (relative %.3g)", sz, H, W, abs, rel)
				}
			}
		}
	}
}

func TestWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	x := testrand.Cube(rng, 6, 5, 2)
	p := randPrims(rng, 6, 5, trained)
	for _, opt := range []Options{{}, {PaperRule: true}} {
		r, err := NewRenderer(x, p, 15, 12, opt)
		if err != nil {
			t.Fatal(err)
		}
		// The field at a pixel is sum_n w_n r_n: check it against the render.
		y, _ := r.Render()
		u, _ := upsample(x, 15, 12, 1)
		for _, px := range [][2]int{{0, 0}, {7, 6}, {14, 11}, {3, 10}} {
			idx, w, err := r.Weights(px[0], px[1])
			if err != nil {
				t.Fatal(err)
			}
			var sum float64
			for b := 0; b < 2; b++ {
				var f float64
				for k, n := range idx {
					i, j := n/5, n%5
					var rn float64
					for t := 0; t < Taps; t++ {
						yy := min(max(i+t/5-2, 0), 5)
						xx := min(max(j+t%5-2, 0), 4)
						rn += float64(p.K[n*Taps+t]) * float64(x.At(yy, xx, b))
					}
					f += w[k] * rn
					if b == 0 {
						sum += w[k]
					}
				}
				o := (px[0]*12+px[1])*2 + b
				got := float64(y.Data[o] - u.Data[o])
				if math.Abs(got-f) > 1e-5 {
					t.Errorf("%+v pixel %v band %d: field %v, from Weights %v", opt, px, b, got, f)
				}
			}
			if sum > 1 || sum < 0.5 {
				t.Errorf("%+v pixel %v: weights sum to %v", opt, px, sum)
			}
		}
		if _, _, err := r.Weights(15, 0); err == nil {
			t.Error("Weights outside the target: no error")
		}
	}
}

func TestInvalidInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	x := testrand.Cube(rng, 4, 5, 3)
	good := func() *Primitives { return randPrims(rng, 4, 5, trained) }
	nan := float32(math.NaN())
	cases := []struct {
		name string
		x    *hsi.Cube
		p    func() *Primitives
		H, W int
		opt  Options
	}{
		{"nil cube", nil, good, 8, 10, Options{}},
		{"bad cube", &hsi.Cube{H: 4, W: 5, B: 3, Data: make([]float32, 7)}, good, 8, 10, Options{}},
		{"nil primitives", x, func() *Primitives { return nil }, 8, 10, Options{}},
		{"NaN input", func() *hsi.Cube { c := x.Clone(); c.Data[7] = float32(math.NaN()); return c }(), good, 8, 10, Options{}},
		{"Inf input", func() *hsi.Cube { c := x.Clone(); c.Data[59] = float32(math.Inf(-1)); return c }(), good, 8, 10, Options{}},
		{"size mismatch", x, func() *Primitives { return randPrims(rng, 5, 4, trained) }, 8, 10, Options{}},
		{"short K", x, func() *Primitives { p := good(); p.K = p.K[:10]; return p }, 8, 10, Options{}},
		{"short alpha", x, func() *Primitives { p := good(); p.Alpha = p.Alpha[:3]; return p }, 8, 10, Options{}},
		{"NaN offset", x, func() *Primitives { p := good(); p.OffY[3] = nan; return p }, 8, 10, Options{}},
		{"NaN operator", x, func() *Primitives { p := good(); p.K[17] = nan; return p }, 8, 10, Options{}},
		{"Inf theta", x, func() *Primitives { p := good(); p.Theta[0] = float32(math.Inf(1)); return p }, 8, 10, Options{}},
		{"zero sigma", x, func() *Primitives { p := good(); p.Sigma1[2] = 0; return p }, 8, 10, Options{}},
		{"negative sigma", x, func() *Primitives { p := good(); p.Sigma2[2] = -1; return p }, 8, 10, Options{}},
		{"negative alpha", x, func() *Primitives { p := good(); p.Alpha[2] = -0.1; return p }, 8, 10, Options{}},
		{"zero height", x, good, 0, 10, Options{}},
		{"negative width", x, good, 8, -1, Options{}},
		{"too large", x, good, 1 << 40, 1 << 40, Options{}},
		{"even K", x, good, 8, 10, Options{Neighbourhood: 6}},
		{"negative K", x, good, 8, 10, Options{Neighbourhood: -7}},
		{"negative a", x, good, 8, 10, Options{A: -1}},
		{"NaN a", x, good, 8, 10, Options{A: math.NaN()}},
		{"negative workers", x, good, 8, 10, Options{Workers: -1}},
	}
	for _, c := range cases {
		if _, err := Render(c.x, c.p(), c.H, c.W, c.opt); err == nil {
			t.Errorf("%s: no error", c.name)
		} else {
			t.Logf("%s: %v", c.name, err)
		}
	}
	r, err := NewRenderer(x, good(), 8, 10, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ u0, u1, n int }{{0, 9, 9 * 30}, {-1, 2, 90}, {3, 3, 0}, {0, 2, 59}} {
		if err := r.RenderRows(c.u0, c.u1, make([]float32, c.n)); err == nil {
			t.Errorf("RenderRows(%d, %d, len %d): no error", c.u0, c.u1, c.n)
		}
	}
	if _, err := r.Backward(make([]float32, 5)); err == nil {
		t.Error("Backward with a short dY: no error")
	}
}

func TestRenderKeepsMetadata(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	x := testrand.Cube(rng, 4, 6, 2)
	x.Meta.Wavelengths = []float64{500, 600}
	x.Meta.Geo = &hsi.Geo{PixelScale: []float64{30, 30, 0}}
	y, err := Render(x, randPrims(rng, 4, 6, trained), 8, 24, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if y.Meta.Wavelengths[1] != 600 || y.Meta.Geo.PixelScale[0] != 7.5 || y.Meta.Geo.PixelScale[1] != 15 {
		t.Errorf("metadata %+v, geo %+v", y.Meta, y.Meta.Geo)
	}
	if x.Meta.Geo.PixelScale[0] != 30 {
		t.Error("the input's georeferencing was modified")
	}
}

// TestVectorFillMatchesScalar renders with the vectorised fill and with
// the scalar recurrence: the weights agree to float32 rounding.
func TestVectorFillMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 40))
	x := testrand.Cube(rng, 6, 7, 4)
	for _, sp := range []primSpec{trained, wide} {
		p := randPrims(rng, 6, 7, sp)
		for _, f := range []float64{2.5, 4, 16, 37.3} {
			H, W := factorSize(6, f), factorSize(7, f)
			a, err := Render(x, p, H, W, Options{})
			if err != nil {
				t.Fatal(err)
			}
			useVecFill = false
			b, err := Render(x, p, H, W, Options{})
			useVecFill = true
			if err != nil {
				t.Fatal(err)
			}
			want := make([]float64, len(b.Data))
			for i, v := range b.Data {
				want[i] = float64(v)
			}
			if rel, abs := maxRelErr(a.Data, want); rel > 2e-7 {
				t.Errorf("x%g: vectorised and scalar fill differ by %.3g (relative %.3g)", f, abs, rel)
			}
		}
	}
}

// RowCut gives the first row of the row of groups that holds a row: no
// later than the row, the same for every row of that row of groups, and
// the row after the previous row of groups' last.
func TestRowCut(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range []struct{ h, H int }{{11, 22}, {11, 27}, {11, 33}, {7, 28}, {6, 50}, {9, 100}, {20, 21}} {
		x := testrand.Cube(rng, c.h, 5, 2)
		p := randPrims(rng, c.h, 5, trained)
		r, err := NewRenderer(x, p, c.H, 10, Options{})
		if err != nil {
			t.Fatal(err)
		}
		groupRow := func(u int) int { return cellOf(u, r.h, r.oh) / r.gy }
		if r.RowCut(0) != 0 || r.RowCut(-1) != 0 || r.RowCut(c.H) != c.H {
			t.Errorf("%d -> %d: RowCut(0), RowCut(-1), RowCut(H) = %d, %d, %d", c.h, c.H, r.RowCut(0), r.RowCut(-1), r.RowCut(c.H))
		}
		for u := 0; u < c.H; u++ {
			s := r.RowCut(u)
			if s > u || groupRow(s) != groupRow(u) || (s > 0 && groupRow(s-1) == groupRow(s)) {
				t.Fatalf("%d -> %d: RowCut(%d) = %d (groups of %d cells: row %d in group row %d, %d in %d)", c.h, c.H, u, s, r.gy, u, groupRow(u), s, groupRow(s))
			}
		}
	}
}
