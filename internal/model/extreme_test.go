package model

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestUpscaleExtremeMagnitudes (issue 29): a cube scaled to 1e-40
// (float32 denormals) is upscaled, to finite values scaled alike (it failed
// inside COFR with "OffY is NaN": the input scale, 1/mean, overflowed
// float32); one sample at 3e38 in a valid cube never gives NaN samples.
func TestUpscaleExtremeMagnitudes(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	base := testrand.Cube(testrand.New(29, 1), 8, 8, 5)
	for i := range base.Data {
		base.Data[i] += 0.5
	}
	t.Run("denormal", func(t *testing.T) {
		lr := base.Clone()
		for i := range lr.Data {
			lr.Data[i] *= 1e-40
		}
		out, err := m.Upscale(lr, 16, 16)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range out.Data {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) || math.Abs(float64(v)) > 1e-37 {
				t.Fatalf("sample %d = %v, want a finite value of the input's magnitude", i, v)
			}
		}
	})
	t.Run("3e38", func(t *testing.T) {
		lr := base.Clone()
		lr.Data[3*lr.W*lr.B+4*lr.B+2] = 3e38
		out, err := m.Upscale(lr, 16, 16)
		if err == nil {
			t.Fatalf("upscaled (NaN samples: %v); want a refusal naming the sample", slices.ContainsFunc(out.Data, func(v float32) bool { return v != v }))
		}
		if !errors.Is(err, hsi.ErrMagnitude) || !strings.Contains(err.Error(), "sample 3e+38 at row 3, column 4, band 2") {
			t.Errorf("error %q: want it to name the sample 3e+38 at row 3, column 4, band 2", err)
		}
	})
}
