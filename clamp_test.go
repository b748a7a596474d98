package omnihsr

import (
	"context"
	"errors"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// ClampInput keeps every band of Upscale's output within the band's input
// range, no-data excluded, and leaves no-data as no-data; the unclamped
// output of the same step edges overshoots, so the test can fail.
func TestUpscaleClampInput(t *testing.T) {
	const H, W, B, nd = 12, 12, 3, -1
	c := &hsi.Cube{H: H, W: W, B: B, Data: make([]float32, H*W*B)}
	for y := range H {
		for x := range W {
			for b := range B {
				v := float32(b + 1)
				if (x+y/3)%6 < 3 {
					v *= 4
				}
				c.Data[(y*W+x)*B+b] = v
			}
		}
	}
	c.Data[5*B+1] = nd
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = nd, true
	lo, hi := bandRanges(c)
	for b := range B {
		if lo[b] != float32(b+1) || hi[b] != float32(4*(b+1)) {
			t.Fatalf("band %d range %g..%g, want %d..%d (no-data excluded)", b, lo[b], hi[b], b+1, 4*(b+1))
		}
	}
	outside := func(o *hsi.Cube) (n, ndOut int) {
		for i, v := range o.Data {
			if v == nd {
				ndOut++
			} else if v < lo[i%B] || v > hi[i%B] {
				n++
			}
		}
		return n, ndOut
	}
	for _, m := range []Method{MethodOmniHSR, MethodBicubic} {
		free, _, err := Upscale(context.Background(), c, Options{Scale: 3, Method: m})
		if err != nil {
			t.Fatal(err)
		}
		got, res, err := Upscale(context.Background(), c, Options{Scale: 3, Method: m, Clamp: ClampInput})
		if err != nil {
			t.Fatal(err)
		}
		n0, nd0 := outside(free)
		n1, nd1 := outside(got)
		if n0 == 0 || n1 != 0 || res.InputClamped != int64(n0) || nd0 == 0 || nd1 != nd0 {
			t.Errorf("%s: %d samples outside without clamp, %d with (InputClamped %d); no-data %d and %d", m, n0, n1, res.InputClamped, nd0, nd1)
		}
	}
	if _, _, err := Upscale(context.Background(), c, Options{Scale: 2, Clamp: 7}); !errors.Is(err, ErrOption) {
		t.Errorf("Clamp 7: %v, want ErrOption", err)
	}
}

func TestParseClamp(t *testing.T) {
	for _, c := range []Clamp{ClampNone, ClampInput, ClampType} {
		if got, err := ParseClamp(c.String()); err != nil || got != c {
			t.Errorf("ParseClamp(%q) = %v, %v", c.String(), got, err)
		}
	}
	if got, err := ParseClamp(""); err != nil || got != ClampNone {
		t.Errorf(`ParseClamp("") = %v, %v`, got, err)
	}
	if _, err := ParseClamp("physical"); !errors.Is(err, ErrOption) {
		t.Errorf("ParseClamp(physical): %v, want ErrOption", err)
	}
}
