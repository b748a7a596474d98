package matfile

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/omnihsr/omnihsr/hsi/sample"
)

// MAT v5 data types.
const (
	miINT8       = 1
	miUINT8      = 2
	miINT16      = 3
	miUINT16     = 4
	miINT32      = 5
	miUINT32     = 6
	miSINGLE     = 7
	miDOUBLE     = 9
	miINT64      = 12
	miUINT64     = 13
	miMATRIX     = 14
	miCOMPRESSED = 15
	miUTF8       = 16
	miUTF16      = 17
	miUTF32      = 18
)

// MAT v5 array classes.
const (
	mxCELL     = 1
	mxSTRUCT   = 2
	mxOBJECT   = 3
	mxCHAR     = 4
	mxSPARSE   = 5
	mxDOUBLE   = 6
	mxSINGLE   = 7
	mxINT8     = 8
	mxUINT8    = 9
	mxINT16    = 10
	mxUINT16   = 11
	mxINT32    = 12
	mxUINT32   = 13
	mxINT64    = 14
	mxUINT64   = 15
	mxFUNCTION = 16
	mxOPAQUE   = 17
)

var classNames = map[int]string{
	mxCELL: "cell", mxSTRUCT: "struct", mxOBJECT: "object", mxCHAR: "char", mxSPARSE: "sparse",
	mxDOUBLE: "double", mxSINGLE: "single", mxINT8: "int8", mxUINT8: "uint8", mxINT16: "int16",
	mxUINT16: "uint16", mxINT32: "int32", mxUINT32: "uint32", mxINT64: "int64", mxUINT64: "uint64",
	mxFUNCTION: "function_handle", mxOPAQUE: "opaque",
}

// maxDeflateRatio bounds how much a zlib stream can expand (deflate's
// limit is 1032:1).
const maxDeflateRatio = 1032

var (
	le = binary.LittleEndian
	be = binary.BigEndian
)

func byteOrder(ind []byte) binary.ByteOrder {
	if string(ind) == "MI" {
		return be
	}
	return le
}

// miTypes maps the MAT v5 numeric data types to sample types; the UTF
// types of char data decode as unsigned integers of their size.
var miTypes = map[uint32]sample.Type{
	miINT8: sample.Int8, miUINT8: sample.Uint8, miINT16: sample.Int16, miUINT16: sample.Uint16,
	miINT32: sample.Int32, miUINT32: sample.Uint32, miSINGLE: sample.Float32, miDOUBLE: sample.Float64,
	miINT64: sample.Int64, miUINT64: sample.Uint64,
	miUTF8: sample.Uint8, miUTF16: sample.Uint16, miUTF32: sample.Uint32,
}

// typeSize returns the size of a MAT v5 numeric data type (0 if not numeric).
func typeSize(t uint32) int { return miTypes[t].Size() }

// miName names a MAT v5 data type as stored ("int16", "float32", "utf8").
func miName(t uint32) string {
	switch t {
	case miUTF8:
		return "utf8"
	case miUTF16:
		return "utf16"
	case miUTF32:
		return "utf32"
	}
	if st, ok := miTypes[t]; ok {
		return st.String()
	}
	return ""
}

// elemReader reads MAT v5 data elements from a stream.
type elemReader struct {
	r   *bufio.Reader
	bo  binary.ByteOrder
	pos int64 // bytes consumed
	end int64 // bytes available (the enclosing element's size)
}

