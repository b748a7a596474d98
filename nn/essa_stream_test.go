package nn

import (
	"math"
	"math/rand/v2"
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
	for _, ch := range chunks {
		got, err := s.Apply(FromData(1, ch[1]-ch[0], w, 3*c, x.Data[ch[0]*w*3*c:ch[1]*w*3*c]))
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
	if _, err := NewESSAStream(c).Apply(x); err == nil {
		t.Fatal("Apply before Finish accepted")
	}
}
