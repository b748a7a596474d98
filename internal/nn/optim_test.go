package nn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAdamAgainstReference runs Adam for a few steps with changing
// gradients and compares with the update rule evaluated in float64.
func TestAdamAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	p := NewParam(1, 1, 2, 3).Randn(r, 1)
	ref := make([]float64, p.Len())
	for i, v := range p.Data {
		ref[i] = float64(v)
	}
	m := make([]float64, p.Len())
	v := make([]float64, p.Len())
	opt := NewAdam([]Param{{"p", p}})
	sched := PaperSchedule(10)
	for step := 0; step < 10; step++ {
		lr := sched.LR(step)
		for i := range p.Grad {
			p.Grad[i] = float32(r.NormFloat64())
		}
		opt.Step(lr)
		tt := float64(step + 1)
		for i := range ref {
			g := float64(p.Grad[i])
			m[i] = 0.9*m[i] + 0.1*g
			v[i] = 0.999*v[i] + 0.001*g*g
			ref[i] -= lr / (1 - math.Pow(0.9, tt)) * m[i] / (math.Sqrt(v[i])/math.Sqrt(1-math.Pow(0.999, tt)) + 1e-8)
		}
	}
	for i := range ref {
		if d := math.Abs(float64(p.Data[i]) - ref[i]); d > 1e-6 {
			t.Fatalf("param %d: %v, reference %v", i, p.Data[i], ref[i])
		}
	}
	if opt.StepCount != 10 {
		t.Fatalf("StepCount %d", opt.StepCount)
	}
}

func TestPaperSchedule(t *testing.T) {
	s := PaperSchedule(100)
	for _, tc := range []struct {
		step int
		lr   float64
	}{{0, 2e-4}, {29, 2e-4}, {30, 1e-4}, {59, 1e-4}, {60, 5e-5}, {79, 5e-5}, {80, 2.5e-5}, {99, 2.5e-5}} {
		if got := s.LR(tc.step); math.Abs(got-tc.lr) > 1e-15 {
			t.Errorf("LR(%d) = %g, want %g", tc.step, got, tc.lr)
		}
	}
}

func TestClipGradNorm(t *testing.T) {
	a, b := NewParam(1, 1, 1, 2), NewParam(1, 1, 1, 1)
	copy(a.Grad, []float32{3, 0})
	b.Grad[0] = 4
	ps := []Param{{"a", a}, {"b", b}}
	if n := ClipGradNorm(ps, 0); n != 5 {
		t.Fatalf("norm %v, want 5", n)
	}
	if n := ClipGradNorm(ps, 1); n != 5 {
		t.Fatalf("norm %v, want 5", n)
	}
	if n := ClipGradNorm(ps, 0); math.Abs(n-1) > 1e-5 {
		t.Fatalf("norm after clipping %v, want 1", n)
	}
}

func TestKaimingUniformBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	l := NewConv2D(r, 8, 4, 3, PadZero)
	bound := float32(1 / math.Sqrt(72))
	var mx float32
	for _, v := range append(append([]float32(nil), l.W.Data...), l.B.Data...) {
		mx = max(mx, float32(math.Abs(float64(v))))
	}
	if mx > bound || mx < 0.9*bound {
		t.Fatalf("max |w| = %v, bound %v", mx, bound)
	}
	// Same seed, same weights.
	l2 := NewConv2D(rand.New(rand.NewPCG(1, 2)), 8, 4, 3, PadZero)
	for i := range l.W.Data {
		if l.W.Data[i] != l2.W.Data[i] {
			t.Fatal("initialisation is not reproducible")
		}
	}
}
