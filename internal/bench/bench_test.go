package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/model"
)

func TestRunSmall(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	res, err := Run(context.Background(), m, Config{Size: 8, Bands: []int{3, 5}, Factors: []float64{2, 2.5}, Runs: 2, Warmup: -1,
		Progress: func(done, total int) { calls++; _ = total }})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rows) != 4 || calls != 4 {
		t.Fatalf("%d rows, %d progress calls, want 4 and 4", len(res.Rows), calls)
	}
	r := res.Find(5, 2.5)
	if r == nil || r.OutH != 20 || r.ModelMS <= 0 || r.NoisyMS <= 0 || r.BicubicMS <= 0 {
		t.Fatalf("row B=5 x2.5 = %+v", r)
	}
	md := res.Markdown()
	if !strings.Contains(md, "| 5 | x2.5 | 20x20 |") || res.Params != m.NumParams() {
		t.Fatalf("markdown:\n%s", md)
	}
}

func TestRunErrors(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Config{{Size: -1}, {Bands: []int{0}}, {Factors: []float64{0}}, {Runs: -2}} {
		if _, err := Run(context.Background(), m, c); err == nil {
			t.Errorf("Run(%+v) gave no error", c)
		}
	}
	if _, err := Run(context.Background(), nil, Config{}); err == nil {
		t.Error("nil model gave no error")
	}
}

// The latency table's clean input is rendered by the default pair's model
// for clean inputs and its noisy copy by the noise-aware model, at every
// band count of the table.
func TestInputRoutes(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2026, 1))
	for _, b := range DefaultBands {
		clean, noisy, err := Input(32, b, r)
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name   string
			c      *hsi.Cube
			routed bool
		}{{"clean", clean, false}, {"noisy", noisy, true}} {
			nz, err := m.NoiseLevel(tc.c, nil)
			if err != nil {
				t.Fatal(err)
			}
			e, err := m.EncodeImage(tc.c)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("B=%d %s: feature %.2f", b, tc.name, nz.Feature)
			if e.Noise().Routed != tc.routed {
				t.Errorf("B=%d %s input: routed %v (noise feature %.2f)", b, tc.name, e.Noise().Routed, nz.Feature)
			}
		}
	}
}

// BenchmarkLatency times the latency table's cells (Run) as Go benchmarks:
// the default pair on the clean and on the noisy input, 32 x 32, tiered by
// band count and factor.
func BenchmarkLatency(b *testing.B) {
	m, err := model.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, bands := range []int{31, 145} {
		clean, noisy, err := Input(32, bands, rand.New(rand.NewPCG(2026, 1)))
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range []int{4, 16} {
			for _, in := range []struct {
				name string
				c    *hsi.Cube
			}{{"clean", clean}, {"noisy", noisy}} {
				b.Run(fmt.Sprintf("B%d_x%d_%s", bands, s, in.name), func(b *testing.B) {
					for i := 0; i < b.N; i++ {
						if _, err := m.Upscale(in.c, 32*s, 32*s); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
