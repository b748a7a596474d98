package matfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/hdf5"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Layout names (ReadOptions.Layout and SourceInfo.Layout).
const (
	LayoutHWB     = "HWB"
	LayoutBHW     = "B_HW_colmajor"
	LayoutHDF5BWH = "HDF5_BWH"
	LayoutHW      = "HW" // reported for a 2-D array read as one band
)

// VarInfo describes one variable of a MAT file.
type VarInfo struct {
	Name    string
	Class   string // MATLAB class: "double", "single", "uint16", "logical", "char", "cell", "struct", "sparse", ...
	Dims    []int  // MATLAB dimensions
	Complex bool
	// Numeric is true for a real numeric or logical array that Read can load.
	Numeric bool
}

// Numel returns the number of elements (0 if a dimension is 0; capped at
// math.MaxInt on overflow).
func (v VarInfo) Numel() int {
	n := 1
	for _, d := range v.Dims {
		if d <= 0 {
			return 0
		}
		if n > math.MaxInt/d {
			return math.MaxInt
		}
		n *= d
	}
	return n
}

func (v VarInfo) String() string {
	ds := make([]string, len(v.Dims))
	for i, d := range v.Dims {
		ds[i] = strconv.Itoa(d)
	}
	c := v.Class
	if v.Complex {
		c += " complex"
	}
	return fmt.Sprintf("%s (%s %s)", v.Name, strings.Join(ds, "x"), c)
}

// variable is a VarInfo plus the means to stream its values.
type variable struct {
	VarInfo
	storage string // type of the values on disk, e.g. "uint8" for a double stored compactly
	// stream delivers the values in MATLAB column-major order: emit gets the
	// linear index of the first value of a run.
	stream func(emit func(start int, vals []float64) error) error
	// fill is the value of the elements stream does not deliver: those of
	// a v7.3 (HDF5) dataset never written, its fill value (0 for v5).
	fill float64
	// maxBytes bounds the bytes the values can expand to, from the file size.
	maxBytes int64
	elemSize int
	// bad is set for a variable whose data is damaged; it is returned when
	// the variable is chosen.
	bad error
	// detail describes the storage (v7.3: HDF5 layout and filters).
	detail string
}

// source is an open MAT file of either version.
type source struct {
	path    string
	format  string // "MAT v5" or "MAT v7.3"
	detail  string
	vars    []*variable
	closeFn func() error
}

func (s *source) Close() error {
	if s.closeFn != nil {
		return s.closeFn()
	}
	return nil
}

// ErrNotNumeric is wrapped by the error for a selected variable that is not
// a real numeric array.
var ErrNotNumeric = errors.New("not a real numeric array")

// open identifies the MAT version of a file and lists the variables.
func open(path string) (*source, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, err
	}
	if st.IsDir() {
		fh.Close()
		return nil, errors.New("is a directory")
	}
	s, err := openReader(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, err
	}
	s.path = path
	s.closeFn = fh.Close
	return s, nil
}

// openReader identifies the MAT version and lists the variables.
func openReader(r io.ReaderAt, size int64) (*source, error) {
	head := make([]byte, min(128, size))
	n, _ := r.ReadAt(head, 0)
	head = head[:n]
	s := &source{}
	isHDF := bytes.HasPrefix(head, hdf5.Signature) || bytes.HasPrefix(head, []byte("MATLAB 7.3"))
	if !isHDF && n == 128 && (string(head[126:128]) == "IM" || string(head[126:128]) == "MI") {
		bo := byteOrder(head[126:128])
		ver := bo.Uint16(head[124:126])
		if ver == 0x0200 {
			isHDF = true
		} else if ver != 0x0100 {
			return nil, fmt.Errorf("MAT header version %#04x is not supported", ver)
		}
	}
	if isHDF {
		s.format = "MAT v7.3"
		if err := s.listV73(r, size); err != nil {
			return nil, err
		}
		return s, nil
	}
	if n < 128 {
		return nil, fmt.Errorf("file of %d bytes is too short for a MAT header (128 bytes)", n)
	}
	if string(head[126:128]) != "IM" && string(head[126:128]) != "MI" {
		if looksV4(head) {
			return nil, errors.New("MAT v4 files are not supported (save with -v7 or -v7.3)")
		}
		return nil, errors.New("not a MAT file: no MAT v5 header and no HDF5 signature")
	}
	s.format = "MAT v5"
	if err := s.listV5(r, size, head); err != nil {
		return nil, err
	}
	return s, nil
}