func (e *elemReader) full(b []byte) error {
	if int64(len(b)) > e.end-e.pos {
		return fmt.Errorf("element needs %d bytes, %d left: %w", len(b), e.end-e.pos, io.ErrUnexpectedEOF)
	}
	n, err := io.ReadFull(e.r, b)
	e.pos += int64(n)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

func (e *elemReader) discard(n int64) error {
	if n > e.end-e.pos {
		return fmt.Errorf("element needs %d bytes, %d left: %w", n, e.end-e.pos, io.ErrUnexpectedEOF)
	}
	m, err := e.r.Discard(int(n))
	e.pos += int64(m)
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return nil
}

// tag reads a data element tag. For a small element the 4 data bytes are
// returned in small and nbytes <= 4.
func (e *elemReader) tag() (typ uint32, nbytes int64, small []byte, err error) {
	var b [8]byte
	if err := e.full(b[:4]); err != nil {
		return 0, 0, nil, err
	}
	first := e.bo.Uint32(b[:4])
	if first>>16 != 0 {
		if err := e.full(b[4:8]); err != nil {
			return 0, 0, nil, err
		}
		n := int64(first >> 16)
		if n > 4 {
			return 0, 0, nil, fmt.Errorf("small data element of %d bytes", n)
		}
		return first & 0xFFFF, n, b[4 : 4+n], nil
	}
	if err := e.full(b[4:8]); err != nil {
		return 0, 0, nil, err
	}
	return first, int64(e.bo.Uint32(b[4:8])), nil, nil
}

// payload reads a whole (small) sub-element's data, with its padding.
func (e *elemReader) payload(limit int64) (typ uint32, data []byte, err error) {
	typ, n, small, err := e.tag()
	if err != nil {
		return 0, nil, err
	}
	if small != nil {
		return typ, small, nil
	}
	if n > limit {
		return 0, nil, fmt.Errorf("sub-element of %d bytes (at most %d expected)", n, limit)
	}
	data = make([]byte, n)
	if err := e.full(data); err != nil {
		return 0, nil, err
	}
	if pad := (8 - n%8) % 8; pad > 0 {
		if err := e.discard(pad); err != nil {
			return 0, nil, err
		}
	}
	return typ, data, nil
}

// matrixHeader is what precedes the data of a miMATRIX element.
type matrixHeader struct {
	class   int
	complex bool
	logical bool
	dims    []int
	name    string
}

// readMatrixHeader reads the array flags, dimensions and name.
func (e *elemReader) readMatrixHeader() (matrixHeader, error) {
	var h matrixHeader
	typ, flags, err := e.payload(64)
	if err != nil {
		return h, fmt.Errorf("array flags: %w", err)
	}
	if typ != miUINT32 || len(flags) != 8 {
		return h, fmt.Errorf("array flags sub-element has type %d and %d bytes, want miUINT32 and 8", typ, len(flags))
	}
	f := e.bo.Uint32(flags[:4])
	h.class = int(f & 0xFF)
	h.complex = f&0x0800 != 0
	h.logical = f&0x0200 != 0
	typ, dims, err := e.payload(4 * 32)
	if err != nil {
		return h, fmt.Errorf("dimensions: %w", err)
	}
	if typ != miINT32 || len(dims)%4 != 0 || len(dims) < 8 {
		return h, fmt.Errorf("dimensions sub-element has type %d and %d bytes", typ, len(dims))
	}
	for i := 0; i < len(dims); i += 4 {
		d := int32(e.bo.Uint32(dims[i:]))
		if d < 0 {
			return h, fmt.Errorf("negative dimension %d", d)
		}
		h.dims = append(h.dims, int(d))
	}
	typ, name, err := e.payload(4096)
	if err != nil {
		return h, fmt.Errorf("array name: %w", err)
	}
	if typ != miINT8 && typ != miUINT8 && typ != miUTF8 {
		return h, fmt.Errorf("array name sub-element has type %d", typ)
	}
	h.name = string(name)
	return h, nil
}

// v5elem locates one top-level element.
type v5elem struct {
	off        int64 // offset of the element's data (after the tag)
	size       int64
	compressed bool
}

func (s *source) listV5(fh io.ReaderAt, size int64, head []byte) error {
	bo := byteOrder(head[126:128])
	order := "little-endian"
	if bo == be {
		order = "big-endian"
	}
	s.detail = order
	ncomp := 0
	pos := int64(128)
	for pos < size {
		if size-pos < 8 {
			break // trailing padding
		}
		var tb [8]byte
		if _, err := fh.ReadAt(tb[:], pos); err != nil {
			return fmt.Errorf("element tag at byte %d: %w", pos, err)
		}
		typ := bo.Uint32(tb[:4])
		n := int64(bo.Uint32(tb[4:8]))
		if typ == 0 && n == 0 {
			break // zero padding at the end
		}
		if typ>>16 != 0 {
			return fmt.Errorf("element at byte %d has a small-element tag at top level: damaged file", pos)
		}
		if n > size-pos-8 {
			return fmt.Errorf("element at byte %d declares %d bytes but only %d remain: truncated file", pos, n, size-pos-8)
		}
		el := v5elem{off: pos + 8, size: n, compressed: typ == miCOMPRESSED}
		next := pos + 8 + n
		switch typ {
		case miMATRIX:
			next += (8 - n%8) % 8
		case miCOMPRESSED:
			ncomp++
		default:
			// Anything else at top level is skipped.
			pos = next + (8-n%8)%8
			continue
		}
		v, err := s.v5var(fh, bo, el)
		if err != nil {
			return fmt.Errorf("element at byte %d: %w", pos, err)
		}
		if v != nil {
			s.vars = append(s.vars, v)
		}
		pos = next
	}
	if ncomp > 0 {
		s.detail += ", compressed"
	}
	return nil
}

// openElem returns a reader over the content of a miMATRIX element (after
// inflating a miCOMPRESSED one).
func openElem(fh io.ReaderAt, bo binary.ByteOrder, el v5elem) (*elemReader, func(), error) {
	sec := io.NewSectionReader(fh, el.off, el.size)
	if !el.compressed {
		return &elemReader{r: bufio.NewReaderSize(sec, 1<<16), bo: bo, end: el.size}, func() {}, nil
	}
	zr, err := zlib.NewReader(bufio.NewReaderSize(sec, 1<<16))
	if err != nil {
		return nil, nil, fmt.Errorf("compressed element: %w", err)
	}
	inner := &elemReader{r: bufio.NewReaderSize(zr, 1<<16), bo: bo, end: math.MaxInt64 / 2}
	typ, n, small, err := inner.tag()
	if err != nil {
		zr.Close()
		return nil, nil, fmt.Errorf("compressed element: %w", err)
	}
	if small != nil || typ != miMATRIX {
		zr.Close()
		return nil, nil, fmt.Errorf("compressed element holds data type %d, want a matrix (14)", typ)
	}
	if n > el.size*maxDeflateRatio+4096 {
		zr.Close()
		return nil, nil, fmt.Errorf("compressed element of %d bytes declares %d bytes of content: damaged file", el.size, n)
	}
	inner.pos = 0
	inner.end = n
	return inner, func() { zr.Close() }, nil
}

// v5var reads the header of a top-level matrix and returns the variable.
func (s *source) v5var(fh io.ReaderAt, bo binary.ByteOrder, el v5elem) (*variable, error) {
	e, done, err := openElem(fh, bo, el)
	if err != nil {
		return nil, err
	}
	defer done()
	h, err := e.readMatrixHeader()
	if err != nil {
		return nil, err
	}
	v := &variable{VarInfo: VarInfo{Name: h.name, Dims: h.dims, Complex: h.complex}, maxBytes: -1}
	cn, ok := classNames[h.class]
	if !ok {
		cn = fmt.Sprintf("class-%d", h.class)
	}
	v.Class = cn
	if h.logical {
		v.Class = "logical"
	}
	numeric := h.class >= mxDOUBLE && h.class <= mxUINT64
	v.Numeric = numeric && !h.complex
	if numeric || h.class == mxCHAR {
		// Peek at the storage type of the real part.
		typ, n, small, err := e.tag()
		if err != nil {
			return nil, fmt.Errorf("variable %s: data: %w", h.name, err)
		}
		v.storage = miName(typ)
		es := typeSize(typ)
		if small != nil {
			n = int64(len(small))
		}
		switch {
		case h.class == mxCHAR:
			if es == 0 || n%int64(es) != 0 || n/int64(es) != int64(v.Numel()) {
				return v, nil // multi-byte UTF-8 or damaged: listed, never read
			}
		case es == 0:
			v.bad = fmt.Errorf("variable %s: unknown data type %d", h.name, typ)
			return v, nil
		case typ == miUTF8 || typ == miUTF16 || typ == miUTF32:
			v.bad = fmt.Errorf("variable %s: numeric class %s stored as %s", h.name, cn, v.storage)
			return v, nil
		case n%int64(es) != 0 || n/int64(es) != int64(v.Numel()):
			v.bad = fmt.Errorf("variable %s: data holds %d bytes of %s, dimensions %v want %d values: damaged file", h.name, n, v.storage, h.dims, v.Numel())
			return v, nil
		}
		v.elemSize = es
		if el.compressed {
			v.maxBytes = el.size*maxDeflateRatio + 4096
		} else {
			v.maxBytes = el.size
		}
		v.stream = func(emit func(int, []float64) error) error {
			return streamV5(fh, bo, el, emit)
		}
	}
	return v, nil
}

// streamV5 re-reads a matrix element and delivers its real values.
func streamV5(fh io.ReaderAt, bo binary.ByteOrder, el v5elem, emit func(int, []float64) error) error {
	e, done, err := openElem(fh, bo, el)
	if err != nil {
		return err
	}
	defer done()
	h, err := e.readMatrixHeader()
	if err != nil {
		return err
	}
	typ, n, small, err := e.tag()
	if err != nil {
		return fmt.Errorf("variable %s: data: %w", h.name, err)
	}
	es := typeSize(typ)
	if es == 0 {
		return fmt.Errorf("variable %s: unknown data type %d", h.name, typ)
	}
	if small != nil {
		vals := make([]float64, len(small)/es)
		sample.DecodeFloat64(vals, small[:len(vals)*es], miTypes[typ], bo == be)
		return emit(0, vals)
	}
	const step = 1 << 16
	raw := make([]byte, step*es)
	vals := make([]float64, step)
	total := n / int64(es)
	for done := int64(0); done < total; {
		k := min(int64(step), total-done)
		if err := e.full(raw[:k*int64(es)]); err != nil {
			return fmt.Errorf("variable %s: data: %w", h.name, err)
		}
		sample.DecodeFloat64(vals[:k], raw[:k*int64(es)], miTypes[typ], bo == be)
		if err := emit(int(done), vals[:k]); err != nil {
			return err
		}
		done += k
	}
	return nil
}
