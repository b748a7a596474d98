// Package blocked is the pure-Go (no cgo) single-precision GEMM of package
// gemm: a blocked GEMM in the style of BLIS/GotoBLAS. op(B) is packed into
// kc x nc blocks of nr-column panels, op(A) into mc x kc blocks of mr-row
// panels (or read in place), and an assembly micro-kernel accumulates each
// mr x nr tile of C in registers: 12 x 32 with AVX-512, 6 x 16 with AVX +
// FMA (amd64), 6 x 16 with NEON (arm64), 4 x 4 in Go elsewhere (other
// architectures, amd64 CPUs without FMA, the purego build tag).
//
// Every element of C is computed the same way by every kernel and every
// tiling: for each block of kc steps of depth, a chain of fused
// multiply-adds from zero, times alpha, rounded, then added to C (after C
// was scaled by beta). So the result does not depend on the CPU, the
// kernel, the tile an element falls in or how a caller splits C.
package blocked

import "sync"

const (
	kc = 256  // depth of a packed block
	mc = 96   // rows of a packed block of A (a multiple of every mr)
	nc = 2048 // columns of a packed block of B (a multiple of every nr)

	maxTile = 12 * 32
)

// kernel is one micro-kernel, its name (as Use takes it) and its tile
// shape. fn adds alpha * A * B
// into the mr x nr tile at c (row stride ldc floats) over k steps, or with
// add == 0 stores it there without reading c; row r of A at step p is at
// a + r*ars + p*aps bytes, the B row of step p (nr floats) at b + p*bps
// bytes, so that packed panels (a[p*mr+r], b[p*nr+j]) and matrices read
// in place use the same kernel.
type kernel struct {
	name   string
	mr, nr int
	fn     func(k int, a, b, c *float32, ldc int, alpha float32, ars, aps, bps, add int)
}

// The kernels this machine can run (set by the architecture's init):
// wide for large products (AVX-512 12 x 32), narrow for the others and
// for all products where there is no wide one (AVX + FMA or NEON 6 x 16);
// nil where unavailable.
var wide, narrow *kernel

// Names of the kernel sets Use selects.
const (
	KernelAVX512 = "avx512" // 12 x 32 AVX-512 tiles, 6 x 16 AVX + FMA for small products
	KernelAVX    = "avx"    // 6 x 16 AVX + FMA tiles (amd64)
	KernelNEON   = "neon"   // 6 x 16 NEON tiles (arm64)
	KernelGo     = "go"     // 4 x 4 tiles in Go (fma.F32)
)

// use is the kernel set in force: the best this CPU runs (set with wide
// and narrow by the architecture's init) unless Use chose another.
var use struct {
	wide, narrow *kernel
}

// Available lists the kernel sets this CPU and build can run, fastest
// first; KernelGo is always available.
func Available() []string {
	var s []string
	if wide != nil {
		s = append(s, wide.name)
	}
	if narrow != nil {
		s = append(s, narrow.name)
	}
	return append(s, KernelGo)
}

// Use selects a kernel set by name ("" or "auto" for the fastest this CPU
// runs). It must not be called while products run. Every set gives the
// same bits; Use exists so that tests and benchmarks can compare them.
// The wide kernel's set also holds the narrow one (for small products);
// the narrow one's set is that kernel alone.
func Use(name string) bool {
	switch {
	case name == "" || name == "auto":
		use.wide, use.narrow = wide, narrow
	case wide != nil && name == wide.name:
		use.wide, use.narrow = wide, narrow
	case narrow != nil && name == narrow.name:
		use.wide, use.narrow = nil, narrow
	case name == KernelGo:
		use.wide, use.narrow = nil, nil
	default:
		return false
	}
	return true
}

// Kernel names the kernel set in use.
func Kernel() string {
	switch {
	case use.wide != nil:
		return use.wide.name
	case use.narrow != nil:
		return use.narrow.name
	}
	return KernelGo
}

