package nn

import (
	"math"
	"testing"
)

func TestErf32(t *testing.T) {
	var worst float64
	for x := -6.0; x <= 6; x += 1e-4 {
		got := float64(erf32(float32(x)))
		want := math.Erf(float64(float32(x)))
		if d := math.Abs(got - want); d > worst {
			worst = d
		}
	}
	if worst > 5e-7 {
		t.Fatalf("erf32 max abs error %.3g, want < 5e-7", worst)
	}
	t.Logf("erf32 max abs error %.3g", worst)
}

func TestExp32(t *testing.T) {
	var worst float64
	for x := -87.0; x <= 88; x += 1e-3 {
		xf := float64(float32(x))
		got := float64(exp32(float32(x)))
		want := math.Exp(xf)
		if r := math.Abs(got-want) / want; r > worst {
			worst = r
		}
	}
	if worst > 3e-7 {
		t.Fatalf("exp32 max rel error %.3g, want < 3e-7", worst)
	}
	if exp32(-100) != 0 || !math.IsInf(float64(exp32(100)), 1) {
		t.Fatal("exp32 out of range")
	}
	t.Logf("exp32 max rel error %.3g", worst)
}

func TestGELUAgainstFloat64(t *testing.T) {
	for x := -10.0; x <= 10; x += 1e-3 {
		xf := float32(x)
		want := 0.5 * float64(xf) * (1 + math.Erf(float64(xf)/math.Sqrt2))
		if d := math.Abs(float64(gelu(xf)) - want); d > 1e-6*math.Max(1, math.Abs(want)) {
			t.Fatalf("gelu(%v) = %v, want %v", xf, gelu(xf), want)
		}
		wantG := 0.5*(1+math.Erf(float64(xf)/math.Sqrt2)) + float64(xf)*math.Exp(-0.5*float64(xf)*float64(xf))/math.Sqrt(2*math.Pi)
		if d := math.Abs(float64(geluGrad(xf)) - wantG); d > 2e-6 {
			t.Fatalf("geluGrad(%v) = %v, want %v", xf, geluGrad(xf), wantG)
		}
	}
}

func BenchmarkGELU(b *testing.B) {
	x := make([]float32, 1<<16)
	for i := range x {
		x[i] = float32(i%2000)/200 - 5
	}
	b.ResetTimer()
	var s float32
	for i := 0; i < b.N; i++ {
		for _, v := range x {
			s += gelu(v)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/elem")
	_ = s
}
