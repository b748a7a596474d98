package nn

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Two passes over chunks give the whole-image ESSA.
func TestESSAStreamMatchesWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const h, w, c = 13, 7, 5
	x := New(1, h, w, 3*c).Randn(r, 1)
	want := NewGraph(false).ESSA(x)
	s := NewESSAStream(c)
	chunks := [][2]int{{0, 4}, {4, 5}, {5, 13}}
	for _, ch := range chunks {
		if err := s.Add(FromData(1, ch[1]-ch[0], w, 3*c, x.Data[ch[0]*w*3*c:ch[1]*w*3*c])); err != nil {
			t.Fatal(err)
		}
	}
	s.Finish()
	g := NewGraph(false).WithArena(NewArena())
	defer g.Release()
	for i, ch := range chunks {
		var on *Graph // the first chunk without a graph, the others from g's arena
		if i > 0 {
			on = g
		}
		got, err := s.Apply(on, FromData(1, ch[1]-ch[0], w, 3*c, x.Data[ch[0]*w*3*c:ch[1]*w*3*c]))
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range got.Data {
			wv := want.Data[ch[0]*w*c+i]
			if math.Abs(float64(v-wv)) > 1e-5*max(1, math.Abs(float64(wv))) {
				t.Fatalf("chunk %v element %d: %v, whole image %v", ch, i, v, wv)
			}
		}
	}
	if _, err := NewESSAStream(c).Apply(nil, x); err == nil {
		t.Fatal("Apply before Finish accepted")
	}
}

// ApplyQV on the q and v of a chunk gives Apply's bits; both refuse
// chunks of the wrong width.
func TestESSAStreamApplyQV(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	const h, w, c = 9, 6, 8
	x := New(1, h, w, 3*c).Randn(r, 1)
	s := NewESSAStream(c)
	if err := s.Add(x); err != nil {
		t.Fatal(err)
	}
	s.Finish()
	qv := New(1, h, w, 2*c)
	for i := range h * w {
		copy(qv.Data[i*2*c:][:c], x.Data[i*3*c:])
		copy(qv.Data[i*2*c+c:][:c], x.Data[i*3*c+2*c:])
	}
	want, err := s.Apply(nil, x)
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.ApplyQV(nil, qv)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range want.Data {
		if got.Data[i] != v {
			t.Fatalf("element %d: %v, Apply %v", i, got.Data[i], v)
		}
	}
	// Pass 1 from k alone and the kept q and v: the same sums, bit for bit.
	k := New(1, h, w, c)
	for i := range h * w {
		copy(k.Data[i*c:][:c], x.Data[i*3*c+c:])
	}
	s2 := NewESSAStream(c)
	if err := s2.AddK(k, qv); err != nil {
		t.Fatal(err)
	}
	s2.Finish()
	for i, v := range s.a {
		if s2.a[i] != v {
			t.Fatalf("AddK: A[%d] = %v, Add %v", i, s2.a[i], v)
		}
	}
	if err := NewESSAStream(c).AddK(qv, k); err == nil {
		t.Error("AddK accepted k and qv swapped")
	}
	if _, err := s.ApplyQV(nil, x); err == nil {
		t.Error("ApplyQV accepted a chunk of 3C channels")
	}
	if _, err := s.Apply(nil, qv); err == nil {
		t.Error("Apply accepted a chunk of 2C channels")
	}
}

// The token functions over a range of tokens (the AVX2 kernel where it
// runs: c a multiple of 8) give the bits of the one-token Go functions,
// for any range, on ordinary tokens and on constant, huge and non-finite
// ones.
func TestESSATokensBitExact(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range []int{1, 3, 8, 16, 32, 40, 64} {
		const n, stride = 11, 100
		src := make([]float32, n*stride)
		for i := range src {
			src[i] = float32(r.NormFloat64() * 2)
		}
		for j := range c {
			src[2*stride+j] = 0.25                            // constant: centred to zero
			src[3*stride+j] = float32(r.NormFloat64()) * 1e20 // squares overflow
			src[4*stride+j] = float32(r.NormFloat64()) * 1e-30
			src[7*stride+j] = float32(r.NormFloat64()) * 1e-5 // sum of squares below the 1e-7
		}
		src[5*stride+c/2] = float32(math.NaN())
		src[6*stride] = float32(math.Inf(1))
		same := func(a, b float32) bool {
			return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
		}
		for lo := 0; lo < 3; lo++ {
			for hi := lo; hi <= n; hi++ {
				gk, gq := make([]float32, n*c), make([]float32, n*c)
				essaTokensK(src, stride, gk, c, lo, hi)
				essaTokensQ(src, stride, gq, c, lo, hi)
				wk, wq := make([]float32, c), make([]float32, c)
				for i := lo; i < hi; i++ {
					essaTokenK(src[i*stride:][:c], wk)
					essaTokenQ(src[i*stride:][:c], wq)
					for j := 0; j < c; j++ {
						if !same(gk[i*c+j], wk[j]) || !same(gq[i*c+j], wq[j]) {
							t.Fatalf("c %d [%d, %d) token %d channel %d: k %v q %v, want %v %v", c, lo, hi, i, j, gk[i*c+j], gq[i*c+j], wk[j], wq[j])
						}
					}
				}
			}
		}
	}
}

