// Package gemm is OmniHSR's single-precision matrix multiply,
// C = alpha*op(A)*op(B) + beta*C on row-major matrices (the contract of
// cblas_sgemm with CblasRowMajor), in pure Go and Go assembly: no cgo, no
// library to install, and the same build cross-compiles to every
// platform Go supports.
//
// # Kernels
//
// A blocked GEMM (BLIS/GotoBLAS style) runs one of four micro-kernels,
// chosen at start-up from the CPU and the architecture:
//
//	avx512   12 x 32 tiles (AVX-512F), with avx for small products
//	avx      6 x 16 tiles (AVX + FMA; amd64)
//	neon     6 x 16 tiles (NEON FMLA; every arm64 CPU)
//	go       4 x 4 tiles in Go (other architectures, amd64 without FMA,
//	         and any build with the purego tag)
//
// Kernel names the one in use, Kernels those this CPU runs, and Use
// selects one (for tests and benchmarks; the default is the fastest).
// The package reads no environment variable: the omnihsr commands read
// OMNIHSR_GEMM in main and call Use.
//
// # Same bits everywhere
//
// Every kernel computes every element of C the same way: C scaled by
// beta, then, for each block of 256 steps of the inner dimension, a
// chain of fused multiply-adds from zero (the Go kernel emulates the
// instruction exactly with internal/fma), times alpha, rounded, added to
// C. Nothing depends on the tile an element falls in, on the kernel, on
// how a product is split over threads, or on the CPU: Sgemm and
// SgemmSerial give the same bits for any GOMAXPROCS, any Threads and on
// amd64 and arm64 alike. The tests check each kernel against that
// arithmetic written element by element, and each assembly kernel against
// the Go kernel, call by call, with special values (signed zeros,
// subnormals, infinities, NaNs).
//
// # Threads
//
// Sgemm splits a large product into Threads() blocks of rows (or columns)
// of C, one goroutine each. Callers that already run one goroutine per
// core (the COFR renderer's small per-cell products, the convolution's
// im2col chunks) call SgemmSerial, which runs on the calling goroutine
// only. Both functions are safe for concurrent use.
package gemm
