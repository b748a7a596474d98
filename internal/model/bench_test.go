package model

import (
	"fmt"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// BenchmarkUpscale times the whole model (C_B, encoder, FiLM, head, COFR)
// on a 32 x 32 input, the setting of the paper's latency table.
func BenchmarkUpscale(b *testing.B) {
	m, err := New(DefaultConfig(), 1)
	if err != nil {
		b.Fatal(err)
	}
	benchUpscale(b, m)
}

// BenchmarkUpscaleDefault is BenchmarkUpscale with the shipped weights,
// whose non-zero operators make COFR compute its field (the zero-initialised
// model of BenchmarkUpscale renders bicubic). Its random input is noise, so
// the pair renders it with the noise-aware model and measures its field
// gain; bench's BenchmarkLatency times the latency table's clean input.
func BenchmarkUpscaleDefault(b *testing.B) {
	m, err := Default()
	if err != nil {
		b.Fatal(err)
	}
	benchUpscale(b, m)
}

func benchUpscale(b *testing.B, m *Model) {
	for _, bands := range []int{31, 145} {
		for _, s := range []int{4, 16} {
			lr := testrand.Cube(testrand.New(1, 1), 32, 32, bands)
			b.Run(fmt.Sprintf("B%d_x%d", bands, s), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if _, err := m.Upscale(lr, 32*s, 32*s); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkEncode times C_B and the encoder alone on a 32 x 32 input.
func BenchmarkEncode(b *testing.B) {
	m, _ := New(DefaultConfig(), 1)
	lr := testrand.Cube(testrand.New(1, 1), 32, 32, 31)
	for i := 0; i < b.N; i++ {
		if _, err := m.EncodeImage(lr); err != nil {
			b.Fatal(err)
		}
	}
}
