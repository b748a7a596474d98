package npy

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

var magic = []byte("\x93NUMPY")

// maxHeader bounds the header dictionary (numpy itself refuses more than
// 10000 bytes by default).
const maxHeader = 1 << 20

// header is a parsed .npy header.
type header struct {
	major, minor int
	dataStart    int64
	descr        string
	typ          sample.Type
	bigEndian    bool
	fortran      bool
	shape        []int64
}

// parseHeader reads the preamble and dictionary from the start of a file.
func parseHeader(r io.ReaderAt, size int64) (*header, error) {
	pre := make([]byte, 12)
	n, _ := r.ReadAt(pre, 0)
	if n < 10 || string(pre[:6]) != string(magic) {
		return nil, errors.New("not a NumPy .npy file (bad magic)")
	}
	h := &header{major: int(pre[6]), minor: int(pre[7])}
	var hlen, start int64
	switch h.major {
	case 1:
		hlen, start = int64(binary.LittleEndian.Uint16(pre[8:])), 10
	case 2, 3:
		if n < 12 {
			return nil, errors.New("header ends early")
		}
		hlen, start = int64(binary.LittleEndian.Uint32(pre[8:])), 12
	default:
		return nil, fmt.Errorf("unsupported .npy format version %d.%d", h.major, h.minor)
	}
	if hlen > maxHeader {
		return nil, fmt.Errorf("header of %d bytes is too large", hlen)
	}
	if start+hlen > size {
		return nil, fmt.Errorf("header of %d bytes runs past the end of the %d-byte file", hlen, size)
	}
	text := make([]byte, hlen)
	if _, err := r.ReadAt(text, start); err != nil && !(errors.Is(err, io.EOF) && hlen == 0) {
		return nil, fmt.Errorf("reading header: %w", err)
	}
	h.dataStart = start + hlen
	if h.major < 3 {
		for _, c := range text {
			if c >= 0x80 {
				return nil, fmt.Errorf("version %d.%d header is not ASCII", h.major, h.minor)
			}
		}
	} else if !utf8.Valid(text) {
		return nil, errors.New("version 3.0 header is not UTF-8")
	}
	d, err := parseDict(string(text))
	if err != nil {
		return nil, err
	}
	if err := h.fill(d); err != nil {
		return nil, err
	}
	return h, nil
}

// value is a Python literal of the header dictionary.
type value struct {
	kind  byte // 's' string, 'b' bool, 't' tuple of ints, 'o' other
	str   string
	b     bool
	tuple []int64
}

// parseDict parses the header's Python dict literal: string keys mapped to
// strings, True/False and tuples of integers.
func parseDict(s string) (map[string]value, error) {
	p := &lexer{s: s}
	p.space()
	if !p.eat('{') {
		return nil, errors.New("header is not a Python dict")
	}
	d := map[string]value{}
	for {
		p.space()
		if p.eat('}') {
			break
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if !p.eat(':') {
			return nil, fmt.Errorf("header: no ':' after key %q", k)
		}
		p.space()
		v, err := p.value()
		if err != nil {
			return nil, fmt.Errorf("header: key %q: %w", k, err)
		}
		d[k] = v
		p.space()
		if p.eat(',') {
			continue
		}
		p.space()
		if p.eat('}') {
			break
		}
		return nil, fmt.Errorf("header: expected ',' or '}' after key %q", k)
	}
	p.space()
	if p.i != len(p.s) {
		return nil, errors.New("header: text after the dict")
	}
	return d, nil
}

type lexer struct {
	s string
	i int
}

func (p *lexer) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\r\n", p.s[p.i]) >= 0 {
		p.i++
	}
}

func (p *lexer) eat(c byte) bool {
	if p.i < len(p.s) && p.s[p.i] == c {
		p.i++
		return true
	}
	return false
}

func (p *lexer) str() (string, error) {
	if p.i >= len(p.s) || (p.s[p.i] != '\'' && p.s[p.i] != '"') {
		return "", errors.New("header: expected a quoted string")
	}
	q := p.s[p.i]
	end := strings.IndexByte(p.s[p.i+1:], q)
	if end < 0 {
		return "", errors.New("header: unterminated string")
	}
	v := p.s[p.i+1 : p.i+1+end]
	p.i += end + 2
	return v, nil
}

func (p *lexer) value() (value, error) {
	if p.i >= len(p.s) {
		return value{}, errors.New("missing value")
	}
	switch c := p.s[p.i]; {
	case c == '\'' || c == '"':
		s, err := p.str()
		return value{kind: 's', str: s}, err
	case strings.HasPrefix(p.s[p.i:], "True"):
		p.i += 4
		return value{kind: 'b', b: true}, nil
	case strings.HasPrefix(p.s[p.i:], "False"):
		p.i += 5
		return value{kind: 'b'}, nil
	case c == '(':
		p.i++
		var t []int64
		for {
			p.space()
			if p.eat(')') {
				return value{kind: 't', tuple: t}, nil
			}
			j := p.i
			for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '-' || p.s[p.i] == 'L') {
				p.i++
			}
			num := strings.TrimSuffix(p.s[j:p.i], "L")
			v, err := strconv.ParseInt(num, 10, 64)
			if err != nil {
				return value{}, fmt.Errorf("bad shape entry %q", p.s[j:p.i])
			}
			t = append(t, v)
			p.space()
			if p.eat(',') {
				continue
			}
			p.space()
			if p.eat(')') {
				return value{kind: 't', tuple: t}, nil
			}
			return value{}, errors.New("bad shape tuple")
		}
	case c == '[':
		return value{}, errors.New("structured arrays (a list descr) are not supported")
	}
	return value{}, fmt.Errorf("unsupported value at %q", trunc(p.s[p.i:], 20))
}

