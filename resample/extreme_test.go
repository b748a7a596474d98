package resample

import (
	"errors"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestUpsampleOverflow (issue 29): samples at 3e38 make bicubic overshoot
// past float32; the error names the largest sample as it is stored
// (before, the output held +Inf, which a later check named as if the input
// held it).
func TestUpsampleOverflow(t *testing.T) {
	c := hsi.MustNew(6, 6, 2)
	for i := range c.Data {
		c.Data[i] = 1
	}
	for _, p := range [][2]int{{2, 3}, {2, 4}, {3, 3}, {3, 4}} {
		c.Set(p[0], p[1], 1, 3e38)
	}
	for _, size := range [][2]int{{12, 12}, {12, 6}, {6, 12}} {
		out, err := Upsample(c, size[0], size[1])
		if err == nil {
			t.Fatalf("%v: no error (output finite: %v)", size, out.CheckFinite() == nil)
		}
		if !errors.Is(err, hsi.ErrMagnitude) || !strings.Contains(err.Error(), "sample 3e+38 at row 2, column 3, band 1") || strings.Contains(err.Error(), "Inf") {
			t.Errorf("%v: error %q: want it to name the sample 3e+38 at row 2, column 3, band 1", size, err)
		}
	}
	// streamed a band of rows at a time, as the bicubic method reads a file
	up, err := NewRowUpsampler(c.H, c.W, c.B, 12, 12, func(y0, y1 int, dst []float32) error {
		copy(dst, c.Data[y0*c.W*c.B:y1*c.W*c.B])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var rowErr error
	dst := make([]float32, 2*12*c.B)
	for u := 0; u < 12 && rowErr == nil; u += 2 {
		rowErr = up.RenderRows(u, u+2, dst)
	}
	if !errors.Is(rowErr, hsi.ErrMagnitude) || !strings.Contains(rowErr.Error(), "sample 3e+38 at row 2, column 3, band 1") {
		t.Errorf("rows: error %v: want it to name the sample 3e+38 at row 2, column 3, band 1", rowErr)
	}
	// 1e37 stays finite: accepted
	for _, p := range [][2]int{{2, 3}, {2, 4}, {3, 3}, {3, 4}} {
		c.Set(p[0], p[1], 1, 1e37)
	}
	if _, err := Upsample(c, 12, 12); err != nil {
		t.Fatal(err)
	}
}
