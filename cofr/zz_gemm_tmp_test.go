package cofr

import (
	"fmt"
	"testing"

	"github.com/omnihsr/omnihsr/gemm"
)

func BenchmarkZZGemm(b *testing.B) {
	for _, c := range []struct {
		m, n, k int
		ta      bool
	}{{64, 31, 49, true}, {64, 16, 49, true}, {64, 15, 49, true}, {64, 103, 49, true}, {64, 96, 49, true}, {64, 7, 49, true}, {64, 224, 49, true}, {64, 200, 49, true}, {64, 192, 49, true}, {64, 8, 49, true}} {
		b.Run(fmt.Sprintf("%dx%dx%d-t%v", c.m, c.n, c.k, c.ta), func(b *testing.B) {
			a := make([]float32, c.m*c.k)
			bb := make([]float32, c.k*c.n)
			cc := make([]float32, c.m*c.n)
			for i := range a {
				a[i] = float32(i%13) * 0.1
			}
			for i := range bb {
				bb[i] = float32(i%7) * 0.1
			}
			lda := c.k
			if c.ta {
				lda = c.m
			}
			for range b.N {
				gemm.SgemmSerial(c.ta, false, c.m, c.n, c.k, 1, a, lda, bb, c.n, 0, cc, c.n)
			}
			b.ReportMetric(2*float64(c.m*c.n*c.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}
