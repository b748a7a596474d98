package nn

import (
	"math/rand/v2"
	"testing"
)

func mustPanic(t *testing.T, name string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", name)
		}
	}()
	f()
}

func TestGraphMisuse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	w := NewParam(2, 1, 1, 3).Randn(r, 1)
	x := New(1, 2, 2, 3).Randn(r, 1)
	mustPanic(t, "backward on inference graph", func() {
		g := NewGraph(false)
		g.Backward(g.Mean(g.Linear(x, w, nil)))
	})
	mustPanic(t, "non-scalar loss", func() {
		g := NewGraph(true)
		g.Backward(g.Linear(x, w, nil))
	})
	mustPanic(t, "backward twice", func() {
		g := NewGraph(true)
		l := g.Mean(g.Linear(x, w, nil))
		g.Backward(l)
		g.Backward(l)
	})
	mustPanic(t, "seed length", func() {
		g := NewGraph(true)
		y := g.Linear(x, w, nil)
		g.BackwardFrom(map[*Tensor][]float32{y: {1}})
	})
	mustPanic(t, "Add shapes", func() { NewGraph(false).Add(x, New(1, 2, 2, 2)) })
	mustPanic(t, "Conv2D even kernel", func() { NewGraph(false).Conv2D(x, New(2, 2, 2, 3), nil, PadZero) })
	mustPanic(t, "Conv2D channels", func() { NewGraph(false).Conv2D(x, New(2, 3, 3, 4), nil, PadZero) })
	mustPanic(t, "ESSA channels", func() { NewGraph(false).ESSA(New(1, 2, 2, 4)) })
	mustPanic(t, "FiLM shape", func() { NewGraph(false).FiLM(x, New(1, 1, 1, 2), New(1, 1, 1, 3)) })
	mustPanic(t, "Slice range", func() { NewGraph(false).Slice(x, 2, 5) })
	mustPanic(t, "FromData length", func() { FromData(1, 2, 2, 3, make([]float32, 5)) })
}

func TestInferenceRecordsNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	l := NewConv2D(r, 3, 4, 3, PadReplicate)
	x := New(1, 4, 4, 3).Randn(r, 1).RequireGrad()
	g := NewGraph(false)
	y := g.GELU(l.Forward(g, x))
	if g.Len() != 0 || y.RequiresGrad() {
		t.Fatalf("inference graph recorded %d steps", g.Len())
	}
	// A training graph whose inputs need no gradient records nothing either.
	g = NewGraph(true)
	g.Tanh(g.Scale(New(1, 2, 2, 2), 2))
	if g.Len() != 0 {
		t.Fatalf("recorded %d steps with no gradient to compute", g.Len())
	}
}

// TestGradAccumulates: gradients add up over graphs until zeroed, and a
// tensor used twice gets both contributions.
func TestGradAccumulates(t *testing.T) {
	w := NewParam(1, 1, 1, 2)
	copy(w.Data, []float32{1, 2})
	x := FromData(1, 1, 1, 2, []float32{3, 4})
	for i := 0; i < 2; i++ {
		g := NewGraph(true)
		wx := g.Mul(w, x)
		g.Backward(g.Mean(g.Add(wx, wx))) // d/dw = 2x/2
	}
	if w.Grad[0] != 6 || w.Grad[1] != 8 {
		t.Fatalf("accumulated grad %v, want [6 8]", w.Grad)
	}
	ZeroGrads([]Param{{"w", w}})
	if w.Grad[0] != 0 || w.Grad[1] != 0 {
		t.Fatal("ZeroGrads")
	}
}

func TestArenaRelease(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	l := NewConv2D(r, 3, 4, 3, PadZero)
	x := New(2, 5, 5, 3).Randn(r, 1)
	arena := NewArena()
	var first []float32
	for i := 0; i < 3; i++ {
		g := NewGraph(true).WithArena(arena)
		y := l.Forward(g, x)
		loss := g.Mean(g.GELU(y))
		g.Backward(loss)
		if i == 0 {
			first = append([]float32(nil), l.W.Grad...)
		}
		g.Release()
		if y.Data != nil || loss.Data != nil {
			t.Fatal("Release left data on the graph's tensors")
		}
		if l.W.Data == nil || x.Data == nil {
			t.Fatal("Release touched a parameter or an input")
		}
	}
	if arena.Bytes() == 0 {
		t.Fatal("arena kept nothing")
	}
	// Three identical steps: the gradient is three times the first.
	for i, v := range l.W.Grad {
		if d := v - 3*first[i]; d > 1e-5 || d < -1e-5 {
			t.Fatalf("grad %v after 3 steps, first %v", v, first[i])
		}
	}
}

func TestArenaSizeClasses(t *testing.T) {
	for n := 1; n < 1<<20; n += 1 + n/7 {
		c := classCeil(n)
		if c < n || (n > minClass && float64(c) > 1.25*float64(n)+1) {
			t.Fatalf("classCeil(%d) = %d: not within [n, 1.25 n]", n, c)
		}
		if classFloor(c) != c {
			t.Fatalf("classCeil(%d) = %d is not a class (floor %d)", n, c, classFloor(c))
		}
		if f := classFloor(n); f > n || (n >= minClass && classCeil(f) != f) {
			t.Fatalf("classFloor(%d) = %d", n, f)
		}
	}
}

// Passes of ever new shapes (as training with random patch sizes, band
// counts and factors) reuse the arena's buffers instead of adding new ones
// for every shape, and the values are those of a graph without an arena.
func TestArenaVaryingShapes(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	l := NewConv2D(r, 3, 4, 3, PadReplicate)
	arena := NewArena()
	poisonArena = true
	defer func() { poisonArena = false }()
	var peak int64
	for i := 0; i < 60; i++ {
		h, w := 20+i%17, 31-i%13
		x := New(1, h, w, 3).Randn(r, 1)
		run := func(a *Arena) (float32, []float32) {
			ZeroGrads(l.Params())
			g := NewGraph(true)
			if a != nil {
				g.WithArena(a)
			}
			loss := g.Mean(g.GELU(l.Forward(g, x)))
			g.Backward(loss)
			v := loss.Data[0]
			g.Release()
			return v, append([]float32(nil), l.W.Grad...)
		}
		want, wantG := run(nil)
		got, gotG := run(arena)
		if got != want {
			t.Fatalf("pass %d: loss %v with the arena, %v without", i, got, want)
		}
		for j := range wantG {
			if gotG[j] != wantG[j] {
				t.Fatalf("pass %d: gradient %d differs with the arena", i, j)
			}
		}
		if i == 20 {
			peak = arena.Bytes()
		}
		if i > 20 && arena.Bytes() > 2*peak {
			t.Fatalf("pass %d: arena holds %d bytes, %d after 20 passes: it grows with new shapes", i, arena.Bytes(), peak)
		}
	}
}