// Sgemm is C = alpha*op(A)*op(B) + beta*C on row-major matrices (arguments
// checked by the caller, m, n > 0; k or alpha zero scales C by beta), on
// the calling goroutine only.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	// The wide kernel wastes work on edge tiles of small products; use it
	// when C holds at least two of its row tiles and one column tile (its
	// FMAs are twice as wide, so a single 32-column tile, as in a product
	// with 32 outputs, still runs at about twice the narrow kernel's rate).
	// The choice changes no result: every kernel computes every element
	// of C the same way.
	kern := use.narrow
	if kern == nil {
		kern = kernGo
	}
	if w := use.wide; w != nil && m >= 2*w.mr && n >= w.nr {
		kern = w
	}
	blockedSgemm(kern, transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

type packBufs struct {
	a, b []float32
	tile [maxTile]float32
}

// Packing buffers (2.4 MB each) are kept on a free list rather than in a
// sync.Pool: a garbage collection empties a sync.Pool, and allocating and
// faulting in a fresh buffer costs a hundred times a small product (the
// COFR renderer runs thousands of 16 x 74 x B products per image).
var packFree struct {
	sync.Mutex
	list []*packBufs
}

// maxFree bounds the buffers kept: more than the goroutines that run
// products at once is never needed.
const maxFree = 16

func getBufs() *packBufs {
	packFree.Lock()
	defer packFree.Unlock()
	if n := len(packFree.list); n > 0 {
		b := packFree.list[n-1]
		packFree.list = packFree.list[:n-1]
		return b
	}
	return &packBufs{a: make([]float32, mc*kc), b: make([]float32, kc*nc)}
}

func putBufs(b *packBufs) {
	packFree.Lock()
	defer packFree.Unlock()
	if len(packFree.list) < maxFree {
		packFree.list = append(packFree.list, b)
	}
}

func blockedSgemm(kern *kernel, transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if k == 0 || alpha == 0 {
		scaleC(m, n, beta, c, ldc)
		return
	}
	// With beta 0 the first block of depth stores its products instead of
	// adding them to a cleared C.
	if beta != 0 {
		scaleC(m, n, beta, c, ldc)
	}
	mr, nr := kern.mr, kern.nr
	bufs := getBufs()
	defer putBufs(bufs)
	tile := bufs.tile[:mr*nr]
	// A is read in place when n is small: packing A would cost as much as
	// the products, its block being reused for only a few B panels.
	// Untransposed, a panel's mr rows are lda apart; transposed (the COFR
	// renderer's products, whose n is the band count or its remainder of
	// 16), they are consecutive floats at every step, lda apart from one
	// step to the next. Strides that are multiples of 4 KB are packed
	// anyway (the panel's reads would share L1 sets). Likewise an
	// untransposed B is read in place (full panels) when m is small, or
	// when its rows are exactly one panel wide (ldb = nr: B is its own
	// packed panel). Reading in place changes no result: the kernel sums
	// the same products in the same order.
	inPlaceA := n <= 8*nr && lda%1024 != 0
	inPlaceB := !transB && (m <= 8*mr || ldb == nr)
	for jc := 0; jc < n; jc += nc {
		ncb := min(nc, n-jc)
		for pc := 0; pc < k; pc += kc {
			kcb := min(kc, k-pc)
			add := 1
			if beta == 0 && pc == 0 {
				add = 0
			}
			fullB := 0 // columns [0, fullB) of the block are read in place
			if inPlaceB {
				fullB = ncb / nr * nr
			}
			if fullB < ncb {
				packB(nr, bufs.b[fullB*kcb:], transB, b, ldb, pc, kcb, jc+fullB, ncb-fullB)
			}
			for ic := 0; ic < m; ic += mc {
				mcb := min(mc, m-ic)
				fullA := 0 // rows [0, fullA) of the block are read in place
				if inPlaceA {
					fullA = mcb / mr * mr
				}
				if fullA < mcb {
					packA(mr, bufs.a[fullA*kcb:], transA, a, lda, ic+fullA, mcb-fullA, pc, kcb)
				}
				for jr := 0; jr < ncb; jr += nr {
					nrb := min(nr, ncb-jr)
					bp, bps := &bufs.b[jr*kcb], 4*nr
					if jr < fullB {
						bi := pc*ldb + jc + jr
						_ = b[bi+(kcb-1)*ldb+nr-1]
						bp, bps = &b[bi], 4*ldb
					}
					for ir := 0; ir < mcb; ir += mr {
						mrb := min(mr, mcb-ir)
						ap, ars, aps := &bufs.a[ir*kcb], 4, 4*mr
						if ir < fullA {
							if transA {
								// op(A)[i, p] = a[p*lda+i]: the panel's
								// rows are consecutive floats.
								ai := pc*lda + ic + ir
								_ = a[ai+(kcb-1)*lda+mr-1]
								ap, ars, aps = &a[ai], 4, 4*lda
							} else {
								ai := (ic+ir)*lda + pc
								_ = a[ai+(mr-1)*lda+kcb-1]
								ap, ars, aps = &a[ai], 4*lda, 4
							}
						}
						ci := (ic+ir)*ldc + jc + jr
						if mrb == mr && nrb == nr {
							kern.fn(kcb, ap, bp, &c[ci], ldc, alpha, ars, aps, bps, add)
							continue
						}
						// Edge tile: compute into a scratch tile and add (or
						// copy) the part inside C.
						kern.fn(kcb, ap, bp, &tile[0], nr, alpha, ars, aps, bps, 0)
						addTile(c[ci:], ldc, tile, nr, mrb, nrb, add != 0)
					}
				}
			}
		}
	}
}

// addTile adds (or with add false copies) the rows x cols corner of the
// scratch tile t (row stride nr) into c.
func addTile(c []float32, ldc int, t []float32, nr, rows, cols int, add bool) {
	for i := 0; i < rows; i++ {
		row := c[i*ldc : i*ldc+cols]
		if !add {
			copy(row, t[i*nr:])
			continue
		}
		for j := range row {
			row[j] += t[i*nr+j]
		}
	}
}

// packA writes op(A)[i0:i0+rows, p0:p0+depth] as panels of mr rows: panel
// q holds dst[q*mr*depth + p*mr + r] = op(A)[i0+q*mr+r, p0+p], zero beyond
// the last row.
func packA(mr int, dst []float32, trans bool, a []float32, lda int, i0, rows, p0, depth int) {
	for q := 0; q*mr < rows; q++ {
		pan := dst[q*mr*depth : (q+1)*mr*depth]
		rr := min(mr, rows-q*mr)
		ib := i0 + q*mr
		if trans {
			// op(A)[i, p] = a[p*lda+i]: mr consecutive values per p,
			// moved by a loop when they are few (the 6 or 12 rows of
			// a kernel's A panel: a call to memmove per p costs more
			// than the move).
			if rr == mr && mr <= 12 {
				for p := 0; p < depth; p++ {
					src := a[(p0+p)*lda+ib:][:mr]
					d := pan[p*mr:][:mr]
					for r, v := range src {
						d[r] = v
					}
				}
				continue
			}
			for p := 0; p < depth; p++ {
				d := pan[p*mr : p*mr+mr]
				copy(d, a[(p0+p)*lda+ib:(p0+p)*lda+ib+rr])
				clear(d[rr:])
			}
			continue
		}
		for r := 0; r < mr; r++ {
			if r >= rr {
				for p := 0; p < depth; p++ {
					pan[p*mr+r] = 0
				}
				continue
			}
			src := a[(ib+r)*lda+p0 : (ib+r)*lda+p0+depth]
			for p, v := range src {
				pan[p*mr+r] = v
			}
		}
	}
}

// packB writes op(B)[p0:p0+depth, j0:j0+cols] as panels of nr columns:
// panel q holds dst[q*nr*depth + p*nr + j] = op(B)[p0+p, j0+q*nr+j], zero
// beyond the last column. These are the panels packA writes for
// op(B)^T[j0:j0+cols, p0:p0+depth], and op(B)^T is b read with the
// opposite transposition.
func packB(nr int, dst []float32, trans bool, b []float32, ldb int, p0, depth, j0, cols int) {
	packA(nr, dst, !trans, b, ldb, j0, cols, p0, depth)
}

func scaleC(m, n int, beta float32, c []float32, ldc int) {
	if beta == 1 {
		return
	}
	for i := 0; i < m; i++ {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}
