package eval

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// applyOperator returns (delta + k) * X on the LR grid, band by band, with
// replicate padding; ks[b] holds band b's 24 non-centre coefficients in
// offsets(2) order (the centre is minus their sum).
func applyOperator(x *hsi.Cube, ks [][]float64) *hsi.Cube {
	out := hsi.MustNew(x.H, x.W, x.B)
	offs := offsets(2)
	for b := 0; b < x.B; b++ {
		k := ks[b]
		for i := 0; i < x.H; i++ {
			for j := 0; j < x.W; j++ {
				c := float64(x.At(i, j, b))
				v := c
				for q, o := range offs {
					ii := min(max(i+o[0], 0), x.H-1)
					jj := min(max(j+o[1], 0), x.W-1)
					v += k[q] * (float64(x.At(ii, jj, b)) - c)
				}
				out.Set(i, j, b, float32(v))
			}
		}
	}
	return out
}

func randomOperator(rng *rand.Rand) []float64 {
	k := make([]float64, 24)
	for q := range k {
		k[q] = 0.05 * rng.NormFloat64()
	}
	return k
}

// plant makes an HR image whose every band is exactly U_s((delta + k_b) * X_b).
func plant(t *testing.T, x *hsi.Cube, ks [][]float64, s int) *hsi.Cube {
	t.Helper()
	y, err := resample.Upsample(applyOperator(x, ks), x.H*s, x.W*s)
	if err != nil {
		t.Fatal(err)
	}
	return y
}

