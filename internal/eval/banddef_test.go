package eval

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// nearest (run_test.go) is a fixed reconstruction operator W_s: it commutes
// with every affine band map, so r and Delta must be zero.

// bandSensitive changes its output with the band count: it must give r > 0.
func bandSensitive(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	out, _ := nearest(lr, h, w)
	for i := range out.Data {
		out.Data[i] += 0.01 * float32(lr.B)
	}
	return out, nil
}

func banddefScene() *Scene {
	return CubeScene("toy", "AVIRIS", testrand.Cube(testrand.New(1, 2), 70, 64, 6))
}

func TestBandRedefinitionFixedOperator(t *testing.T) {
	res, err := BandRedefinition(context.Background(), []*Scene{banddefScene()}, MethodFunc{Label: "nearest", Fn: nearest}, BandDefConfig{Factor: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 {
		t.Fatalf("%d rows, want 4", len(res.Rows))
	}
	for _, row := range res.Rows {
		if len(row.R) != 1 || row.MedianR > 1e-5 || math.Abs(row.MeanDelta) > 1e-3 {
			t.Fatalf("%s: r %v, Delta %v: a fixed W_s must commute with band maps", row.Transform, row.R, row.Delta)
		}
	}
	md := string(BandDefMarkdown(res))
	if !strings.Contains(md, "| toy (6) |") || !strings.Contains(md, "Botswana (145)") {
		t.Fatalf("markdown:\n%s", md)
	}
}

func TestBandRedefinitionDetectsChange(t *testing.T) {
	res, err := BandRedefinition(context.Background(), []*Scene{banddefScene()}, MethodFunc{Label: "sensitive", Fn: bandSensitive}, BandDefConfig{Factor: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range res.Rows {
		if row.Transform == "subset" || row.Transform == "merge" { // 6 -> 3 bands changes the added constant
			if !(row.MedianR > 0.01) {
				t.Fatalf("%s: r = %v, want > 0 for a band-count-dependent method", row.Transform, row.MedianR)
			}
		}
	}
	if _, err := BandRedefinition(context.Background(), []*Scene{banddefScene()}, MethodFunc{Label: "n", Fn: nearest}, BandDefConfig{}); err == nil {
		t.Fatal("factor 0 accepted")
	}
}

// A cancelled context stops the band redefinition and the prior test before
// their next image, with the context's error.
func TestBandDefPriorCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BandRedefinition(ctx, []*Scene{banddefScene()}, MethodFunc{Label: "nearest", Fn: nearest}, BandDefConfig{Factor: 4, Seed: 3}); !errors.Is(err, context.Canceled) {
		t.Errorf("BandRedefinition: %v, want context.Canceled", err)
	}
	if _, err := Prior(ctx, []*Scene{banddefScene()}, PriorConfig{Factors: []float64{2}}); !errors.Is(err, context.Canceled) {
		t.Errorf("Prior: %v, want context.Canceled", err)
	}
}
