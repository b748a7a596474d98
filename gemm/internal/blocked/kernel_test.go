package blocked

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// simdKernels are the assembly kernels this CPU and build run (none with
// the purego tag or on other architectures).
func simdKernels() []*kernel {
	var ks []*kernel
	for _, k := range []*kernel{wide, narrow} {
		if k != nil {
			ks = append(ks, k)
		}
	}
	return ks
}

// specials are operands where a kernel could part from the Go kernel
// without it showing on normal numbers: signed zeros, subnormals,
// overflow, infinities and NaNs with distinct payloads (ARM and x86 both
// return the payload of one NaN operand, chosen by operand order).
var specials = []float32{
	0, float32(math.Copysign(0, -1)),
	math.SmallestNonzeroFloat32, -3 * math.SmallestNonzeroFloat32, 1e-39, -2.5e-39,
	math.MaxFloat32, -math.MaxFloat32, 3e38, 1e20, -1e20,
	float32(math.Inf(1)), float32(math.Inf(-1)),
	math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc12345), math.Float32frombits(0x7fc0beef),
}

// sameBits reports whether x and y have the same bits. On arm64 that
// includes a NaN's payload: the NEON kernel passes its operands in the
// order of the Go kernel's scalar instructions, and ARM takes the payload
// from the first NaN operand. The amd64 kernels promise only that a NaN
// stays a NaN: x86's FMA takes the payload of the accumulator first, the
// Go kernel's emulated fma.F32 that of the multiplicands.
func sameBits(x, y float32) bool {
	if runtime.GOARCH != "arm64" && x != x && y != y {
		return true
	}
	return math.Float32bits(x) == math.Float32bits(y)
}

// microCase is one call of a micro-kernel: depth k, the layout of A
// (packed panel, rows read in place, transposed read in place) and of B
// (packed or in place), alpha, add, and how the operands are filled.
type microCase struct {
	k       int
	layoutA string // "packed", "rows", "cols"
	inB     bool   // B read in place (row stride nr+5)
	alpha   float32
	add     int
	fill    string // "normal", "cancel", "special"
}

func (mc microCase) String() string {
	return fmt.Sprintf("k=%d A=%s inB=%v alpha=%v add=%d fill=%s", mc.k, mc.layoutA, mc.inB, mc.alpha, mc.add, mc.fill)
}

// runMicro calls kern on the case's operands and returns C (row stride
// nr+3, plus a guard row, so that writes outside the tile show), and the
// same C computed by the Go kernel, 4 x 4 blocks at a time (the last
// block of rows or columns overlapping the one before when mr or nr is
// not a multiple of 4, each block computed from the original C).
func runMicro(r *rand.Rand, kern *kernel, mc microCase) (got, want []float32) {
	mr, nr, k := kern.mr, kern.nr, mc.k
	val := func() float32 {
		switch mc.fill {
		case "special":
			if r.IntN(4) == 0 {
				return specials[r.IntN(len(specials))]
			}
		case "cancel":
			// Values of a few bits, scaled by powers of two far apart:
			// sums where the order and the fusion of the roundings show.
			return float32(r.IntN(2001)-1000) * float32(math.Ldexp(1, r.IntN(40)-20))
		}
		return float32(r.NormFloat64())
	}
	// A: op(A)[i, p] at a[i*ars + p*aps] (in floats).
	var ars, aps int
	switch mc.layoutA {
	case "packed":
		ars, aps = 1, mr
	case "rows":
		ars, aps = k+5, 1
	case "cols":
		ars, aps = 1, mr+3
	default:
		panic(mc.layoutA)
	}
	a := make([]float32, mr*ars+k*aps+1)
	for i := range a {
		a[i] = val()
	}
	bps := nr
	if mc.inB {
		bps = nr + 5
	}
	b := make([]float32, k*bps+nr)
	for i := range b {
		b[i] = val()
	}
	ldc := nr + 3
	c0 := make([]float32, (mr+1)*ldc)
	for i := range c0 {
		c0[i] = val()
	}
	got = append([]float32(nil), c0...)
	kern.fn(k, &a[0], &b[0], &got[0], ldc, mc.alpha, 4*ars, 4*aps, 4*bps, mc.add)

	want = append([]float32(nil), c0...)
	tmp := make([]float32, len(c0))
	for i := 0; i < mr; i += 4 {
		i0 := min(i, mr-4)
		for j := 0; j < nr; j += 4 {
			j0 := min(j, nr-4)
			copy(tmp, c0)
			kernGo.fn(k, &a[i0*ars], &b[j0], &tmp[i0*ldc+j0], ldc, mc.alpha, 4*ars, 4*aps, 4*bps, mc.add)
			for ii := i0; ii < i0+4; ii++ {
				copy(want[ii*ldc+j0:ii*ldc+j0+4], tmp[ii*ldc+j0:])
			}
		}
	}
	return got, want
}

