package gemm

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/omnihsr/omnihsr/gemm/internal/refgemm"
)

// withKernel runs f with the kernel set selected, restoring the default.
func withKernel(t testing.TB, name string, f func()) {
	t.Helper()
	defer Use("auto")
	if err := Use(name); err != nil {
		t.Fatalf("kernel %s: %v", name, err)
	}
	f()
}

type gemmCase struct {
	tA, tB           bool
	m, n, k          int
	padA, padB, padC int
	alpha, beta      float32
}

func gemmCases() []gemmCase {
	var cs []gemmCase
	for _, tA := range []bool{false, true} {
		for _, tB := range []bool{false, true} {
			for _, d := range [][3]int{{1, 1, 1}, {3, 5, 7}, {17, 33, 9}, {64, 48, 40}, {130, 70, 300}, {5, 200, 1}, {300, 2, 33}} {
				cs = append(cs,
					gemmCase{tA, tB, d[0], d[1], d[2], 0, 0, 0, 1, 0},
					gemmCase{tA, tB, d[0], d[1], d[2], 3, 1, 2, -0.5, 1},
					gemmCase{tA, tB, d[0], d[1], d[2], 1, 2, 5, 2, 0.25},
				)
			}
		}
	}
	return cs
}

// runCase fills A, B and C, runs f and returns the result and the reference.
func runCase(cs gemmCase, f func(bool, bool, int, int, int, float32, []float32, int, []float32, int, float32, []float32, int)) (got, want []float32, scale []float64) {
	r := rand.New(rand.NewPCG(uint64(cs.m), uint64(cs.n*1000+cs.k)))
	ar, ac := cs.m, cs.k
	if cs.tA {
		ar, ac = cs.k, cs.m
	}
	br, bc := cs.k, cs.n
	if cs.tB {
		br, bc = cs.n, cs.k
	}
	lda, ldb, ldc := ac+cs.padA, bc+cs.padB, cs.n+cs.padC
	a := randSlice(r, ar*lda)
	b := randSlice(r, br*ldb)
	c0 := randSlice(r, cs.m*ldc)
	if cs.beta == 0 {
		for i := range c0 {
			c0[i] = float32(math.NaN()) // must not be read
		}
	}
	got = append([]float32(nil), c0...)
	want = append([]float32(nil), c0...)
	f(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, got, ldc)
	refgemm.Sgemm(cs.tA, cs.tB, cs.m, cs.n, cs.k, cs.alpha, a, lda, b, ldb, cs.beta, want, ldc)
	// scale[i] bounds the magnitude of the terms summed into element i,
	// for a rounding-aware tolerance.
	scale = make([]float64, len(want))
	for i := range scale {
		scale[i] = float64(cs.k)*math.Abs(float64(cs.alpha)) + math.Abs(float64(cs.beta))
	}
	return got, want, scale
}

func checkClose(t *testing.T, cs gemmCase, got, want []float32, scale []float64, ldc int) {
	t.Helper()
	for i := 0; i < cs.m; i++ {
		for j := 0; j < ldc; j++ {
			g, w := got[i*ldc+j], want[i*ldc+j]
			if j >= cs.n { // padding must be untouched
				if math.Float32bits(g) != math.Float32bits(w) {
					t.Fatalf("%+v: padding C[%d,%d] changed: %v -> %v", cs, i, j, w, g)
				}
				continue
			}
			if d := math.Abs(float64(g - w)); !(d <= 1e-5*scale[i*ldc+j]) {
				t.Fatalf("%+v: C[%d,%d] = %v, want %v", cs, i, j, g, w)
			}
		}
	}
}

func TestSgemmKernels(t *testing.T) {
	for _, be := range Kernels() {
		t.Run(be, func(t *testing.T) {
			withKernel(t, be, func() {
				for _, f := range []struct {
					name string
					fn   func(bool, bool, int, int, int, float32, []float32, int, []float32, int, float32, []float32, int)
				}{{"Sgemm", Sgemm}, {"SgemmSerial", SgemmSerial}} {
					for _, cs := range gemmCases() {
						got, want, scale := runCase(cs, f.fn)
						checkClose(t, cs, got, want, scale, cs.n+cs.padC)
					}
				}
			})
		})
	}
}

// TestSgemmParallelSplit covers the split of large products over
// goroutines, by rows and by columns, with every transpose.
func TestSgemmParallelSplit(t *testing.T) {
	old := SetThreads(3)
	defer SetThreads(old)
	for _, be := range Kernels() {
		t.Run(be, func(t *testing.T) {
			withKernel(t, be, func() {
				for _, tA := range []bool{false, true} {
					for _, tB := range []bool{false, true} {
						for _, d := range [][3]int{{257, 40, 130}, {40, 257, 130}, {100, 100, 120}} {
							cs := gemmCase{tA, tB, d[0], d[1], d[2], 1, 0, 3, 1.5, 0.5}
							got, want, scale := runCase(cs, Sgemm)
							checkClose(t, cs, got, want, scale, cs.n+cs.padC)
						}
					}
				}
			})
		})
	}
}

