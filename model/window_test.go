package model

import (
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// A window of the output equals the same window of whole rows, no-data
// and bad bands included.
func TestOutputRenderWindow(t *testing.T) {
	lr := testrand.Cube(testrand.New(9, 8), 9, 8, 5)
	lr.Meta.DataIgnore, lr.Meta.HasDataIgnore = -1, true
	for b := range lr.B {
		lr.Set(2, 3, b, -1)
	}
	lr.Meta.BadBands = []bool{false, false, true, false, false}
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	e, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	for _, sz := range [][2]int{{36, 32}, {23, 19}} {
		o, err := e.Output(sz[0], sz[1])
		if err != nil {
			t.Fatal(err)
		}
		whole, err := o.Render()
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range [][4]int{{0, sz[0], 0, sz[1]}, {5, 17, 9, 14}, {8, 9, 11, 12}, {sz[0] - 3, sz[0], 0, 7}} {
			u0, u1, v0, v1 := w[0], w[1], w[2], w[3]
			got := make([]float32, (u1-u0)*(v1-v0)*lr.B)
			if err := o.RenderWindow(u0, u1, v0, v1, got); err != nil {
				t.Fatal(err)
			}
			for u := u0; u < u1; u++ {
				for v := v0; v < v1; v++ {
					for b := range lr.B {
						g, want := got[((u-u0)*(v1-v0)+v-v0)*lr.B+b], whole.At(u, v, b)
						if g != want {
							t.Fatalf("%v window %v: (%d, %d) band %d: %v, want %v", sz, w, u, v, b, g, want)
						}
					}
				}
			}
		}
		if err := o.RenderWindow(0, 1, 0, sz[1]+1, make([]float32, (sz[1]+1)*lr.B)); err == nil {
			t.Error("window past the last column: no error")
		}
	}
}