// laneSum is a sum: exact on small integers in any order, and the mean of
// a constant token is that constant.
func TestLaneSum(t *testing.T) {
	for n := range 40 {
		x := make([]float32, n)
		want := 0
		for j := range x {
			x[j] = float32(j*j%17 - 8)
			want += j*j%17 - 8
		}
		if got := laneSum(x); got != float32(want) {
			t.Fatalf("n %d: laneSum %v, want %d", n, got, want)
		}
	}
	d := make([]float32, 32)
	x := make([]float32, 32)
	for j := range x {
		x[j] = 0.1
	}
	if inv := centred(x, d); inv != 1/float32(1e-7) || slices.Max(d) != 0 || slices.Min(d) != 0 {
		t.Fatalf("constant token: inv %v, centred values %v", inv, d)
	}
}

// LinearTo writes Linear's bits into the given tensor, for a weight made
// of some of another's output rows too (as the encoder splits q, k, v),
// and refuses an output of the wrong shape.
func TestLinearTo(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, np := range []int{5, 300, 5000} {
		const cin, cout = 8, 12
		x := New(1, 1, np, cin).Randn(r, 1)
		w := New(cout, 1, 1, cin).Randn(r, 1)
		b := New(1, 1, 1, cout).Randn(r, 1)
		for _, g := range []*Graph{NewGraph(false), NewGraph(false).WithArena(NewArena())} {
			want := g.Linear(x, w, b)
			got := New(1, 1, np, cout)
			g.LinearTo(x, w, b, got)
			for i, v := range want.Data {
				if got.Data[i] != v {
					t.Fatalf("np %d: element %d: %v, Linear %v", np, i, got.Data[i], v)
				}
			}
			// Output rows 4..8 alone. Every GEMM kernel sums every output
			// in the same order whatever the column count (the encoder's
			// q, k, v split relies on it), so the bits are Linear's.
			part := New(1, 1, np, 4)
			g.LinearTo(x, FromData(4, 1, 1, cin, w.Data[4*cin:8*cin]), FromData(1, 1, 1, 4, b.Data[4:8]), part)
			for p := range np {
				for j := range 4 {
					if math.Float32bits(part.Data[p*4+j]) != math.Float32bits(want.Data[p*cout+4+j]) {
						t.Fatalf("np %d: pixel %d output %d: %v, Linear %v", np, p, 4+j, part.Data[p*4+j], want.Data[p*cout+4+j])
					}
				}
			}
			g.Release()
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("LinearTo accepted an output of the wrong width")
		}
	}()
	NewGraph(false).LinearTo(New(1, 1, 3, 2), New(4, 1, 1, 2), nil, New(1, 1, 3, 3))
}

// sqSums (the vector kernel where it runs) gives sqSumsGo's bits.
func TestSqSums(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, c := range []int{1, 3, 4, 8, 32, 36} {
		for _, n := range []int{0, 1, 7, 100} {
			x := make([]float32, n*c)
			for i := range x {
				x[i] = float32(r.NormFloat64() * math.Exp(r.NormFloat64()*3))
			}
			got, want := make([]float64, c), make([]float64, c)
			for j := range got {
				got[j] = r.Float64()
				want[j] = got[j]
			}
			sqSums(got, x, c)
			sqSumsGo(want, x, c)
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("c %d n %d column %d: %v, want %v", c, n, j, got[j], want[j])
				}
			}
		}
	}
}