// TestKernelsAgree checks that every kernel this CPU runs gives the same
// bits as the Go kernel, with Sgemm split over 1, 2 and 3 goroutines.
func TestKernelsAgree(t *testing.T) {
	defer SetThreads(SetThreads(1))
	for _, d := range [][3]int{{256, 128, 288}, {64, 32, 1152}, {128, 288, 512}, {16, 145, 74}, {1, 31, 1}, {300, 40, 600}} {
		for _, tr := range [][2]bool{{false, false}, {false, true}, {true, false}, {true, true}} {
			cs := gemmCase{tr[0], tr[1], d[0], d[1], d[2], 0, 0, 0, 1, 0}
			var want []float32
			withKernel(t, "go", func() { want, _, _ = runCase(cs, SgemmSerial) })
			for _, kern := range Kernels() {
				for _, nt := range []int{1, 2, 3} {
					SetThreads(nt)
					var got []float32
					withKernel(t, kern, func() { got, _, _ = runCase(cs, Sgemm) })
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
							t.Fatalf("%v trans %v: kernel %s, %d threads: C[%d] = %v, go kernel %v", d, tr, kern, nt, i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestConcurrent runs many small and large products from several
// goroutines at once and checks each against the reference.
func TestConcurrent(t *testing.T) {
	for _, be := range Kernels() {
		t.Run(be, func(t *testing.T) {
			withKernel(t, be, func() {
				var wg sync.WaitGroup
				errs := make(chan string, 16)
				for w := 0; w < 4; w++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for it := 0; it < 20; it++ {
							cs := gemmCase{it%2 == 0, it%3 == 0, 16 + w, 74, 31 + it, 0, 0, 0, 1, 0}
							if it%5 == 0 {
								cs.m, cs.n, cs.k = 200, 64, 300
							}
							f := SgemmSerial
							if w%2 == 1 {
								f = Sgemm
							}
							got, want, scale := runCase(cs, f)
							for i := range got {
								if math.Abs(float64(got[i]-want[i])) > 1e-5*scale[i] {
									errs <- "mismatch"
									return
								}
							}
						}
					}()
				}
				wg.Wait()
				close(errs)
				for e := range errs {
					t.Fatal(e)
				}
			})
		})
	}
}

func TestZeroSizes(t *testing.T) {
	c := []float32{1, 2, 3, 4}
	Sgemm(false, false, 0, 2, 3, 1, nil, 3, make([]float32, 6), 2, 0, nil, 2)
	Sgemm(false, false, 2, 2, 0, 1, nil, 1, nil, 2, 0.5, c, 2)
	if c[0] != 0.5 || c[3] != 2 {
		t.Fatalf("k = 0 must scale C by beta, got %v", c)
	}
	Sgemm(false, false, 2, 2, 0, 1, nil, 1, nil, 2, 0, c, 2)
	if c[0] != 0 || c[3] != 0 {
		t.Fatalf("k = 0, beta = 0 must zero C, got %v", c)
	}
}

func TestBadArgsPanic(t *testing.T) {
	for _, f := range []func(){
		func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 3), 2, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() {
			Sgemm(false, false, 2, 2, 2, 1, make([]float32, 4), 1, make([]float32, 4), 2, 0, make([]float32, 4), 2)
		},
		func() { Sgemm(false, false, -1, 2, 2, 1, nil, 2, nil, 2, 0, nil, 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic on bad arguments")
				}
			}()
			f()
		}()
	}
}

func TestUseUnknown(t *testing.T) {
	if err := Use("cuda"); err == nil {
		t.Fatal("Use(cuda) succeeded")
	}
}

// TestUseNamesKernel checks that Use selects the kernel Kernel and
// Backend then report, and that an unavailable one is refused with
// ErrKernel.
func TestUseNamesKernel(t *testing.T) {
	// Without a call to Use, the fastest kernel runs.
	if Kernel() != Kernels()[0] {
		t.Fatalf("default kernel %q, want the fastest available, %q", Kernel(), Kernels()[0])
	}
	defer Use("auto")
	for _, k := range Kernels() {
		if err := Use(k); err != nil {
			t.Fatal(err)
		}
		want := map[string]string{"avx512": "Go assembly AVX-512 kernels, ", "avx": "Go assembly AVX + FMA kernels, ", "neon": "Go assembly NEON kernels, ", "go": "pure-Go kernels, "}[k]
		if Kernel() != k || want == "" || !strings.HasPrefix(Backend(), want) {
			t.Fatalf("Use(%q): Kernel %q, Backend %q (want the README's name, %q)", k, Kernel(), Backend(), want)
		}
	}
	if err := Use("avx9000"); !errors.Is(err, ErrKernel) {
		t.Fatalf("Use(avx9000) = %v, want ErrKernel", err)
	}
}
