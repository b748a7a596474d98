package matfile

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// outType is a MATLAB class with its MAT v5 storage type.
type outType struct {
	class int
	mi    uint32
	t     sample.Type
}

func (ot outType) size() int { return ot.t.Size() }

// outTypes are the sample types a cube can be written as.
var outTypes = map[sample.Type]outType{
	sample.Float32: {mxSINGLE, miSINGLE, sample.Float32},
	sample.Float64: {mxDOUBLE, miDOUBLE, sample.Float64},
	sample.Int8:    {mxINT8, miINT8, sample.Int8},
	sample.Uint8:   {mxUINT8, miUINT8, sample.Uint8},
	sample.Int16:   {mxINT16, miINT16, sample.Int16},
	sample.Uint16:  {mxUINT16, miUINT16, sample.Uint16},
	sample.Int32:   {mxINT32, miINT32, sample.Int32},
	sample.Uint32:  {mxUINT32, miUINT32, sample.Uint32},
	sample.Int64:   {mxINT64, miINT64, sample.Int64},
	sample.Uint64:  {mxUINT64, miUINT64, sample.Uint64},
}

// maxV5Bytes is the largest element a MAT v5 tag can describe.
const maxV5Bytes = math.MaxUint32 - 4096

// Write stores the cube as a MAT v5 file (see the package documentation).
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := write(path, c, opt); err != nil {
		return fmt.Errorf("matfile: write %s: %w", path, err)
	}
	return nil
}

func write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	st, err := raw.WriteType(opt.DataType)
	ot, ok := outTypes[st]
	if err != nil || !ok {
		return fmt.Errorf("data type %q is not supported (float32, float64, int8, uint8, int16, uint16, int32, uint32, int64, uint64)", opt.DataType)
	}
	var compress bool
	switch strings.ToLower(string(opt.Compression)) {
	case "", "none":
	case "deflate", "zlib":
		compress = true
	default:
		return fmt.Errorf("compression %q is not available for MAT files (none or deflate)", opt.Compression)
	}
	name := opt.Var
	if name == "" {
		name = "cube"
	}
	if err := checkName(name); err != nil {
		return err
	}
	n := int64(len(c.Data))
	if n*int64(ot.size()) > maxV5Bytes {
		return fmt.Errorf("the cube takes %d bytes as %s; MAT v5 holds at most 4 GiB per variable", n*int64(ot.size()), st)
	}
	if !st.IsFloat() {
		// Float samples keep NaN and infinities; integers must fit.
		if err := checkRange(c, st); err != nil {
			return err
		}
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	w := &matWriter{f: f, bw: bufio.NewWriterSize(f, 1<<20), compress: compress}
	w.header()
	w.matrix(name, ot, []int{c.H, c.W, c.B}, func(dst io.Writer) error { return cubeData(dst, c, ot) })
	m := c.Meta
	if len(m.Wavelengths) == c.B {
		w.vector("wavelength", m.Wavelengths)
		if m.WavelengthUnits != "" {
			w.char("wavelength_units", m.WavelengthUnits)
		}
	}
	if len(m.FWHM) == c.B {
		w.vector("fwhm", m.FWHM)
	}
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		return err
	}
	return f.Commit()
}

// checkName accepts MATLAB variable names.
func checkName(s string) error {
	if len(s) > 63 {
		return fmt.Errorf("variable name %q is longer than 63 characters", s)
	}
	for i, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '_')
		if !ok {
			return fmt.Errorf("variable name %q is not a MATLAB name (a letter, then letters, digits or _)", s)
		}
	}
	return nil
}

// checkRange refuses a value the writer cannot store as st: one that does
// not fit the type (raw.BadValue), and for 64-bit integers one beyond 2^53.
func checkRange(c *hsi.Cube, st sample.Type) error {
	wide := st == sample.Int64 || st == sample.Uint64
	for i, v := range c.Data {
		fits := st.Fits(v)
		if fits && !(wide && math.Abs(sample.Round(v)) > 1<<53) {
			continue
		}
		if !fits {
			return raw.BadValue(c.Data, c.W, c.B, 0, i, st)
		}
		// Values pass through float64, exact for integers up to 2^53 only:
		// that is the writer's limit, not the type's.
		lo := "-2^53"
		if st == sample.Uint64 {
			lo = "0"
		}
		p, b := i/c.B, i%c.B
		return fmt.Errorf("value %v at row %d, column %d, band %d is outside %s..2^53, the range this writer stores exactly as %s (float64, through which values pass, is exact for integers up to 2^53 only); choose another data type",
			v, p/c.W, p%c.W, b, lo, st)
	}
	return nil
}

type matWriter struct {
	f        *atomicfile.File
	bw       *bufio.Writer
	n        int64 // bytes written so far
	compress bool
	err      error
}

func (w *matWriter) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	k, err := w.bw.Write(p)
	w.n += int64(k)
	if err != nil {
		w.err = err
	}
	return k, err
}

func (w *matWriter) header() {
	text := "MATLAB 5.0 MAT-file, Platform: GLNXA64, Created by: omnihsr"
	h := make([]byte, 128)
	copy(h, text)
	for i := len(text); i < 116; i++ {
		h[i] = ' '
	}
	binary.LittleEndian.PutUint16(h[124:], 0x0100)
	h[126], h[127] = 'I', 'M'
	w.Write(h)
}

