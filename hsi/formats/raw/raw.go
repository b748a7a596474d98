package raw

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
)

// ChunkBytes is the size of the I/O buffers readers and writers stream
// through. It bounds their memory beyond the cube itself.
const ChunkBytes = 4 << 20

// NonFiniteError reports NaN or infinite samples in a file. Readers return
// it together with the fully read cube, so that a caller that wants to
// inspect such a file (omnihsr info) can, while every other caller stops at
// the error. Row, Col and Band (0-based) locate the first such sample.
type NonFiniteError struct {
	Path           string
	Row, Col, Band int
	Value          float32
	Count          int64
}

func (e *NonFiniteError) Error() string {
	return fmt.Sprintf("%s: %d non-finite value(s) (NaN, infinite or beyond the float32 range); the first, %v, at row %d, column %d, band %d (0-based); such samples are not accepted",
		e.Path, e.Count, e.Value, e.Row, e.Col, e.Band)
}

// FiniteTracker accumulates the non-finite samples that Decode reports and
// builds a NonFiniteError.
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

// Err returns nil when no non-finite sample was noted.
func (f *FiniteTracker) Err(path string) error {
	if f.Count == 0 {
		return nil
	}
	return &NonFiniteError{Path: path, Row: f.Row, Col: f.Col, Band: f.Band, Value: f.Value, Count: f.Count}
}

// CheckFinite scans a cube and returns a *NonFiniteError naming path when
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

// ErrTooLarge marks a cube that does not fit in the memory available.
var ErrTooLarge = errors.New("does not fit in memory")

// MemLimit returns the number of bytes a reader may allocate for one cube:
// OMNIHSR_MEM_LIMIT when set (a byte count with an optional K, M, G or T
// suffix, powers of 1024), else MemAvailable from /proc/meminfo, else
// (no /proc) 1 TiB.
func MemLimit() uint64 {
	if s := os.Getenv("OMNIHSR_MEM_LIMIT"); s != "" {
		if v, err := parseBytes(s); err == nil {
			return v
		}
	}
	if v, ok := memAvailable(); ok {
		return v
	}
	return 1 << 40
}

func parseBytes(s string) (uint64, error) {
	s = strings.TrimSpace(strings.ToUpper(s))
	s = strings.TrimSuffix(s, "B")
	mul := uint64(1)
	if s != "" {
		switch s[len(s)-1] {
		case 'K':
			mul = 1 << 10
		case 'M':
			mul = 1 << 20
		case 'G':
			mul = 1 << 30
		case 'T':
			mul = 1 << 40
		}
		if mul != 1 {
			s = s[:len(s)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("bad byte count %q", s)
	}
	return uint64(v * float64(mul)), nil
}

func memAvailable() (uint64, bool) {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "MemAvailable:"); ok {
			fs := strings.Fields(rest)
			if len(fs) == 0 {
				return 0, false
			}
			v, err := strconv.ParseUint(fs[0], 10, 64)
			if err != nil {
				return 0, false
			}
			if len(fs) > 1 && strings.EqualFold(fs[1], "kB") {
				v *= 1024
			}
			return v, true
		}
	}
	return 0, false
}

// CheckMemory returns an error wrapping ErrTooLarge when need bytes exceed
// MemLimit.
func CheckMemory(need uint64, what string) error {
	if lim := MemLimit(); need > lim {
		return fmt.Errorf("%s needs %s, more than the %s of memory available (set OMNIHSR_MEM_LIMIT to override): %w",
			what, FormatBytes(need), FormatBytes(lim), ErrTooLarge)
	}
	return nil
}

// CheckMemTotal refuses an allocation of bytes larger than the machine's
// total memory (MemTotal of /proc/meminfo; no limit when unknown), the
// bound the MAT and TIFF readers apply before they allocate a cube.
func CheckMemTotal(bytes int64) error {
	if total := memTotal(); total > 0 && bytes > total {
		return fmt.Errorf("the cube needs %d MiB, more than this machine's %d MiB of memory", bytes>>20, total>>20)
	}
	return nil
}

// memTotal returns the machine's memory in bytes from /proc/meminfo (0 when unknown).
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) >= 2 && fs[0] == "MemTotal:" {
			if kb, err := strconv.ParseInt(fs[1], 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return 0
}

// FormatBytes prints a byte count with a binary unit, e.g. "1.5 GiB".
func FormatBytes(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit && exp < 5; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}

// NewCube allocates an h x w x b cube after checking that its float32 data
// fits in memory. It never panics on user-supplied sizes.
func NewCube(h, w, b int) (*hsi.Cube, error) {
	n, err := hsi.Elems(h, w, b)
	if err != nil {
		return nil, err
	}
	if err := CheckMemory(uint64(n)*4, fmt.Sprintf("a %dx%dx%d float32 cube", h, w, b)); err != nil {
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
	if n <= 0 || k <= 0 {
		return
	}
	_ = src[(n-1)*B+g+k-1]
	_ = rows[k*n-1]
	if k == 16 {
		fromPixels16(rows, src[g:], B, n)
		return
	}
	for p := 0; p < n; p++ {
		s := src[p*B+g : p*B+g+k]
		for j, v := range s {
			rows[j*n+p] = v
		}
	}
}

func fromPixels16(rows []float32, src []float32, B int, n int) {
	r0, r1, r2, r3 := rows[0*n:1*n], rows[1*n:2*n], rows[2*n:3*n], rows[3*n:4*n]
	r4, r5, r6, r7 := rows[4*n:5*n], rows[5*n:6*n], rows[6*n:7*n], rows[7*n:8*n]
	r8, r9, r10, r11 := rows[8*n:9*n], rows[9*n:10*n], rows[10*n:11*n], rows[11*n:12*n]
	r12, r13, r14, r15 := rows[12*n:13*n], rows[13*n:14*n], rows[14*n:15*n], rows[15*n:16*n]
	for p := 0; p < n; p++ {
		s := src[p*B : p*B+16 : p*B+16]
		r0[p], r1[p], r2[p], r3[p] = s[0], s[1], s[2], s[3]
		r4[p], r5[p], r6[p], r7[p] = s[4], s[5], s[6], s[7]
		r8[p], r9[p], r10[p], r11[p] = s[8], s[9], s[10], s[11]
		r12[p], r13[p], r14[p], r15[p] = s[12], s[13], s[14], s[15]
	}
}