func TestPriorRecoversPlantedOperator(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range []int{2, 4} {
		x := testrand.Cube(rng, 32, 32, 8)
		k := randomOperator(rng)
		ks := make([][]float64, x.B)
		for b := range ks {
			ks[b] = k
		}
		y := plant(t, x, ks, s)
		st, err := accumulatePrior(y, x, 16, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		if st.windows != 4 || st.nq != 24 {
			t.Fatalf("windows %d, nq %d", st.windows, st.nq)
		}
		for w := 0; w < st.windows; w++ {
			for b := 0; b < x.B; b++ {
				a := st.at(w, b, 0)
				got := ridgeSolve(a.G, a.h, st.nq, 1e-6)
				for q := range got {
					if math.Abs(got[q]-k[q]) > 1e-4 {
						t.Fatalf("x%d window %d band %d: k[%d] = %v, planted %v", s, w, b, q, got[q], k[q])
					}
				}
			}
			shared := st.fitShared(w, fourBands(x.B), 1e-6)
			for q := range shared {
				if math.Abs(shared[q]-k[q]) > 1e-4 {
					t.Fatalf("x%d window %d: shared k[%d] = %v, planted %v", s, w, q, shared[q], k[q])
				}
			}
		}
		im := st.gains(1e-6)
		for name, v := range map[string]Num{"per band": im.PerBand, "1 band": im.OneBandAbs, "4 bands": im.FourBandsAbs, "first half": im.FirstHalfAbs} {
			if !(float64(v) > 60) {
				t.Errorf("x%d: %s gain %v dB, want > 60 on an exactly planted operator", s, name, v)
			}
		}
	}
}

// With a different operator in every band, an operator fitted on one band
// must be far worse on the others than per-band operators.
func TestPriorDetectsBandSpecificOperators(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := testrand.Cube(rng, 32, 32, 8)
	ks := make([][]float64, x.B)
	for b := range ks {
		ks[b] = randomOperator(rng)
	}
	y := plant(t, x, ks, 2)
	st, err := accumulatePrior(y, x, 16, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	im := st.gains(1e-6)
	if !(float64(im.PerBand) > 60) {
		t.Errorf("per-band gain %v, want > 60", im.PerBand)
	}
	for name, v := range map[string]Num{"1 band": im.OneBand, "4 bands": im.FourBands, "first half": im.FirstHalf} {
		if !(float64(v) < -30) {
			t.Errorf("%s relative gain %v dB, want far below 0 for band-specific operators", name, v)
		}
	}
}

// A smooth image that bicubic already fits well: the per-band gain is
// positive and finite and the shared columns are defined.
func TestPriorGainsOnNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	hr := testrand.Cube(rng, 64, 64, 6)
	lr, err := resample.Downsample(hr, 32, 32)
	if err != nil {
		t.Fatal(err)
	}
	st, err := accumulatePrior(hr, lr, 16, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	im := st.gains(1e-6)
	for name, v := range map[string]Num{"per band": im.PerBand, "1 band": im.OneBand, "4 bands": im.FourBands, "first half": im.FirstHalf} {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			t.Errorf("%s = %v", name, v)
		}
	}
	// Held-out evaluation on white noise: an operator fitted on other
	// pixels cannot gain much.
	if math.Abs(float64(im.PerBand)) > 1 {
		t.Errorf("per-band gain on white noise %v dB", im.PerBand)
	}
	// Workers do not change the statistics.
	st2, err := accumulatePrior(hr, lr, 16, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if im2 := st2.gains(1e-6); !reflect.DeepEqual(im2, im) {
		t.Errorf("1 worker %+v, 2 workers %+v", im, im2)
	}
}

func TestPriorTooSmall(t *testing.T) {
	x := hsi.MustNew(8, 8, 3)
	y := hsi.MustNew(16, 16, 3)
	if _, err := accumulatePrior(y, x, 16, 2, 1); err == nil {
		t.Error("an 8x8 LR image with 16x16 windows was accepted")
	}
}

func TestRidgeSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 24
	A := make([]float64, 100*n)
	for i := range A {
		A[i] = rng.NormFloat64()
	}
	G := make([]float64, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			for r := 0; r < 100; r++ {
				G[i*n+j] += A[r*n+i] * A[r*n+j]
			}
		}
	}
	k := make([]float64, n)
	for i := range k {
		k[i] = rng.NormFloat64()
	}
	h := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			h[i] += G[i*n+j] * k[j]
		}
	}
	got := ridgeSolve(G, h, n, 1e-12)
	for i := range k {
		if math.Abs(got[i]-k[i]) > 1e-8 {
			t.Fatalf("k[%d] = %v, want %v", i, got[i], k[i])
		}
	}
	if z := ridgeSolve(make([]float64, n*n), make([]float64, n), n, 1e-6); z[0] != 0 {
		t.Errorf("zero system gave %v", z)
	}
	// sse agrees with the direct sum of squares.
	tt := 0.0
	tv := make([]float64, 100)
	for r := range tv {
		tv[r] = rng.NormFloat64()
		tt += tv[r] * tv[r]
	}
	h2 := make([]float64, n)
	for i := 0; i < n; i++ {
		for r := 0; r < 100; r++ {
			h2[i] += A[r*n+i] * tv[r]
		}
	}
	var direct float64
	for r := 0; r < 100; r++ {
		e := tv[r]
		for i := 0; i < n; i++ {
			e -= A[r*n+i] * k[i]
		}
		direct += e * e
	}
	if got := sse(&halfStats{G: G, h: h2, tt: tt}, k, n); math.Abs(got-direct) > 1e-9*direct {
		t.Errorf("sse %v, direct %v", got, direct)
	}
}

func TestFourBands(t *testing.T) {
	for b, want := range map[int][]int{31: {6, 12, 18, 24}, 17: {3, 6, 10, 13}, 205: {41, 82, 122, 163}, 6: {1, 2, 3, 4}} {
		got := fourBands(b)
		if len(got) != len(want) {
			t.Fatalf("fourBands(%d) = %v", b, got)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("fourBands(%d) = %v, want %v", b, got, want)
			}
		}
	}
	if middleBand(31) != 15 || middleBand(102) != 50 {
		t.Errorf("middle bands %d %d", middleBand(31), middleBand(102))
	}
}
