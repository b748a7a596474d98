package model

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestEncodeProgress checks that an encoding with a progress callback is the
// encoding without it, bit for bit, and that the callback rises steadily
// to a total that does not change within the encoding: for a clean input,
// a noisy one (which the pair hands to its companion) and a self-ensemble
// of a non-square input (whose transposed views have other row counts).
func TestEncodeProgress(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	r := testrand.New(31, 8)
	clean, err := hsi.New(20, 14, 6)
	if err != nil {
		t.Fatal(err)
	}
	for y := 0; y < clean.H; y++ {
		for x := 0; x < clean.W; x++ {
			for b := 0; b < clean.B; b++ {
				clean.Data[(y*clean.W+x)*clean.B+b] = float32(1 + 0.3*math.Sin(0.4*float64(y)+0.1*float64(b)) + 0.2*math.Cos(0.3*float64(x)))
			}
		}
	}
	noisy := clean.Clone()
	for i := range noisy.Data {
		noisy.Data[i] += float32(0.2 * r.NormFloat64())
	}
	type call struct{ done, total int }
	for _, tc := range []struct {
		name     string
		lr       *hsi.Cube
		ensemble int
		routed   bool
	}{
		{"clean", clean, 0, false},
		{"noisy", noisy, 0, true},
		{"self-ensemble", clean, 8, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls []call
			opt := EncodeOptions{Progress: func(done, total int) { calls = append(calls, call{done, total}) }}
			var want, got []float32
			if tc.ensemble > 0 {
				a, err := m.EncodeEnsemble(tc.lr, tc.ensemble)
				if err != nil {
					t.Fatal(err)
				}
				b, err := m.EncodeEnsembleContext(context.Background(), tc.lr, tc.ensemble, opt)
				if err != nil {
					t.Fatal(err)
				}
				for i := range a.views {
					want = append(want, a.views[i].feat.Data...)
					got = append(got, b.views[i].feat.Data...)
				}
			} else {
				a, err := m.EncodeImage(tc.lr)
				if err != nil {
					t.Fatal(err)
				}
				b, err := m.EncodeImageContext(context.Background(), tc.lr, opt)
				if err != nil {
					t.Fatal(err)
				}
				if b.Noise().Routed != tc.routed {
					t.Fatalf("routed %v, want %v", b.Noise().Routed, tc.routed)
				}
				want, got = a.feat.Data, b.feat.Data
			}
			if !slices.Equal(got, want) {
				t.Fatal("the encoding with a progress callback differs from the one without")
			}
			stages := 2 + 3*m.Enc.Config.Blocks
			if max(1, tc.ensemble)*stages > len(calls) {
				t.Fatalf("%d progress calls, want at least one per stage (%d)", len(calls), max(1, tc.ensemble)*stages)
			}
			total := calls[0].total
			for i, c := range calls {
				if c.total != total {
					t.Fatalf("call %d: total %d, want %d throughout", i, c.total, total)
				}
				if c.done <= 0 || (i > 0 && c.done <= calls[i-1].done) {
					t.Fatalf("call %d: done %d after %v: want a steady rise", i, c.done, calls[max(0, i-1)])
				}
			}
			if last := calls[len(calls)-1]; last.done != total {
				t.Fatalf("last call %v: want done == total", last)
			}
		})
	}
}
