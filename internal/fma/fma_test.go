package fma

import (
	"math"
	"math/big"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// exact is a*b + c rounded once to float32 by big.Float.
func exact(a, b, c float32) float32 {
	if math.IsNaN(float64(a)) || math.IsNaN(float64(b)) || math.IsNaN(float64(c)) ||
		math.IsInf(float64(a), 0) || math.IsInf(float64(b), 0) || math.IsInf(float64(c), 0) {
		return float32(float64(a)*float64(b) + float64(c))
	}
	x := new(big.Float).SetPrec(400).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetPrec(400).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetPrec(400).SetFloat64(float64(c)))
	if x.Sign() == 0 {
		// The sign of an exact zero sum follows IEEE 754: -0 only when
		// both addends are -0.
		p := float64(a) * float64(b)
		return float32(p + float64(c))
	}
	f, _ := x.Float32()
	return f
}

func same(x, y float32) bool {
	if math.IsNaN(float64(x)) {
		return math.IsNaN(float64(y))
	}
	return math.Float32bits(x) == math.Float32bits(y)
}

func TestF32Cases(t *testing.T) {
	one := float32(1)
	ulp := float32(math.Ldexp(1, -23))
	tests := []struct {
		name    string
		a, b, c float32
	}{
		// a*b = 2^-24 - 2^-70, c = 1 + 2^-23: the float64 sum is the
		// float32 midpoint 1 + 2^-23 + 2^-24, the exact value is below it.
		{"midpoint below", 1 + ulp, float32(math.Ldexp(1, -24)) * (1 - ulp), one + ulp},
		{"midpoint above", 1 + ulp, float32(math.Ldexp(1, -24)) * (1 + ulp), one + ulp},
		{"plain", 1.5, 2.25, -0.125},
		{"zero", 0, 5, 0},
		{"minus zero product", -0.0, 5, 0},
		{"cancel", 3, 7, -21},
		{"subnormal", float32(math.Ldexp(1, -70)), float32(math.Ldexp(1.5, -70)), float32(math.Ldexp(1, -149))},
		{"subnormal midpoint", float32(math.Ldexp(1, -75)), float32(math.Ldexp(1, -75)), float32(math.Ldexp(1, -149))},
		{"overflow", math.MaxFloat32, 2, 0},
		{"near max", math.MaxFloat32, 1, float32(math.Ldexp(1, 103))},
		{"inf", float32(math.Inf(1)), 1, 2},
		{"inf minus inf", float32(math.Inf(1)), 1, float32(math.Inf(-1))},
		{"nan", float32(math.NaN()), 1, 2},
	}
	for _, tc := range tests {
		got, want := F32(tc.a, tc.b, tc.c), exact(tc.a, tc.b, tc.c)
		if !same(got, want) {
			t.Errorf("%s: F32(%g, %g, %g) = %g (%#x), want %g (%#x)", tc.name, tc.a, tc.b, tc.c,
				got, math.Float32bits(got), want, math.Float32bits(want))
		}
	}
	// The first case is one where rounding twice is wrong: the test
	// would not see a missing correction without it.
	a, b, c := tests[0].a, tests[0].b, tests[0].c
	if naive := float32(float64(a)*float64(b) + float64(c)); same(naive, exact(a, b, c)) {
		t.Fatalf("the midpoint case does not exercise double rounding")
	}
}

// TestF32Random compares F32 with big.Float on random operands, half of
// them built so that a*b + c lies near a float32 rounding midpoint.
func TestF32Random(t *testing.T) {
	r := testrand.New(7, 1)
	n := 200000
	if testing.Short() {
		n = 20000
	}
	bad := 0
	for i := range n {
		a := float32(r.NormFloat64())
		b := float32(r.NormFloat64() * math.Ldexp(1, r.IntN(60)-30))
		var c float32
		if i%2 == 0 {
			c = float32(r.NormFloat64() * math.Ldexp(1, r.IntN(60)-30))
		} else {
			// c cancels most of a*b: the sum keeps the product's low
			// bits, where the midpoints are.
			c = -float32(float64(a)*float64(b)) + float32(r.NormFloat64())*float32(math.Ldexp(1, -20))
		}
		if got, want := F32(a, b, c), exact(a, b, c); !same(got, want) {
			if bad++; bad < 10 {
				t.Errorf("F32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
			}
		}
	}
}