// looksV4 recognises the header of a MAT v4 matrix: a small type code and
// sensible sizes.
func looksV4(h []byte) bool {
	for _, bo := range []interface{ Uint32([]byte) uint32 }{le, be} {
		t := bo.Uint32(h[0:4])
		m, nn, imag, nlen := bo.Uint32(h[4:8]), bo.Uint32(h[8:12]), bo.Uint32(h[12:16]), bo.Uint32(h[16:20])
		if t < 5000 && t%10 <= 5 && m < 1<<24 && nn < 1<<24 && imag <= 1 && nlen > 0 && nlen < 64 {
			return true
		}
	}
	return false
}

// List returns the variables of a MAT file.
func List(path string) ([]VarInfo, error) {
	s, err := open(path)
	if err != nil {
		return nil, fmt.Errorf("matfile: read %s: %w", path, err)
	}
	defer s.Close()
	out := make([]VarInfo, len(s.vars))
	for i, v := range s.vars {
		out[i] = v.VarInfo
	}
	return out, nil
}

// Read loads one variable of a MAT file as a cube (see the package
// documentation for the variable choice and the layouts).
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	c, info, err := read(path, opt)
	if err != nil {
		return nil, hsi.SourceInfo{}, fmt.Errorf("matfile: read %s: %w", path, err)
	}
	return c, info, nil
}

// Decode reads one variable of a MAT file (v5 or v7.3) of size bytes from
// r, as Read reads a file, for data that is not a file (in memory, in an
// archive, behind a network). Every allocation sized from the data is
// checked against size and the memory limit before it is made; truncated
// or hostile data is an error, never a panic.
func Decode(r io.ReaderAt, size int64, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	if size < 0 {
		return nil, hsi.SourceInfo{}, fmt.Errorf("matfile: decode: size %d is negative", size)
	}
	s, err := openReader(r, size)
	if err == nil {
		var c *hsi.Cube
		var info hsi.SourceInfo
		if c, info, err = s.read(opt); err == nil {
			return c, info, nil
		}
	}
	return nil, hsi.SourceInfo{}, fmt.Errorf("matfile: decode: %w", err)
}

func read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	s, err := open(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	defer s.Close()
	return s.read(opt)
}

// read loads the chosen variable of an open source.
func (s *source) read(opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	v, err := s.choose(opt.Var)
	if err != nil {
		return nil, info, err
	}
	shape, err := resolveLayout(v.VarInfo, s.format, opt)
	if err != nil {
		return nil, info, fmt.Errorf("variable %s: %w", v.Name, err)
	}
	c, err := s.load(v, shape)
	if err != nil {
		return nil, info, err
	}
	s.readMeta(c, v)
	info = hsi.SourceInfo{
		Format:   s.format,
		DataType: typeName(v.Class),
		Layout:   shape.layout,
		Variable: v.Name,
	}
	var det []string
	if s.detail != "" {
		det = append(det, s.detail)
	}
	if v.storage != "" && v.storage != typeName(v.Class) && !(v.Class == "logical" && v.storage == "uint8") {
		det = append(det, "stored as "+v.storage)
	}
	if v.detail != "" {
		det = append(det, v.detail)
	}
	if shape.note != "" {
		det = append(det, shape.note)
	}
	info.Detail = strings.Join(det, "; ")
	return c, info, nil
}