func trunc(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

func (h *header) fill(d map[string]value) error {
	descr, ok := d["descr"]
	if !ok || descr.kind != 's' {
		return errors.New("header has no 'descr' string")
	}
	order, ok := d["fortran_order"]
	if !ok || order.kind != 'b' {
		return errors.New("header has no 'fortran_order' True/False")
	}
	shape, ok := d["shape"]
	if !ok || shape.kind != 't' {
		return errors.New("header has no 'shape' tuple")
	}
	h.descr, h.fortran, h.shape = descr.str, order.b, shape.tuple
	ds := descr.str
	if len(ds) < 2 {
		return fmt.Errorf("unsupported dtype %q", ds)
	}
	bo, code := ds[0], ds[1:]
	if !strings.ContainsRune("<>|=", rune(bo)) {
		bo, code = '=', ds
	}
	t, ok := sample.FromNPY(code)
	if !ok {
		return fmt.Errorf("unsupported dtype %q (want one of u1 i1 u2 i2 u4 i4 u8 i8 f2 f4 f8)", ds)
	}
	h.typ = t
	h.bigEndian = bo == '>'
	if len(h.shape) != 2 && len(h.shape) != 3 {
		return fmt.Errorf("shape %v: want (H, W) or (H, W, B)", h.shape)
	}
	for _, v := range h.shape {
		if v <= 0 {
			return fmt.Errorf("shape %v has no data (%w)", h.shape, hsi.ErrEmpty)
		}
		if v > 1<<31-1 {
			return fmt.Errorf("shape %v is too large", h.shape)
		}
	}
	return nil
}

func (h *header) dims() (H, W, B int) {
	H, W, B = int(h.shape[0]), int(h.shape[1]), 1
	if len(h.shape) == 3 {
		B = int(h.shape[2])
	}
	return
}

// Read reads a .npy file into a cube. On NaN or infinite values it returns
// the cube together with a *hsi.NonFiniteError.
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	f, err := os.Open(path)
	if err != nil {
		return nil, info, fmt.Errorf("npy: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, info, fmt.Errorf("npy: %w", err)
	}
	if st.IsDir() {
		return nil, info, fmt.Errorf("npy: %s is a directory", path)
	}
	c, h, err := decode(f, st.Size(), path)
	if h != nil {
		info = sourceInfo(h)
	}
	return c, info, err
}

// Decode reads a .npy array of size bytes from r, as Read reads a file,
// for data that is not a file (in memory, in an archive, behind a
// network). The allocation of the cube is checked against size and the
// memory limit before it is made; truncated or hostile data is an error,
// never a panic. On NaN or infinite values it returns the cube together
// with a *hsi.NonFiniteError whose Path is "input". The options are not
// used.
func Decode(r io.ReaderAt, size int64, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	if size < 0 {
		return nil, info, fmt.Errorf("npy: decode: size %d is negative", size)
	}
	c, h, err := decode(r, size, "input")
	if h != nil {
		info = sourceInfo(h)
	}
	return c, info, err
}

func sourceInfo(h *header) hsi.SourceInfo {
	order, layout := "little-endian", "C order"
	if h.bigEndian {
		order = "big-endian"
	}
	if h.typ.Size() == 1 {
		order = "no byte order"
	}
	if h.fortran {
		layout = "Fortran order"
	}
	shape := make([]string, len(h.shape))
	for i, v := range h.shape {
		shape[i] = strconv.FormatInt(v, 10)
	}
	return hsi.SourceInfo{
		Format: "NPY", DataType: h.typ.String(),
		Layout: fmt.Sprintf("%s (%s)", layout, strings.Join(shape, ", ")),
		Detail: fmt.Sprintf("format version %d.%d, dtype '%s', %s", h.major, h.minor, h.descr, order),
	}
}

// decode reads a whole .npy file from r (size bytes).
// checkedHeader parses the header of a .npy array of size bytes and checks
// that the data its shape declares fits in the rest: the checks Read and
// OpenRows make before reading a sample. The header is returned whenever
// it parsed, with or without an error.
func checkedHeader(r io.ReaderAt, size int64, name string) (*header, error) {
	h, err := parseHeader(r, size)
	if err != nil {
		return nil, fmt.Errorf("npy: %s: %w", name, err)
	}
	H, W, B := h.dims()
	need, ok := raw.MulSize(int64(H), int64(W), int64(B), int64(h.typ.Size()))
	if !ok || need > 1<<62 {
		return h, fmt.Errorf("npy: %s: shape %v is too large", name, h.shape)
	}
	if size-h.dataStart < need {
		return h, fmt.Errorf("npy: %s: holds %d bytes of data, but shape %v of %s needs %d: truncated file",
			name, size-h.dataStart, h.shape, h.typ, need)
	}
	return h, nil
}

func decode(r io.ReaderAt, size int64, name string) (*hsi.Cube, *header, error) {
	h, err := checkedHeader(r, size, name)
	if err != nil {
		return nil, h, err
	}
	H, W, B := h.dims()
	c, err := raw.NewCube(H, W, B)
	if err != nil {
		return nil, h, fmt.Errorf("npy: %s: %w", name, err)
	}
	var tr raw.FiniteTracker
	if h.fortran {
		err = readFortran(r, h, c, &tr)
	} else {
		err = readC(r, h, c, &tr)
	}
	if err != nil {
		return nil, h, fmt.Errorf("npy: %s: %w", name, err)
	}
	return c, h, tr.Err(name)
}

func readFull(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// readC: C order (H, W, B) is the cube's own order.
func readC(r io.ReaderAt, h *header, c *hsi.Cube, tr *raw.FiniteTracker) error {
	read := func(b []byte, off int64) error { return readFull(r, b, off) }
	return raw.DecodePixels(read, h.dataStart, c, h.typ, h.bigEndian, tr)
}

// readFortran: element (y, x, b) is at y + H*(x + W*b): each band is a
// column-major image. Runs of consecutive y are scattered with stride W*B.
func readFortran(r io.ReaderAt, h *header, c *hsi.Cube, tr *raw.FiniteTracker) error {
	es := h.typ.Size()
	H, W, B := c.H, c.W, c.B
	read := func(b []byte, off int64) error { return readFull(r, b, off) }
	return raw.ReadChunks(read, h.dataStart, len(c.Data), es, func(i, n int, b []byte) {
		for k := 0; k < n; {
			e := i + k
			y, x, band := e%H, (e/H)%W, e/(H*W)
			run := min(H-y, n-k)
			dst := c.Data[(y*W+x)*B+band:]
			first, nbad := sample.Decode(dst, W*B, b[k*es:], run, h.typ, h.bigEndian)
			if nbad > 0 {
				tr.Note(nbad, y+first, x, band, dst[first*W*B])
			}
			k += run
		}
	})
}

// headerBytes returns the preamble and padded dictionary for a C-order
// array of the given dtype and shape.
func headerBytes(descr string, shape []int) []byte {
	dims := make([]string, len(shape))
	for i, v := range shape {
		dims[i] = strconv.Itoa(v)
	}
	sh := strings.Join(dims, ", ")
	if len(shape) == 1 {
		sh += ","
	}
	dict := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%s), }", descr, sh)
	// Pad with spaces so that the data starts on a multiple of 64 bytes,
	// ending with a newline, as numpy does.
	pre := 10
	if len(dict)+1+pre+63 > 65535 {
		pre = 12
	}
	total := (pre + len(dict) + 1 + 63) / 64 * 64
	hlen := total - pre
	out := make([]byte, 0, total)
	out = append(out, magic...)
	if pre == 10 {
		out = append(out, 1, 0)
		out = binary.LittleEndian.AppendUint16(out, uint16(hlen))
	} else {
		out = append(out, 2, 0)
		out = binary.LittleEndian.AppendUint32(out, uint32(hlen))
	}
	out = append(out, dict...)
	for len(out) < total-1 {
		out = append(out, ' ')
	}
	return append(out, '\n')
}

