package gemm

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
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
// single-threaded kernel on a block of rows (or columns) of C. Sgemm is safe
// for concurrent use; callers that already run one product per core should
// call SgemmSerial instead.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkArgs(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	if m == 0 || n == 0 {
		return
	}
	be := current()
	nt := int(threads.Load())
	if nt <= 1 || 2*float64(m)*float64(n)*float64(k) < parallelMinFlops {
		be.run(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	parallel(be, nt, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
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
	current().run(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// parallelMinFlops is the size (2*m*n*k) under which Sgemm does not split
// the product: starting goroutines costs more than it saves.
const parallelMinFlops = 1 << 21

// Backend names the implementation in use, e.g.
// "openblas (libopenblas.so.0, OpenBLAS 0.3.21 ..., 2 threads)" or
// "pure-go (2 threads)".
func Backend() string {
	be := current()
	nt := threads.Load()
	if be.ob != nil {
		cfg := ""
		if be.ob.config != "" {
			cfg = ", " + strings.TrimSpace(be.ob.config)
		}
		if be.ob.core != "" {
			cfg += ", core " + be.ob.core
		}
		return fmt.Sprintf("openblas (%s%s, %d threads)", be.ob.lib, cfg, nt)
	}
	s := fmt.Sprintf("pure-go (%s, %d threads)", blocked.Kernel(), nt)
	if be.note != "" {
		s += "; " + be.note
	}
	return s
}

// Name is the short name of the backend in use: "openblas" or "pure-go".
func Name() string {
	if current().ob != nil {
		return "openblas"
	}
	return "pure-go"
}

// Threads is the number of goroutines Sgemm splits a large product over.
func Threads() int { return int(threads.Load()) }

// SetThreads sets the number of goroutines Sgemm splits a large product
// over (n < 1 means runtime.GOMAXPROCS(0)) and returns the previous value.
func SetThreads(n int) int {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return int(threads.Swap(int32(n)))
}

// Use selects the backend: "openblas" (an error if the library cannot be
// loaded), "go" (the pure-Go kernel) or "auto" (OpenBLAS when it loads and
// runs vector kernels of its own, else pure Go: an OpenBLAS that does not
// recognise the CPU falls back to its generic SSE kernels, which are
// several times slower than the pure-Go AVX2/AVX-512 kernel). It is meant for programs and benchmarks that compare backends;
// it must not be called while products are running. The environment
// variable OMNIHSR_GEMM sets the initial choice the same way.
func Use(name string) error {
	switch name {
	case "go", "pure-go", "purego":
		active.Store(&backend{note: "requested (OMNIHSR_GEMM=go or gemm.Use)"})
		return nil
	case "openblas", "auto", "":
		ob, err := openBLAS()
		if err != nil {
			if name == "openblas" {
				return err
			}
			active.Store(&backend{note: err.Error()})
			return nil
		}
		if name != "openblas" && !preferOpenBLAS(ob.core, blocked.Kernel()) {
			active.Store(&backend{note: fmt.Sprintf("OpenBLAS found but runs its generic %s kernels on this CPU, slower than the pure-Go kernel (OMNIHSR_GEMM=openblas forces it)", ob.core)})
			return nil
		}
		active.Store(&backend{ob: ob})
		return nil
	}
	return fmt.Errorf("gemm: unknown backend %q (want openblas, go or auto)", name)
}

// genericCores are OpenBLAS core names without AVX2 kernels: what
// OpenBLAS's dynamic dispatch falls back to on a CPU it does not
// recognise (often a virtual machine's), or an old CPU.
var genericCores = map[string]bool{
	"prescott": true, "katmai": true, "coppermine": true, "northwood": true, "banias": true,
	"core2": true, "penryn": true, "dunnington": true, "nehalem": true, "atom": true,
	"sandybridge": true, "opteron": true, "opteron_sse3": true, "barcelona": true,
	"bobcat": true, "bulldozer": true, "piledriver": true, "steamroller": true, "excavator": true,
}

// preferOpenBLAS decides "auto": OpenBLAS unless its kernels are generic
// ones while the pure-Go kernel (described by goKernel, blocked.Kernel())
// has AVX2 or AVX-512 code for this CPU. An unknown core name (an OpenBLAS
// without openblas_get_corename) keeps OpenBLAS.
func preferOpenBLAS(core, goKernel string) bool {
	if !genericCores[strings.ToLower(strings.TrimSpace(core))] {
		return true
	}
	return !strings.Contains(goKernel, "AVX")
}

// backend is the implementation chosen at start-up (or by Use).
type backend struct {
	ob   *openblas // nil: pure Go
	note string    // why OpenBLAS is not used
}

func (be *backend) run(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 || alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	if be.ob != nil {
		be.ob.sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	blocked.Sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

var (
	active  atomic.Pointer[backend]
	threads atomic.Int32

	obOnce sync.Once
	obLib  *openblas
	obErr  error
)

// libNames are the names tried by dlopen, in order. OMNIHSR_OPENBLAS
// replaces them with one file name or path.
func libNames() []string {
	if p := os.Getenv("OMNIHSR_OPENBLAS"); p != "" {
		return []string{p}
	}
	if runtime.GOOS == "darwin" {
		return []string{"libopenblas.0.dylib", "libopenblas.dylib"}
	}
	return []string{"libopenblas.so.0", "libopenblas.so"}
}

func openBLAS() (*openblas, error) {
	obOnce.Do(func() { obLib, obErr = loadOpenBLAS(libNames()) })
	return obLib, obErr
}

func current() *backend {
	if be := active.Load(); be != nil {
		return be
	}
	initBackend()
	return active.Load()
}

var initOnce sync.Once

func initBackend() {
	initOnce.Do(func() {
		threads.CompareAndSwap(0, int32(runtime.GOMAXPROCS(0)))
		if active.Load() != nil {
			return
		}
		env := os.Getenv("OMNIHSR_GEMM")
		if err := Use(env); err != nil {
			// OMNIHSR_GEMM=openblas without the library, or an unknown
			// value: fall back to pure Go and say why in Backend().
			active.CompareAndSwap(nil, &backend{note: err.Error()})
		}
	})
}

func init() { initBackend() }

func scaleC(m, n int, beta float32, c []float32, ldc int) {
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		if beta != 1 {
			for j := range row {
				row[j] *= beta
			}
		}
	}
}

// parallel splits C into nt blocks of rows (when m >= n) or of columns and
// runs the single-threaded kernel on the blocks concurrently.
func parallel(be *backend, nt int, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
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
		be.run(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
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
		be.run(transA, transB, mm, nn, k, alpha, sa, lda, sb, ldb, beta, sc, ldc)
	}
	if be.ob == nil {
		par.Run(blocks, block)
		return
	}
	// With OpenBLAS every block runs in its own goroutine, the caller's
	// included: a cgo call made by the caller would hold its P while a
	// helper waits in that P's run queue.
	var wg sync.WaitGroup
	for i := range blocks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			block(i)
		}()
	}
	wg.Wait()
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