// choose returns the named variable, or the numeric array with the most
// elements.
func (s *source) choose(name string) (*variable, error) {
	if name != "" {
		for _, v := range s.vars {
			if v.Name == name {
				if !v.Numeric {
					return nil, fmt.Errorf("variable %s: %w (MATLAB class %s%s)", v, ErrNotNumeric, v.Class, complexNote(v))
				}
				if v.Numel() == 0 {
					return nil, fmt.Errorf("variable %s has a 0-size dimension", v)
				}
				if v.bad != nil {
					return nil, v.bad
				}
				return v, nil
			}
		}
		return nil, fmt.Errorf("no variable %q (the file holds: %s)", name, s.names())
	}
	var best *variable
	for _, v := range s.vars {
		if v.Numeric && v.Numel() > 0 && (best == nil || v.Numel() > best.Numel()) {
			best = v
		}
	}
	if best == nil {
		return nil, fmt.Errorf("no non-empty real numeric array (the file holds: %s)", s.names())
	}
	if best.bad != nil {
		return nil, best.bad
	}
	return best, nil
}

func complexNote(v *variable) string {
	if v.Complex {
		return ", complex values are not supported"
	}
	return ""
}

func (s *source) names() string {
	if len(s.vars) == 0 {
		return "no variables"
	}
	var p []string
	for _, v := range s.vars {
		p = append(p, v.String())
	}
	return strings.Join(p, ", ")
}

// shape is a resolved layout: the cube size and the map from the MATLAB
// linear index (i0 fastest, then i1, then i2) to the cube's data index
// c0*i0 + c1*i1 + c2*i2.
type shape struct {
	h, w, b    int
	d0, d1, d2 int
	c0, c1, c2 int
	layout     string
	note       string
}

func resolveLayout(v VarInfo, format string, opt hsi.ReadOptions) (shape, error) {
	dims := append([]int(nil), v.Dims...)
	for len(dims) > 3 && dims[len(dims)-1] == 1 {
		dims = dims[:len(dims)-1]
	}
	for _, d := range dims {
		if d <= 0 {
			return shape{}, fmt.Errorf("dimensions %v have a 0-size dimension", v.Dims)
		}
	}
	layout := opt.Layout
	if layout == LayoutHDF5BWH {
		if format != "MAT v7.3" {
			return shape{}, fmt.Errorf("layout %s needs a MAT v7.3 (HDF5) file, this one is %s", layout, format)
		}
		layout = LayoutHWB
	}
	if layout == "" {
		switch {
		case len(dims) == 3:
			layout = LayoutHWB
		case len(dims) == 2 && opt.Height > 0 && opt.Width > 0 && dims[1] == opt.Height*opt.Width && dims[0] != opt.Height:
			layout = LayoutBHW
		case len(dims) == 2 && (opt.Height > 0 || opt.Width > 0) && dims[0] != opt.Height && dims[1] != opt.Width:
			layout = LayoutBHW
		default:
			layout = LayoutHWB
		}
	}
	switch layout {
	case LayoutHWB:
		switch len(dims) {
		case 2:
			h, w := dims[0], dims[1]
			sh := shape{h: h, w: w, b: 1, d0: h, d1: w, d2: 1, c0: w, c1: 1, c2: 0, layout: LayoutHW}
			return sh, checkHW(sh, opt)
		case 3:
			h, w, b := dims[0], dims[1], dims[2]
			l := LayoutHWB
			if format == "MAT v7.3" {
				l = LayoutHDF5BWH
			}
			sh := shape{h: h, w: w, b: b, d0: h, d1: w, d2: b, c0: w * b, c1: b, c2: 1, layout: l}
			return sh, checkHW(sh, opt)
		}
		return shape{}, fmt.Errorf("a %d-D array (%v) is not an image: want H x W or H x W x B", len(dims), v.Dims)
	case LayoutBHW:
		if len(dims) != 2 {
			return shape{}, fmt.Errorf("layout %s wants a 2-D bands x pixels matrix, got dimensions %v", layout, v.Dims)
		}
		b, n := dims[0], dims[1]
		h, w := opt.Height, opt.Width
		var note string
		switch {
		case h > 0 && w > 0:
		case h > 0:
			w = n / h
		case w > 0:
			h = n / w
		default:
			r := int(math.Sqrt(float64(n)))
			for r*r > n {
				r--
			}
			for (r+1)*(r+1) <= n {
				r++
			}
			if r*r != n {
				return shape{}, fmt.Errorf("layout %s: %d pixels are not a square image; give the height and width", layout, n)
			}
			h, w = r, r
			note = fmt.Sprintf("image size %dx%d inferred (square)", h, w)
		}
		if h <= 0 || w <= 0 || h*w != n {
			return shape{}, fmt.Errorf("layout %s: %d pixels do not make a %dx%d image", layout, n, opt.Height, opt.Width)
		}
		return shape{h: h, w: w, b: b, d0: b, d1: h, d2: w, c0: 1, c1: w * b, c2: b, layout: LayoutBHW, note: note}, nil
	}
	return shape{}, fmt.Errorf("unknown layout %q (want %s, %s or %s)", opt.Layout, LayoutHWB, LayoutBHW, LayoutHDF5BWH)
}

