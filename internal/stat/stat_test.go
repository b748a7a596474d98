package stat

import (
	"math"
	"testing"
)

func TestMedianMean(t *testing.T) {
	for _, c := range []struct {
		in           []float64
		median, mean float64
	}{
		{[]float64{3}, 3, 3}, {[]float64{5, 1, 3}, 3, 3}, {[]float64{4, 1, 3, 2}, 2.5, 2.5}, {[]float64{1, 1, 10}, 1, 4},
	} {
		in := append([]float64(nil), c.in...)
		if got := Median(in); got != c.median {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.median)
		}
		for i := range in {
			if in[i] != c.in[i] {
				t.Fatalf("Median modified its input: %v", in)
			}
		}
		if got := Mean(in); got != c.mean {
			t.Errorf("Mean(%v) = %v, want %v", c.in, got, c.mean)
		}
	}
	if !math.IsNaN(Median(nil)) || !math.IsNaN(Mean(nil)) {
		t.Error("no values: want NaN")
	}
}
