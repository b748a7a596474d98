package eval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/omnihsr/omnihsr/internal/stat"
)

func TestPairedBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{2, 5, 18, 200} {
		d := make([]float64, n)
		for i := range d {
			d[i] = 0.5 + 0.3*rng.NormFloat64()
		}
		iv := PairedBootstrap(d, DefaultResamples, 7)
		m := stat.Mean(d)
		if float64(iv.Mean) != m || iv.N != n || iv.Resamples != DefaultResamples {
			t.Fatalf("n=%d: %+v, mean %v", n, iv, m)
		}
		if !(float64(iv.Lo) <= m && m <= float64(iv.Hi)) || !(iv.Lo < iv.Hi) {
			t.Errorf("n=%d: interval [%v, %v] does not contain the mean %v", n, iv.Lo, iv.Hi, m)
		}
		if n == 200 {
			// The percentile interval approximates mean +- 1.96 sd/sqrt(n).
			var ss float64
			for _, v := range d {
				ss += (v - m) * (v - m)
			}
			half := 1.96 * math.Sqrt(ss/float64(n)) / math.Sqrt(float64(n))
			w := float64(iv.Hi-iv.Lo) / 2
			if math.Abs(w-half) > 0.15*half {
				t.Errorf("half-width %v, normal approximation %v", w, half)
			}
		}
		if again := PairedBootstrap(d, DefaultResamples, 7); again != iv {
			t.Errorf("n=%d: not deterministic: %+v vs %+v", n, iv, again)
		}
	}
}

func TestPairedBootstrapDegenerate(t *testing.T) {
	iv := PairedBootstrap([]float64{0.7}, 100, 1)
	if iv.Mean != 0.7 || iv.Lo != 0.7 || iv.Hi != 0.7 || iv.N != 1 {
		t.Errorf("one pair: %+v", iv)
	}
	iv = PairedBootstrap([]float64{0.3, 0.3, 0.3}, 100, 1)
	if math.Abs(float64(iv.Lo)-0.3) > 1e-12 || math.Abs(float64(iv.Hi)-0.3) > 1e-12 {
		t.Errorf("constant differences: %+v", iv)
	}
	iv = PairedBootstrap(nil, 100, 1)
	if !math.IsNaN(float64(iv.Mean)) || iv.N != 0 {
		t.Errorf("no pairs: %+v", iv)
	}
}

func TestPercentile(t *testing.T) {
	v := []float64{1, 2, 3, 4, 5}
	for p, want := range map[float64]float64{0: 1, 100: 5, 50: 3, 25: 2, 2.5: 1.1, 97.5: 4.9} {
		if got := percentile(v, p); math.Abs(got-want) > 1e-12 {
			t.Errorf("percentile(%v) = %v, want %v (numpy linear)", p, got, want)
		}
	}
}