// matrix writes one miMATRIX element (compressed when asked).
func (w *matWriter) matrix(name string, ot outType, dims []int, data func(io.Writer) error) {
	if w.err != nil {
		return
	}
	nd := 1
	for _, d := range dims {
		nd *= d
	}
	dataBytes := int64(nd) * int64(ot.size())
	body := 16 + 8 + pad8(int64(4*len(dims)))
	if len(name) <= 4 {
		body += 8
	} else {
		body += 8 + pad8(int64(len(name)))
	}
	body += 8 + pad8(dataBytes)
	var dst io.Writer = w
	var zw *zlib.Writer
	var tagPos int64
	if w.compress {
		tagPos = w.n
		w.Write(make([]byte, 8))
		zw, _ = zlib.NewWriterLevel(w, zlib.BestSpeed) // level 1: about 3.5x faster than 6, files a few % larger
		dst = zw
	}
	le := binary.LittleEndian
	var b []byte
	b = le.AppendUint32(b, miMATRIX)
	b = le.AppendUint32(b, uint32(body))
	// Array flags.
	b = le.AppendUint32(b, miUINT32)
	b = le.AppendUint32(b, 8)
	b = le.AppendUint32(b, uint32(ot.class))
	b = le.AppendUint32(b, 0)
	// Dimensions.
	b = le.AppendUint32(b, miINT32)
	b = le.AppendUint32(b, uint32(4*len(dims)))
	for _, d := range dims {
		b = le.AppendUint32(b, uint32(d))
	}
	b = padTo8(b)
	// Name.
	if len(name) <= 4 {
		b = le.AppendUint32(b, uint32(len(name))<<16|miINT8)
		var nb [4]byte
		copy(nb[:], name)
		b = append(b, nb[:]...)
	} else {
		b = le.AppendUint32(b, miINT8)
		b = le.AppendUint32(b, uint32(len(name)))
		b = append(b, name...)
		b = padTo8(b)
	}
	// Real part.
	b = le.AppendUint32(b, ot.mi)
	b = le.AppendUint32(b, uint32(dataBytes))
	if _, err := dst.Write(b); err != nil {
		w.setErr(err)
		return
	}
	if err := data(dst); err != nil {
		w.setErr(err)
		return
	}
	if p := pad8(dataBytes) - dataBytes; p > 0 {
		dst.Write(make([]byte, p))
	}
	if !w.compress {
		return
	}
	if err := zw.Close(); err != nil {
		w.setErr(err)
		return
	}
	size := w.n - tagPos - 8
	if size > maxV5Bytes {
		w.setErr(errors.New("compressed variable exceeds 4 GiB"))
		return
	}
	if err := w.bw.Flush(); err != nil {
		w.setErr(err)
		return
	}
	var tag [8]byte
	le.PutUint32(tag[:4], miCOMPRESSED)
	le.PutUint32(tag[4:], uint32(size))
	if _, err := w.f.WriteAt(tag[:], tagPos); err != nil {
		w.setErr(err)
	}
}

func (w *matWriter) setErr(err error) {
	if w.err == nil {
		w.err = err
	}
}

// vector writes a B x 1 double column.
func (w *matWriter) vector(name string, v []float64) {
	w.matrix(name, outTypes[sample.Float64], []int{len(v), 1}, func(dst io.Writer) error {
		b := make([]byte, 0, 8*len(v))
		for _, x := range v {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
		_, err := dst.Write(b)
		return err
	})
}

// char writes a 1 x n char row (UTF-16 code units, stored as miUINT16).
func (w *matWriter) char(name, s string) {
	var units []uint16
	for _, r := range s {
		if r > 0xFFFF {
			r = '?'
		}
		units = append(units, uint16(r))
	}
	ot := outType{class: mxCHAR, mi: miUINT16, t: sample.Uint16}
	w.matrix(name, ot, []int{1, len(units)}, func(dst io.Writer) error {
		b := make([]byte, 0, 2*len(units))
		for _, u := range units {
			b = binary.LittleEndian.AppendUint16(b, u)
		}
		_, err := dst.Write(b)
		return err
	})
}

func pad8(n int64) int64 { return (n + 7) &^ 7 }

func padTo8(b []byte) []byte {
	for len(b)%8 != 0 {
		b = append(b, 0)
	}
	return b
}

// cubeData writes the cube in MATLAB column-major order (row fastest, then
// column, then band). Bands are gathered a group at a time so that the
// pixel-interleaved cube is read sequentially; each image column of a band
// is encoded in one call, with a stride of a row.
func cubeData(dst io.Writer, c *hsi.Cube, ot outType) error {
	hw := c.H * c.W
	g := max(1, min(c.B, (16<<20)/(hw*4)))
	planes := make([]float32, g*hw)
	colBytes := c.H * ot.size()
	out := make([]byte, 0, max(1<<16, colBytes))
	for b0 := 0; b0 < c.B; b0 += g {
		gn := min(g, c.B-b0)
		for p := 0; p < hw; p++ {
			s := c.Data[p*c.B+b0 : p*c.B+b0+gn]
			for k, v := range s {
				planes[k*hw+p] = v
			}
		}
		for k := 0; k < gn; k++ {
			plane := planes[k*hw : (k+1)*hw]
			for x := 0; x < c.W; x++ {
				if len(out)+colBytes > cap(out) {
					if _, err := dst.Write(out); err != nil {
						return err
					}
					out = out[:0]
				}
				n := len(out)
				out = out[:n+colBytes]
				// Integers were checked by write; NaN stays NaN in float classes.
				sample.Encode(out[n:], plane[x:], c.W, c.H, ot.t, false)
			}
		}
	}
	_, err := dst.Write(out)
	return err
}
