package gemm

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"

	"github.com/omnihsr/omnihsr/gemm/internal/blocked"
	"github.com/omnihsr/omnihsr/internal/par"
)

// Sgemm computes C = alpha*op(A)*op(B) + beta*C for row-major matrices, as
// cblas_sgemm(CblasRowMajor, ...). op(A) is m x k, op(B) is k x n, C is m x n.
// lda, ldb and ldc are the row strides of A, B and C as stored. When beta is
// zero C is not read (NaN in C does not propagate).
//
// Large products are split over Threads() goroutines, each running the
// single-threaded kernel on a block of rows (or columns) of C; the result
// is the same for any split. Sgemm is safe
// for concurrent use; callers that already run one product per core should
// call SgemmSerial instead.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkArgs(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	nt := Threads()
	if nt <= 1 || 2*float64(m)*float64(n)*float64(k) < parallelMinFlops {
		blocked.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	parallel(nt, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// SgemmSerial is Sgemm on the calling goroutine only: it never starts
// another goroutine or thread. Use it from code that already keeps every
// core busy, e.g. one goroutine per core each computing many small products.
// It is safe for concurrent use.
func SgemmSerial(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkArgs(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	blocked.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// parallelMinFlops is the size (2*m*n*k) under which Sgemm does not split
// the product: starting goroutines costs more than it saves.
const parallelMinFlops = 1 << 21

// Backend describes the kernel in use and the thread count, in the
// README's words: "Go assembly AVX-512 kernels, 2 threads", "Go assembly
// AVX + FMA kernels, ...", "Go assembly NEON kernels, ..." or "pure-Go
// kernels, ..." (omnihsr version and bench print it).
func Backend() string {
	name := "pure-Go kernels"
	switch k := blocked.Kernel(); k {
	case "avx512":
		name = "Go assembly AVX-512 kernels"
	case "avx":
		name = "Go assembly AVX + FMA kernels"
	case "neon":
		name = "Go assembly NEON kernels"
	case "go":
	default:
		name = k + " kernels"
	}
	return fmt.Sprintf("%s, %d threads", name, Threads())
}

// Kernel is the name of the kernel set in use: "avx512", "avx" (amd64),
// "neon" (arm64) or "go".
func Kernel() string { return blocked.Kernel() }

// Kernels lists the kernel sets this CPU and build can run, fastest first.
// "go" is always there.
func Kernels() []string { return blocked.Available() }

// Threads is the number of goroutines Sgemm splits a large product over.
func Threads() int {
	if n := threads.Load(); n > 0 {
		return int(n)
	}
	return runtime.GOMAXPROCS(0)
}

// SetThreads sets the number of goroutines Sgemm splits a large product
// over (n < 1 means runtime.GOMAXPROCS(0) at each call) and returns the
// previous value. Results do not depend on it.
func SetThreads(n int) int {
	if n < 1 {
		n = 0
	}
	old := int(threads.Swap(int32(n)))
	if old == 0 {
		old = runtime.GOMAXPROCS(0)
	}
	return old
}

// ErrKernel is returned by Use for a kernel set that is unknown or that
// this CPU cannot run.
var ErrKernel = errors.New("gemm: kernel not available")

// Use selects the kernel set by name: "auto" or "" (the fastest this CPU
// runs, the default), "avx512", "avx", "neon" or "go". All give the same bits
// (see the package documentation), so Use only changes speed; tests and
// benchmarks use it to compare kernels. It must not be called while
// products run. Commands read the choice from the environment variable
// OMNIHSR_GEMM in main; the package itself reads no environment.
func Use(kernel string) error {
	if !blocked.Use(kernel) {
		return fmt.Errorf("%w: %q (this CPU and build run %s)", ErrKernel, kernel, strings.Join(blocked.Available(), ", "))
	}
	return nil
}

var threads atomic.Int32 // 0: runtime.GOMAXPROCS(0)

// parallel splits C into nt blocks of rows (when m >= n) or of columns and
// runs the single-threaded kernel on the blocks concurrently.
func parallel(nt int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	splitM := m >= n
	size := n
	if splitM {
		size = m
	}
	// Blocks are multiples of the kernels' register tiles (rows: 6 or 12,
	// columns: 16 or 32) so that no block adds a partial tile.
	align := 32
	if splitM {
		align = 24
	}
	if size < 2*align {
		blocked.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	if nt > size/align {
		nt = size / align
	}
	step := (size + nt - 1) / nt
	step = (step + align - 1) / align * align
	blocks := (size + step - 1) / step
	block := func(i int) {
		lo := i * step
		hi := min(lo+step, size)
		blk := hi - lo
		var sa, sb, sc []float32
		mm, nn := m, n
		if splitM {
			mm = blk
			if transA {
				sa = a[lo:]
			} else {
				sa = a[lo*lda:]
			}
			sb = b
			sc = c[lo*ldc:]
		} else {
			nn = blk
			sa = a
			if transB {
				sb = b[lo*ldb:]
			} else {
				sb = b[lo:]
			}
			sc = c[lo:]
		}
		blocked.Sgemm(transA, transB, mm, nn, k, alpha, sa, lda, sb, ldb, beta, sc, ldc)
	}
	par.Run(blocks, block)
}

// checkArgs panics, as BLAS does, on dimensions that do not fit the slices.
func checkArgs(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	if m < 0 || n < 0 || k < 0 {
		panic(fmt.Sprintf("gemm: negative dimension m=%d n=%d k=%d", m, n, k))
	}
	ar, ac := m, k
	if transA {
		ar, ac = k, m
	}
	br, bc := k, n
	if transB {
		br, bc = n, k
	}
	if lda < max(1, ac) || ldb < max(1, bc) || ldc < max(1, n) {
		panic(fmt.Sprintf("gemm: bad stride lda=%d ldb=%d ldc=%d for m=%d n=%d k=%d", lda, ldb, ldc, m, n, k))
	}
	need := func(rows, cols, ld int) int {
		if rows == 0 || cols == 0 {
			return 0
		}
		return (rows-1)*ld + cols
	}
	if len(a) < need(ar, ac, lda) || len(b) < need(br, bc, ldb) || len(c) < need(m, n, ldc) {
		panic(fmt.Sprintf("gemm: slice too short: len(a)=%d len(b)=%d len(c)=%d for m=%d n=%d k=%d lda=%d ldb=%d ldc=%d",
			len(a), len(b), len(c), m, n, k, lda, ldb, ldc))
	}
}
