package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

var benchShapes = []struct {
	name    string
	tA, tB  bool
	m, n, k int
}{
	{"Small/cell16x145x74", false, false, 16, 145, 74},
	{"Small/render64x31x49", true, false, 64, 31, 49},   // COFR's W^T X, A transposed
	{"Small/render64x145x49", true, false, 64, 145, 49}, // the same at 145 bands
	{"Small/chunk256x128x288", false, true, 256, 128, 288},
	{"Medium/conv8192x128x288", false, true, 8192, 128, 288},
	{"Medium/conv8192x32x1152", false, true, 8192, 32, 1152},
	{"Medium/dW128x288x8192", true, false, 128, 288, 8192},
	{"Large/1024", false, false, 1024, 1024, 1024},
}

func randSlice(r *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = r.Float32()*2 - 1
	}
	return s
}

// operands returns random A (m x k, or k x m with tA) and B (k x n, or
// n x k with tB), a zero m x n C, and the leading dimensions of A and B.
func operands(r *rand.Rand, tA, tB bool, m, n, k int) (a, b, c []float32, lda, ldb int) {
	a = randSlice(r, m*k)
	b = randSlice(r, k*n)
	c = make([]float32, m*n)
	lda, ldb = k, n
	if tA {
		lda = m
	}
	if tB {
		ldb = k
	}
	return a, b, c, lda, ldb
}

// benchGemm runs one kernel over benchShapes. Besides the mean it reports
// best-GFLOP/s, the rate of the fastest call: on a machine shared with
// other jobs the best of many short runs is the figure least disturbed by
// them. The table of every kernel side by side:
//
//	go test -run '^$' -bench 'Sgemm' ./gemm
func benchGemm(b *testing.B, kernel string, serial bool) {
	for _, sh := range benchShapes {
		b.Run(sh.name, func(b *testing.B) {
			defer Use("auto")
			if err := Use(kernel); err != nil {
				b.Skip(err)
			}
			r := rand.New(rand.NewPCG(1, 2))
			a, bb, c, lda, ldb := operands(r, sh.tA, sh.tB, sh.m, sh.n, sh.k)
			f := Sgemm
			if serial {
				f = SgemmSerial
			}
			best := time.Duration(math.MaxInt64)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				f(sh.tA, sh.tB, sh.m, sh.n, sh.k, 1, a, lda, bb, ldb, 0, c, sh.n)
				best = min(best, time.Since(t0))
			}
			flops := 2 * float64(sh.m) * float64(sh.n) * float64(sh.k)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			b.ReportMetric(flops/best.Seconds()/1e9, "best-GFLOP/s")
		})
	}
}

func BenchmarkSgemm(b *testing.B) {
	for _, k := range Kernels() {
		b.Run(k, func(b *testing.B) { benchGemm(b, k, false) })
	}
}

func BenchmarkSgemmSerial(b *testing.B) {
	for _, k := range Kernels() {
		b.Run(k, func(b *testing.B) { benchGemm(b, k, true) })
	}
}

// BenchmarkSgemmGonum is gonum's Sgemm on the same shapes, for
// comparison (it does not fuse its multiply-adds, so its bits differ).
func BenchmarkSgemmGonum(b *testing.B) {
	for _, sh := range benchShapes {
		b.Run(sh.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			a, bb, c, lda, ldb := operands(r, sh.tA, sh.tB, sh.m, sh.n, sh.k)
			ta, tb := blas.NoTrans, blas.NoTrans
			if sh.tA {
				ta = blas.Trans
			}
			if sh.tB {
				tb = blas.Trans
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				gonum.Implementation{}.Sgemm(ta, tb, sh.m, sh.n, sh.k, 1, a, lda, bb, ldb, 0, c, sh.n)
			}
			flops := 2 * float64(sh.m) * float64(sh.n) * float64(sh.k)
			b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
		})
	}
}

// BenchmarkConcurrentCells models the COFR renderer: two goroutines, each
// running many small products of (s*s target pixels) x B x 74
// neighbours, with SgemmSerial, with Sgemm, and (OpenBLAS) with the
// library's own two threads inside each call.
func BenchmarkConcurrentCells(b *testing.B) {
	const bands, nb, per = 145, 74, 64
	for _, s := range []int{4, 16} {
		for _, v := range []struct {
			name   string
			serial bool
		}{
			{"SgemmSerial", true},
			{"Sgemm", false},
		} {
			b.Run(fmt.Sprintf("x%d/%s", s, v.name), func(b *testing.B) {
				f := Sgemm
				if v.serial {
					f = SgemmSerial
				}
				m := s * s
				r := rand.New(rand.NewPCG(1, 2))
				w := randSlice(r, m*nb)
				x := randSlice(r, nb*bands)
				outs := [2][]float32{make([]float32, m*bands), make([]float32, m*bands)}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					var wg sync.WaitGroup
					for gr := 0; gr < 2; gr++ {
						wg.Add(1)
						go func() {
							defer wg.Done()
							for j := 0; j < per; j++ {
								f(false, false, m, bands, nb, 1, w, nb, x, bands, 0, outs[gr], bands)
							}
						}()
					}
					wg.Wait()
				}
				fl := 2 * 2 * per * float64(m*bands*nb) * float64(b.N)
				b.ReportMetric(fl/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
