package testrand

import (
	"math"
	"testing"
)

func TestCubes(t *testing.T) {
	a, b := Cube(New(3, 1), 4, 5, 6), Cube(New(3, 1), 4, 5, 6)
	if a.H != 4 || a.W != 5 || a.B != 6 || len(a.Data) != 120 {
		t.Fatalf("shape %dx%dx%d with %d values", a.H, a.W, a.B, len(a.Data))
	}
	distinct := map[float32]bool{}
	for i, v := range a.Data {
		if v != b.Data[i] {
			t.Fatal("the same seed gave different cubes")
		}
		if v < 0 || v >= 1 {
			t.Fatalf("value %v outside [0, 1)", v)
		}
		distinct[v] = true
	}
	if len(distinct) < 100 {
		t.Fatalf("only %d distinct values of 120", len(distinct))
	}
	if c := Cube(New(4, 1), 4, 5, 6); c.Data[0] == a.Data[0] && c.Data[1] == a.Data[1] {
		t.Fatal("another seed gave the same values")
	}
	u := Uniform(New(1, 2), 3, 3, 3, -5, 5)
	n := Integers(New(1, 2), 3, 3, 3, -5, 5)
	for i, v := range u.Data {
		if v < -5 || v > 5 {
			t.Fatalf("uniform value %v outside [-5, 5]", v)
		}
		if want := float32(math.Round(float64(v))); n.Data[i] != want && math.Abs(float64(n.Data[i]-want)) > 1 {
			t.Fatalf("integer %v for uniform %v", n.Data[i], v)
		}
		if n.Data[i] != float32(math.Round(float64(n.Data[i]))) {
			t.Fatalf("integer cube holds %v", n.Data[i])
		}
	}
}
