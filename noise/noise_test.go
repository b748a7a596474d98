package noise

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/scenes"
)

// scene is a synthetic h x w x b cube with edges, texture and smooth
// spectra, values in about [0, 1].
func scene(h, w, b int, seed uint64) *hsi.Cube {
	r := rand.New(rand.NewPCG(seed, 1))
	c := hsi.MustNew(h, w, b)
	type blob struct{ y, x, rad, a, slope float64 }
	var bs []blob
	for range 12 {
		bs = append(bs, blob{r.Float64() * float64(h), r.Float64() * float64(w), 4 + 20*r.Float64(), 0.2 + 0.5*r.Float64(), r.Float64() - 0.5})
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			base := 0.2 + 0.1*math.Sin(float64(x)/7)*math.Cos(float64(y)/11)
			for k := 0; k < b; k++ {
				t := float64(k) / float64(max(1, b-1))
				v := base * (0.8 + 0.4*t)
				for _, o := range bs {
					if math.Hypot(float64(y)-o.y, float64(x)-o.x) < o.rad {
						v = o.a * (1 + o.slope*t)
					}
				}
				c.Data[(y*w+x)*b+k] = float32(v)
			}
		}
	}
	return c
}

func medianOf(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

func TestBandsKnownSigma(t *testing.T) {
	clean := scene(96, 120, 40, 7)
	for _, sigma := range []float64{0.005, 0.01, 0.02, 0.03, 0.05} {
		for _, spectral := range []bool{false, true} {
			c := clean.Clone()
			if err := (Spec{Kind: White, Sigma: sigma}).Add(c, rand.New(rand.NewPCG(3, 4))); err != nil {
				t.Fatal(err)
			}
			est, err := Bands(c, spectral)
			if err != nil {
				t.Fatal(err)
			}
			// The spatial residual alone also sees the scene's edges and
			// texture: it may read up to 20 % high. The spectral one is
			// what the model uses.
			tol := 0.10
			if !spectral {
				tol = 0.20
			}
			for _, got := range []float64{medianOf(est), Level(est)} {
				if rel := got/sigma - 1; math.Abs(rel) > tol {
					t.Errorf("sigma %g spectral %v: estimate %.5f, %+.1f%% off", sigma, spectral, got, 100*rel)
				}
			}
		}
	}
}

// TestBandsProfile checks that per-band levels follow a per-band noise
// profile on an imaging spectrometer's band spacing (200 bands over
// 400-2500 nm, about 10 nm apart).
func TestBandsProfile(t *testing.T) {
	c := scene(128, 128, 200, 9)
	prof := SensorProfile(nil, c.B)
	if err := (Spec{Kind: Profile, Sigma: 0.02, Band: prof}).Add(c, rand.New(rand.NewPCG(5, 6))); err != nil {
		t.Fatal(err)
	}
	est, err := Bands(c, true)
	if err != nil {
		t.Fatal(err)
	}
	for b, e := range est {
		want := 0.02 * prof[b]
		if rel := e/want - 1; math.Abs(rel) > 0.10 {
			t.Errorf("band %d: estimate %.5f, want %.5f (%+.1f%%)", b, e, want, 100*rel)
		}
	}
}

// TestBandsRealScenes adds known noise to the evaluation scenes (each
// normalised to a maximum of 1) and compares the estimate with the level
// of the noise the cube then holds: the added sigma and the scene's own
// noise (its estimate before adding, at most 0.0025 on these scenes) in
// quadrature.
func TestBandsRealScenes(t *testing.T) {
	list, ok := scenes.DefaultList()
	if !ok {
		t.Skip("../shared/data/hsi/scenes.tsv not found: the real-scene test of the noise estimator needs the shared data")
	}
	all, err := scenes.Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range scenes.Filter(all, "eval") {
		c, err := scenes.Load(s)
		if err != nil {
			t.Fatal(err)
		}
		var mx float32
		for _, v := range c.Data {
			mx = max(mx, v)
		}
		for i := range c.Data {
			c.Data[i] /= mx
		}
		e0, err := Bands(c, true)
		if err != nil {
			t.Fatal(err)
		}
		own := Level(e0)
		if own > 0.0025 {
			t.Errorf("%s: own noise estimated at %.4f, expected a clean scene", s.Name(), own)
		}
		for _, sigma := range []float64{0.005, 0.01, 0.02, 0.05} {
			n := c.Clone()
			if err := (Spec{Kind: White, Sigma: sigma}).Add(n, rand.New(rand.NewPCG(11, uint64(sigma*1e4)))); err != nil {
				t.Fatal(err)
			}
			e, err := Bands(n, true)
			if err != nil {
				t.Fatal(err)
			}
			want := math.Hypot(sigma, own)
			if got := Level(e); math.Abs(got/want-1) > 0.10 {
				t.Errorf("%s sigma %g: estimate %.5f, want %.5f (%+.1f%%)", s.Name(), sigma, got, want, 100*(got/want-1))
			}
		}
	}
}

func TestBandsSmallAndMasked(t *testing.T) {
	c := hsi.MustNew(2, 5, 3)
	est, err := Bands(c, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range est {
		if !math.IsNaN(v) {
			t.Fatalf("2 x 5 image: got %v, want NaN", est)
		}
	}
	if !math.IsNaN(Level(est)) {
		t.Fatal("Level of no estimate is not NaN")
	}
	// Non-finite samples are skipped, not propagated.
	d := scene(40, 40, 8, 2)
	if err := (Spec{Kind: White, Sigma: 0.02}).Add(d, rand.New(rand.NewPCG(1, 1))); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40*8; i += 8 {
		d.Data[i] = float32(math.NaN())
	}
	est, err = Bands(d, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := Level(est); math.IsNaN(got) || math.Abs(got/0.02-1) > 0.15 {
		t.Fatalf("with a NaN column: level %v, want about 0.02", got)
	}
}

func TestSpecAddStatistics(t *testing.T) {
	const h, w, b = 200, 100, 20
	flat := func(v float32) *hsi.Cube {
		c := hsi.MustNew(h, w, b)
		for i := range c.Data {
			c.Data[i] = v
		}
		return c
	}
	std := func(c *hsi.Cube, v float32, band int) float64 {
		var s, n float64
		for i := band; i < len(c.Data); i += b {
			d := float64(c.Data[i] - v)
			s += d * d
			n++
		}
		return math.Sqrt(s / n)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	tests := []struct {
		name string
		spec Spec
		v    float32
		band int
		want float64
	}{
		{"white", Spec{Kind: White, Sigma: 0.02}, 0.5, 3, 0.02},
		{"signal at 0.5", Spec{Kind: Signal, Shot: 0.0008, Read: 0.01}, 0.5, 3, math.Sqrt(0.0008*0.5 + 0.0001)},
		{"signal at 0", Spec{Kind: Signal, Shot: 0.0008, Read: 0.01}, 0, 3, 0.01},
		{"profile", Spec{Kind: Profile, Sigma: 0.01, Band: SensorProfile(nil, b)}, 0.5, b - 1, 0.01 * SensorProfile(nil, b)[b-1]},
		{"stripes", Spec{Kind: Stripes, Sigma: 0.01, Stripe: 0.02}, 0.5, 3, math.Hypot(0.01, 0.02)},
	}
	for _, tc := range tests {
		c := flat(tc.v)
		if err := tc.spec.Add(c, rng); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := std(c, tc.v, tc.band); math.Abs(got/tc.want-1) > 0.15 {
			t.Errorf("%s: std %.5f, want %.5f", tc.name, got, tc.want)
		}
	}
	// Stripes are constant down a column: the column means of one band
	// vary by about Stripe, the rows within a column by Sigma only.
	c := flat(0)
	if err := (Spec{Kind: Stripes, Sigma: 0.001, Stripe: 0.05}).Add(c, rng); err != nil {
		t.Fatal(err)
	}
	for x := 0; x < 5; x++ {
		top, bottom := c.Data[x*b], c.Data[((h-1)*w+x)*b]
		if d := math.Abs(float64(top - bottom)); d > 0.01 {
			t.Errorf("column %d differs by %.4f between the first and last row", x, d)
		}
	}
}

func TestSpecAddErrors(t *testing.T) {
	c := hsi.MustNew(4, 4, 3)
	rng := rand.New(rand.NewPCG(1, 1))
	for _, s := range []Spec{
		{Kind: White, Sigma: -1},
		{Kind: White, Sigma: math.NaN()},
		{Kind: Profile, Sigma: 0.1, Band: []float64{1}},
		{Kind: Kind(42)},
	} {
		if err := s.Add(c, rng); err == nil {
			t.Errorf("%v: no error", s)
		}
	}
}

func TestSensorProfile(t *testing.T) {
	wl := make([]float64, 211)
	for i := range wl {
		wl[i] = 400 + 10*float64(i)
	}
	p := SensorProfile(wl, len(wl))
	var sum float64
	for _, v := range p {
		sum += v
	}
	if math.Abs(sum/float64(len(p))-1) > 1e-9 {
		t.Errorf("mean factor %v, want 1", sum/float64(len(p)))
	}
	at := func(nm float64) float64 { return p[int((nm-400)/10)] }
	if !(at(550) < at(1400) && at(550) < at(1900) && at(550) < at(2450) && at(1600) < at(2450)) {
		t.Errorf("profile not shaped like a VNIR/SWIR sensor: 550 %.2f, 1400 %.2f, 1600 %.2f, 1900 %.2f, 2450 %.2f",
			at(550), at(1400), at(1600), at(1900), at(2450))
	}
}

func TestDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	seen := map[Kind]int{}
	for range 2000 {
		s := Draw(rng, 50, 0.002, 0.06)
		seen[s.Kind]++
		lvl := s.Sigma
		if s.Kind == Signal {
			lvl = math.Sqrt(s.Shot*0.5 + s.Read*s.Read)
		}
		if lvl < 0.002*(1-1e-9) || lvl > 0.06*(1+1e-9) {
			t.Fatalf("%v: level %v outside [0.002, 0.06]", s, lvl)
		}
		if s.Kind == Profile && len(s.Band) != 50 {
			t.Fatalf("profile of %d bands", len(s.Band))
		}
	}
	for _, k := range []Kind{White, Signal, Profile, Stripes} {
		if seen[k] < 150 {
			t.Errorf("%v drawn %d times of 2000", k, seen[k])
		}
	}
}

func BenchmarkBands(b *testing.B) {
	for _, sz := range []struct {
		name    string
		h, w, b int
	}{{"64x64x31", 64, 64, 31}, {"256x256x102", 256, 256, 102}, {"1242x1280x285", 1242, 1280, 285}} {
		b.Run(sz.name, func(b *testing.B) {
			c := scene(sz.h, sz.w, sz.b, 1)
			b.SetBytes(int64(4 * len(c.Data)))
			b.ResetTimer()
			for range b.N {
				if _, err := Bands(c, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func TestMedianMatchesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 3))
	for _, n := range []int{1, 2, 3, 4, 5, 10, 101, 1000, 1024, 4096, 32767} {
		for rep := 0; rep < 6; rep++ {
			a := make([]float32, n)
			for i := range a {
				switch rep % 3 {
				case 0:
					a[i] = float32(r.IntN(50)) // many ties
				case 1:
					a[i] = float32(math.Abs(r.NormFloat64())) * 1e-3
				default:
					a[i] = float32(r.ExpFloat64()) * float32(1+r.IntN(2)*1000) // two scales
				}
			}
			s := slices.Clone(a)
			slices.Sort(s)
			want := float64(s[n/2])
			if n%2 == 0 {
				want = 0.5 * (float64(s[n/2-1]) + float64(s[n/2]))
			}
			if got := median(a) / madToSigma; math.Abs(got-want) > 1e-6 {
				t.Fatalf("n %d: median %v, want %v", n, got, want)
			}
		}
	}
	if !math.IsNaN(median(nil)) {
		t.Fatal("median of nothing is not NaN")
	}
}

// Residuals that touch the no-data value are left out: fill values over
// most of some bands do not change their estimates, which counting them as
// data would.
func TestBandsSkipNoData(t *testing.T) {
	c := scene(60, 80, 20, 3)
	if err := (Spec{Kind: White, Sigma: 0.01}).Add(c, rand.New(rand.NewPCG(2, 2))); err != nil {
		t.Fatal(err)
	}
	want, err := Bands(c, true)
	if err != nil {
		t.Fatal(err)
	}
	d := c.Clone()
	for y := 0; y < 36; y++ {
		for x := 0; x < d.W; x++ {
			for b := 10; b < d.B; b++ {
				if (x/7+y/5)%3 != 0 {
					d.Data[(y*d.W+x)*d.B+b] = -9999
				}
			}
		}
	}
	d.Meta.DataIgnore, d.Meta.HasDataIgnore = -9999, true
	got, err := Bands(d, true)
	if err != nil {
		t.Fatal(err)
	}
	for b := range got {
		if math.Abs(got[b]/want[b]-1) > 0.10 {
			t.Errorf("band %d: %.5f with fill values, %.5f without", b, got[b], want[b])
		}
	}
	d.Meta.HasDataIgnore = false // the fill values are then data: the flat blocks pull the level down
	if bad, _ := Bands(d, true); math.Abs(Level(bad)/Level(want)-1) < 0.10 {
		t.Errorf("fill values counted as data moved the level only from %.5f to %.5f", Level(want), Level(bad))
	}
}

// The residual grid's rows are split over the cores: the estimates are the
// same, bit for bit, whatever the number of parts (a median does not
// depend on the order of its values), with and without no-data.
func TestBandsIndependentOfCores(t *testing.T) {
	c := scene(83, 61, 7, 3)
	r := rand.New(rand.NewPCG(9, 9))
	for i := range c.Data {
		c.Data[i] += float32(0.01 * r.NormFloat64())
	}
	masked := c.Clone()
	masked.Meta.DataIgnore, masked.Meta.HasDataIgnore = -9999, true
	for i := 0; i < len(masked.Data); i += 37 {
		masked.Data[i] = -9999
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, cube := range []*hsi.Cube{c, masked} {
		for _, spectral := range []bool{false, true} {
			runtime.GOMAXPROCS(1)
			want, err := Bands(cube, spectral)
			if err != nil {
				t.Fatal(err)
			}
			for _, procs := range []int{2, 3, 8} {
				runtime.GOMAXPROCS(procs)
				got, err := Bands(cube, spectral)
				if err != nil {
					t.Fatal(err)
				}
				for b := range want {
					if math.Float64bits(got[b]) != math.Float64bits(want[b]) {
						t.Fatalf("spectral %v, %d procs: band %d: %v, one core %v", spectral, procs, b, got[b], want[b])
					}
				}
			}
		}
	}
}