// Write stores c as a C-order (H, W, B) .npy file.
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("npy: write %s: %w", path, err)
	}
	t, descr, err := writeType(opt)
	if err != nil {
		return fmt.Errorf("npy: write %s: %w", path, err)
	}
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("npy: %w", err)
	}
	defer f.Abort()
	hdr := headerBytes(descr, []int{c.H, c.W, c.B})
	if _, err := f.Write(hdr); err != nil {
		return fmt.Errorf("npy: write %s: %w", path, err)
	}
	if _, err := encodeRows(nil, f, c.Data, c.W, c.B, 0, t); err != nil {
		return fmt.Errorf("npy: write %s: %w", path, err)
	}
	return f.Commit()
}

// writeType returns the sample type and dtype descriptor that opt asks for.
func writeType(opt hsi.WriteOptions) (sample.Type, string, error) {
	t, err := raw.WriteType(opt.DataType)
	if err != nil {
		return 0, "", err
	}
	descr, ok := t.NPY()
	if !ok {
		return 0, "", fmt.Errorf("data type %s cannot be written", t)
	}
	return t, descr, nil
}

// encodeRows appends data, whole rows of w pixels of b bands starting at
// row y0, to f as samples of type t in C order, encoding through buf (or a
// new buffer when it is too small); it returns the buffer used.
func encodeRows(buf []byte, f io.Writer, data []float32, w, b, y0 int, t sample.Type) ([]byte, error) {
	return raw.EncodePixels(buf, data, w, b, y0, t, func(p []byte, _ int) error {
		_, err := f.Write(p)
		return err
	})
}