// TestMicroKernelsMatchGo calls each assembly micro-kernel directly and
// checks that it gives the Go kernel's bits for every element of its tile
// and leaves the rest of C alone: depths 0 to 19 (every remainder of any
// unroll up to 16) and at the packed block's 255, 256; A packed, read in
// place by rows and transposed; B packed and in place; alpha 1, negative,
// fractional, 0, tiny and huge; storing and adding; normal numbers,
// cancelling sums and special values (signed zeros, subnormals, overflow,
// infinities, NaN payloads).
func TestMicroKernelsMatchGo(t *testing.T) {
	ks := simdKernels()
	if len(ks) == 0 {
		t.Skip("no assembly kernel in this build (purego, or an architecture without one)")
	}
	r := rand.New(rand.NewPCG(43, 5))
	depths := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 31, 33, 255, 256}
	for _, kern := range ks {
		n := 0
		for _, k := range depths {
			for _, layoutA := range []string{"packed", "rows", "cols"} {
				for _, inB := range []bool{false, true} {
					for _, alpha := range []float32{1, -1, 0.75, 0, 1e-30, 3e30} {
						for _, add := range []int{0, 1} {
							for _, fill := range []string{"normal", "cancel", "special"} {
								mc := microCase{k, layoutA, inB, alpha, add, fill}
								got, want := runMicro(r, kern, mc)
								n++
								for i := range got {
									if !sameBits(got[i], want[i]) {
										t.Fatalf("%s %v: C[%d] (row %d, col %d) = %v (%#08x), the Go kernel gives %v (%#08x)",
											kern.name, mc, i, i/(kern.nr+3), i%(kern.nr+3), got[i], math.Float32bits(got[i]), want[i], math.Float32bits(want[i]))
									}
								}
							}
						}
					}
				}
			}
		}
		t.Logf("%s: %d calls, every bit of C as the Go kernel's", kern.name, n)
	}
}

// TestKernelsMatchGoSgemm runs whole products with each assembly kernel
// and with the Go kernel and compares the bits: random shapes with edge
// tiles in both directions, depths across the packed block (kc = 256),
// every transpose, padded strides, and alpha and beta each 1, 0 or
// another value (beta 0: C, filled with NaN, is not read).
func TestKernelsMatchGoSgemm(t *testing.T) {
	if len(simdKernels()) == 0 {
		t.Skip("no assembly kernel in this build (purego, or an architecture without one)")
	}
	defer Use("auto")
	r := rand.New(rand.NewPCG(43, 6))
	trials := 120
	if testing.Short() {
		trials = 40
	}
	ks := []int{1, 2, 3, 5, 7, 16, 17, 63, 255, 256, 257, 300, 513}
	for trial := range trials {
		m, n, k := 1+r.IntN(40), 1+r.IntN(70), ks[r.IntN(len(ks))]
		if trial%10 == 0 {
			m, n = 90+r.IntN(120), 30+r.IntN(50) // across mc = 96
		}
		tA, tB := r.IntN(2) == 1, r.IntN(2) == 1
		alpha := []float32{1, -0.5, 0.75, 2}[r.IntN(4)]
		beta := []float32{0, 1, 0.5, -2}[r.IntN(4)]
		ar, ac := m, k
		if tA {
			ar, ac = k, m
		}
		br, bc := k, n
		if tB {
			br, bc = n, k
		}
		lda, ldb, ldc := ac+r.IntN(3), bc+r.IntN(3), n+r.IntN(3)
		fill := func(n int) []float32 {
			s := make([]float32, n)
			for i := range s {
				s[i] = float32(r.NormFloat64())
			}
			return s
		}
		a, b, c0 := fill(ar*lda), fill(br*ldb), fill(m*ldc)
		if beta == 0 {
			for i := range c0 {
				c0[i] = float32(math.NaN())
			}
		}
		want := append([]float32(nil), c0...)
		Use(KernelGo)
		Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
		for _, name := range Available() {
			if name == KernelGo {
				continue
			}
			if !Use(name) {
				t.Fatalf("Use(%q) refused an available kernel", name)
			}
			got := append([]float32(nil), c0...)
			Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
					t.Fatalf("%s: m=%d n=%d k=%d trans %v %v alpha %v beta %v lda %d ldb %d ldc %d: C[%d] = %v, the Go kernel gives %v",
						name, m, n, k, tA, tB, alpha, beta, lda, ldb, ldc, i, got[i], want[i])
				}
			}
		}
	}
}
