//go:build !cgo || !(linux || freebsd || darwin)

package gemm

import "errors"

const cgoEnabled = false

type openblas struct {
	lib     string
	config  string
	core    string
	threads int
}

func (o *openblas) name() string { return "openblas" }

func (o *openblas) sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	panic("gemm: OpenBLAS is not available in a build without cgo")
}

// loadOpenBLAS always fails: without cgo there is no dlopen. The program
// uses the pure-Go kernel.
func loadOpenBLAS(names []string) (*openblas, error) {
	return nil, errors.New("gemm: OpenBLAS not loaded: built without cgo (CGO_ENABLED=0)")
}

func setLibThreads(n int) {}
