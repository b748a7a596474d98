package model

import (
	"math"
	"testing"

	"github.com/omnihsr/omnihsr/internal/nn"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// On a 512 x 512 x 128 input the band-by-band inference (bands of 64 rows
// with the default chunk budget) gives the whole-image result of the
// network to float32 rounding: the design's answer to tiling (ESSA's
// global sums are accumulated over all bands, convolutions get halos).
// Only the primitives need comparing: COFR renders any band of output
// rows bit-identically to the whole image (cofr tests).
func TestBandedMatchesWholeImage512(t *testing.T) {
	if testing.Short() {
		t.Skip("512x512 encoder twice: skipped in -short")
	}
	m, err := New(DefaultConfig(), 7)
	if err != nil {
		t.Fatal(err)
	}
	randomise(m, 21, 0.02)
	lr := testrand.Cube(testrand.New(5, 1), 512, 512, 128)
	z, err := m.Input(lr)
	if err != nil {
		t.Fatal(err)
	}
	g := nn.NewGraph(false)
	whole := m.HeadRaw(g, m.Encode(g, z), 4, 0)
	e, err := m.EncodeImage(lr)
	if err != nil {
		t.Fatal(err)
	}
	if rows := chunkRows(512, 32*m.Cfg.Encoder.FFNRatio); rows >= 512 {
		t.Fatalf("bands of %d rows: the test would not exercise banding", rows)
	}
	banded := m.headBands(e.feat, 4, 0)
	var worst, scale float64
	for i, v := range banded.Data {
		worst = max(worst, math.Abs(float64(v-whole.Data[i])))
		scale = max(scale, math.Abs(float64(whole.Data[i])))
	}
	t.Logf("largest difference %.3g (largest value %.3g)", worst, scale)
	if worst > 1e-4*max(1, scale) {
		t.Fatalf("banded inference differs from the whole image by %g", worst)
	}
}
