package raw

import (
	"fmt"
	"math"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// ChunkBytes is the size of the I/O buffers readers and writers stream
// through. It bounds their memory beyond the cube itself.
const ChunkBytes = 4 << 20

// FiniteTracker accumulates the non-finite samples that Decode reports and
// builds a hsi.NonFiniteError.
type FiniteTracker struct {
	Count          int64
	Row, Col, Band int
	Value          float32
	first          bool
}

// Note records nBad non-finite samples whose first lies at (row, col,
// band) with the given value, if it is the first one seen. Readers that
// visit the file out of raster order must call Note in raster order or
// compare positions; Note keeps the earliest in (row, col, band) order.
func (f *FiniteTracker) Note(nBad int, row, col, band int, v float32) {
	if nBad <= 0 {
		return
	}
	f.Count += int64(nBad)
	if !f.first || row < f.Row || (row == f.Row && (col < f.Col || (col == f.Col && band < f.Band))) {
		f.Row, f.Col, f.Band, f.Value, f.first = row, col, band, v, true
	}
}

// Merge adds the samples recorded by o (a tracker of another part of the
// same file) to f, keeping the earliest first sample of the two.
func (f *FiniteTracker) Merge(o *FiniteTracker) {
	if o.Count == 0 {
		return
	}
	count := f.Count + o.Count
	f.Note(1, o.Row, o.Col, o.Band, o.Value)
	f.Count = count
}

// Err returns nil when no non-finite sample was noted.
func (f *FiniteTracker) Err(path string) error {
	if f.Count == 0 {
		return nil
	}
	return &hsi.NonFiniteError{Path: path, Row: f.Row, Col: f.Col, Band: f.Band, Value: f.Value, Count: f.Count}
}

// CheckFinite scans a cube and returns a *hsi.NonFiniteError naming path when
// it holds NaN or infinite values.
func CheckFinite(path string, c *hsi.Cube) error {
	var t FiniteTracker
	for i, v := range c.Data {
		if v-v != 0 {
			if t.Count == 0 {
				p := i / c.B
				t.Note(1, p/c.W, p%c.W, i%c.B, v)
			} else {
				t.Count++
			}
		}
	}
	return t.Err(path)
}

// NewCube allocates an h x w x b cube after checking that its float32 data
// fits in memory (memlimit.Check: an error matching hsi.ErrTooLarge). It never panics on user-supplied sizes.
func NewCube(h, w, b int) (*hsi.Cube, error) {
	n, err := hsi.Elems(h, w, b)
	if err != nil {
		return nil, err
	}
	if err := memlimit.Check(uint64(n)*4, fmt.Sprintf("a %dx%dx%d float32 cube", h, w, b)); err != nil {
		return nil, err
	}
	return hsi.New(h, w, b)
}

// MulSize returns a*b*c*d as int64, or false if it overflows int64.
func MulSize(v ...int64) (int64, bool) {
	p := int64(1)
	for _, x := range v {
		if x < 0 {
			return 0, false
		}
		if x != 0 && p > math.MaxInt64/x {
			return 0, false
		}
		p *= x
	}
	return p, true
}

// GroupBands is the number of bands that band-sequential readers and
// writers move through the cube at a time: 16 float32 values fill one
// 64-byte cache line of a pixel's spectrum.
const GroupBands = 16

// ToPixels copies k band rows of n values, rows[j*n+p], into bands
// g..g+k-1 of n consecutive pixels of a pixel-interleaved slice with B
// bands per pixel: dst[p*B+g+j].
func ToPixels(dst []float32, B, g int, rows []float32, n, k int) {
	if n <= 0 || k <= 0 {
		return
	}
	_ = dst[(n-1)*B+g+k-1]
	_ = rows[k*n-1]
	if k == 16 {
		toPixels16(dst[g:], B, rows, n)
		return
	}
	for p := 0; p < n; p++ {
		d := dst[p*B+g : p*B+g+k]
		for j := range d {
			d[j] = rows[j*n+p]
		}
	}
}

// toPixels16 is ToPixels for k = 16, unrolled so that each pixel's 64
// bytes are written in one go without bounds checks.
func toPixels16(dst []float32, B int, rows []float32, n int) {
	r0, r1, r2, r3 := rows[0*n:1*n], rows[1*n:2*n], rows[2*n:3*n], rows[3*n:4*n]
	r4, r5, r6, r7 := rows[4*n:5*n], rows[5*n:6*n], rows[6*n:7*n], rows[7*n:8*n]
	r8, r9, r10, r11 := rows[8*n:9*n], rows[9*n:10*n], rows[10*n:11*n], rows[11*n:12*n]
	r12, r13, r14, r15 := rows[12*n:13*n], rows[13*n:14*n], rows[14*n:15*n], rows[15*n:16*n]
	for p := 0; p < n; p++ {
		d := dst[p*B : p*B+16 : p*B+16]
		d[0], d[1], d[2], d[3] = r0[p], r1[p], r2[p], r3[p]
		d[4], d[5], d[6], d[7] = r4[p], r5[p], r6[p], r7[p]
		d[8], d[9], d[10], d[11] = r8[p], r9[p], r10[p], r11[p]
		d[12], d[13], d[14], d[15] = r12[p], r13[p], r14[p], r15[p]
	}
}

// FromPixels is the inverse of ToPixels: rows[j*n+p] = src[p*B+g+j].
func FromPixels(rows []float32, src []float32, B, g int, n, k int) {
	FromPixelsStride(rows, n, src, B, g, n, k)
}

// FromPixelsStride is FromPixels into rows ld values apart (ld >= n):
// rows[j*ld+p] = src[p*B+g+j].
func FromPixelsStride(rows []float32, ld int, src []float32, B, g int, n, k int) {
	if n <= 0 || k <= 0 {
		return
	}
	_ = src[(n-1)*B+g+k-1]
	_ = rows[(k-1)*ld+n-1]
	if k == 16 {
		fromPixels16(rows, ld, src[g:], B, n)
		return
	}
	for p := 0; p < n; p++ {
		s := src[p*B+g : p*B+g+k]
		for j, v := range s {
			rows[j*ld+p] = v
		}
	}
}

// FromPixelsFinite is FromPixelsStride that also reports whether every
// value it moved is finite (no NaN, no infinity): with AVX, eight pixels of
// eight bands at a time, transposed in registers.
func FromPixelsFinite(rows []float32, ld int, src []float32, B, g int, n, k int) bool {
	if n <= 0 || k <= 0 {
		return true
	}
	_ = src[(n-1)*B+g+k-1]
	_ = rows[(k-1)*ld+n-1]
	if !useAVX || n < 8 {
		FromPixelsStride(rows, ld, src, B, g, n, k)
		for j := 0; j < k; j++ {
			if !finite(rows[j*ld : j*ld+n]) {
				return false
			}
		}
		return true
	}
	n8 := n / 8 * 8
	ok := true
	j := 0
	for ; j+8 <= k; j += 8 {
		ok = transpose8AVX(&rows[j*ld], ld, &src[g+j], B, n8) && ok
	}
	// The bands left over for the pixels done, then every band of the
	// pixels left over; acc sums v - v: zero, or NaN after a value that
	// is not finite.
	var acc float32
	for p := 0; p < n; p++ {
		j0 := j
		if p >= n8 {
			j0 = 0
		}
		s := src[p*B+g : p*B+g+k]
		for jj := j0; jj < k; jj++ {
			v := s[jj]
			rows[jj*ld+p] = v
			acc += v - v
		}
	}
	return ok && acc == 0
}

// finite reports whether every value of d is finite.
func finite(d []float32) bool {
	var acc float32
	for _, v := range d {
		acc += v - v
	}
	return acc == 0
}

func fromPixels16(rows []float32, ld int, src []float32, B int, n int) {
	r0, r1, r2, r3 := rows[0*ld:0*ld+n], rows[1*ld:1*ld+n], rows[2*ld:2*ld+n], rows[3*ld:3*ld+n]
	r4, r5, r6, r7 := rows[4*ld:4*ld+n], rows[5*ld:5*ld+n], rows[6*ld:6*ld+n], rows[7*ld:7*ld+n]
	r8, r9, r10, r11 := rows[8*ld:8*ld+n], rows[9*ld:9*ld+n], rows[10*ld:10*ld+n], rows[11*ld:11*ld+n]
	r12, r13, r14, r15 := rows[12*ld:12*ld+n], rows[13*ld:13*ld+n], rows[14*ld:14*ld+n], rows[15*ld:15*ld+n]
	for p := 0; p < n; p++ {
		s := src[p*B : p*B+16 : p*B+16]
		r0[p], r1[p], r2[p], r3[p] = s[0], s[1], s[2], s[3]
		r4[p], r5[p], r6[p], r7[p] = s[4], s[5], s[6], s[7]
		r8[p], r9[p], r10[p], r11[p] = s[8], s[9], s[10], s[11]
		r12[p], r13[p], r14[p], r15[p] = s[12], s[13], s[14], s[15]
	}
}

// WriteType returns the sample type a writer stores for
// hsi.WriteOptions.DataType t: float32 for the zero value (sample.Invalid),
// t itself when it is a sample type, an error otherwise.
func WriteType(t sample.Type) (sample.Type, error) {
	if t == sample.Invalid {
		return sample.Float32, nil
	}
	if t.Size() == 0 {
		return sample.Invalid, fmt.Errorf("unknown data type %v", t)
	}
	return t, nil
}
