// Package gemm is OmniHSR's single-precision matrix multiply,
// C = alpha*op(A)*op(B) + beta*C on row-major matrices (the contract of
// cblas_sgemm with CblasRowMajor).
//
// # Backends
//
// At start-up the package looks for OpenBLAS with dlopen
// ("libopenblas.so.0", then "libopenblas.so"; on macOS the .dylib names)
// and resolves cblas_sgemm. Nothing has to be set at build time: a binary
// built on a machine without OpenBLAS uses it on a machine that has it.
// When the library is missing, or the program was built without cgo
// (CGO_ENABLED=0), products run on the pure-Go kernel (gonum's Sgemm).
// Backend reports which one is in use, and why OpenBLAS is not.
//
// Environment variables:
//
//	OMNIHSR_GEMM=go          use the pure-Go kernel even if OpenBLAS loads
//	OMNIHSR_GEMM=openblas    require OpenBLAS (if it cannot load, pure Go is
//	                         used and Backend says why)
//	OMNIHSR_OPENBLAS=PATH    dlopen this file instead of the default names
//
// Use switches the backend from a program (benchmarks compare both).
//
// # Threads
//
// OpenBLAS is set to one thread; parallelism is this package's: Sgemm
// splits a large product into Threads() blocks of rows (or columns) of C,
// one goroutine each, so each core runs one single-threaded kernel. That
// keeps the work of callers that already run one goroutine per core (the
// COFR renderer's small per-cell products, the convolution's im2col
// chunks) from being oversubscribed: they call SgemmSerial, which runs on
// the calling goroutine only. Both functions are safe for concurrent use.
// Results are deterministic for a given backend, thread count and shape.
package gemm