func checkHW(sh shape, opt hsi.ReadOptions) error {
	if opt.Height > 0 && opt.Height != sh.h || opt.Width > 0 && opt.Width != sh.w {
		return fmt.Errorf("image is %dx%d, not the %dx%d asked for", sh.h, sh.w, opt.Height, opt.Width)
	}
	return nil
}

// load allocates the cube (after the size checks) and streams the values in.
func (s *source) load(v *variable, sh shape) (*hsi.Cube, error) {
	n, err := hsi.Elems(sh.h, sh.w, sh.b)
	if err != nil {
		return nil, fmt.Errorf("variable %s: %w", v, err)
	}
	if n != v.Numel() {
		return nil, fmt.Errorf("variable %s: layout %s gives %d values for %d elements", v, sh.layout, n, v.Numel())
	}
	if need := int64(n) * int64(v.elemSize); v.maxBytes >= 0 && need/int64(v.elemSize) == int64(n) && need > v.maxBytes {
		return nil, fmt.Errorf("variable %s declares %d values (%d bytes) but the file can hold at most %d bytes: damaged or truncated file", v, n, need, v.maxBytes)
	}
	c, err := raw.NewCube(sh.h, sh.w, sh.b)
	if err != nil {
		return nil, fmt.Errorf("variable %s: %w", v, err)
	}
	if v.fill != 0 {
		for i := range c.Data {
			c.Data[i] = float32(v.fill)
		}
	}
	pb := newPlaneBuffer(&sh, c.Data)
	err = v.stream(func(start int, vals []float64) error {
		if start < 0 || start > n-len(vals) {
			return fmt.Errorf("variable %s: values %d..%d beyond the %d elements", v.Name, start, start+len(vals), n)
		}
		if pb != nil && pb.add(start, vals) {
			return nil
		}
		sh.place(c.Data, start, vals)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if pb != nil {
		pb.flush()
	}
	return c, nil
}

// planeBuffer speeds up an H x W x B array that arrives in order: MATLAB
// stores it band plane after band plane, column-major, and placing each value
// straight into the pixel-interleaved cube touches a new cache line per
// value. The buffer gathers a few whole planes and writes them out pixel by
// pixel, a run of bands at a time.
type planeBuffer struct {
	sh   *shape
	data []float32
	hw   int
	g    int       // planes held
	buf  []float32 // g planes, column-major
	b0   int       // first band in buf
	next int       // linear index expected next
	off  bool      // out-of-order input seen: place directly from now on
}

const planeBufferBytes = 64 << 20

func newPlaneBuffer(sh *shape, data []float32) *planeBuffer {
	if sh.c2 != 1 || sh.b < 2 || sh.d0 != sh.h || sh.d1 != sh.w {
		return nil
	}
	hw := sh.h * sh.w
	g := min(16, sh.b, max(1, planeBufferBytes/(4*hw)))
	if g < 2 {
		return nil
	}
	return &planeBuffer{sh: sh, data: data, hw: hw, g: g, buf: make([]float32, g*hw)}
}

// add takes a run if it continues the sequence; false means place it directly.
func (p *planeBuffer) add(start int, vals []float64) bool {
	if p.off {
		return false
	}
	if start != p.next {
		// Out of order (chunked HDF5): put what is buffered in place and stop buffering.
		p.flushPartial()
		p.off = true
		return false
	}
	for len(vals) > 0 {
		pos := p.next - p.b0*p.hw
		k := min(len(vals), p.g*p.hw-pos)
		dst := p.buf[pos : pos+k]
		for i, v := range vals[:k] {
			dst[i] = float32(v)
		}
		vals = vals[k:]
		p.next += k
		if p.next-p.b0*p.hw == p.g*p.hw || p.next == p.hw*p.sh.b {
			p.flush()
		}
	}
	return true
}

// flush writes the whole planes held.
func (p *planeBuffer) flush() {
	n := (p.next - p.b0*p.hw) / p.hw
	h, w, b := p.sh.h, p.sh.w, p.sh.b
	if n > 0 {
		// Transpose in 32 x 32 pixel tiles so that both sides stay in cache.
		const t = 32
		for y0 := 0; y0 < h; y0 += t {
			for x0 := 0; x0 < w; x0 += t {
				for y := y0; y < min(y0+t, h); y++ {
					for x := x0; x < min(x0+t, w); x++ {
						src := y + x*h
						dst := p.data[(y*w+x)*b+p.b0 : (y*w+x)*b+p.b0+n]
						for k := range dst {
							dst[k] = p.buf[k*p.hw+src]
						}
					}
				}
			}
		}
	}
	rest := p.next - (p.b0+n)*p.hw
	if rest > 0 {
		copy(p.buf, p.buf[n*p.hw:n*p.hw+rest])
	}
	p.b0 += n
}

// flushPartial writes everything held, a partial plane included.
func (p *planeBuffer) flushPartial() {
	p.flush()
	rest := p.next - p.b0*p.hw
	if rest > 0 {
		vals := make([]float64, rest)
		for i := range vals {
			vals[i] = float64(p.buf[i])
		}
		p.sh.place(p.data, p.b0*p.hw, vals)
	}
}

// place stores vals (MATLAB linear indices start, start+1, ...) into data.
func (sh *shape) place(data []float32, start int, vals []float64) {
	i0 := start % sh.d0
	r := start / sh.d0
	i1 := r % sh.d1
	i2 := r / sh.d1
	p := sh.c0*i0 + sh.c1*i1 + sh.c2*i2
	for _, v := range vals {
		data[p] = float32(v)
		i0++
		p += sh.c0
		if i0 == sh.d0 {
			i0 = 0
			i1++
			if i1 == sh.d1 {
				i1 = 0
				i2++
			}
			p = sh.c1*i1 + sh.c2*i2
		}
	}
}

// readMeta fills wavelengths, their units and FWHM from companion variables.
func (s *source) readMeta(c *hsi.Cube, main *variable) {
	vec := func(names ...string) []float64 {
		for _, v := range s.vars {
			if v == main || !v.Numeric || v.bad != nil || v.stream == nil || v.Numel() != c.B {
				continue
			}
			for _, n := range names {
				if strings.EqualFold(v.Name, n) {
					out := make([]float64, c.B)
					for i := range out {
						out[i] = v.fill
					}
					err := v.stream(func(start int, vals []float64) error {
						if start < 0 || start > len(out)-len(vals) {
							return errors.New("out of range")
						}
						copy(out[start:], vals)
						return nil
					})
					if err == nil {
						return out
					}
				}
			}
		}
		return nil
	}
	if w := vec("wavelength", "wavelengths"); w != nil {
		c.Meta.Wavelengths = w
		for _, v := range s.vars {
			if strings.EqualFold(v.Name, "wavelength_units") && v.Class == "char" {
				if u, err := s.readChar(v); err == nil {
					c.Meta.WavelengthUnits = u
				}
			}
		}
	}
	if f := vec("fwhm"); f != nil {
		c.Meta.FWHM = f
	}
}

// readChar reads a short char variable (v5 only; "" otherwise).
func (s *source) readChar(v *variable) (string, error) {
	if v.stream == nil || v.Numel() > 256 {
		return "", errors.New("no char data")
	}
	rs := make([]rune, v.Numel())
	err := v.stream(func(start int, vals []float64) error {
		if start < 0 || start > len(rs)-len(vals) {
			return errors.New("out of range")
		}
		for i, x := range vals {
			rs[start+i] = rune(x)
		}
		return nil
	})
	return string(rs), err
}

// typeName maps a MATLAB class to the project's sample type names.
func typeName(class string) string {
	if t, ok := sample.FromMAT(class); ok {
		return t.String()
	}
	return class
}
