package png

import (
	"bufio"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// ErrNotStreamed marks a PNG that RowReader does not read a row at a time
// (interlaced, a palette, or fewer than 8 bits a sample): Read reads it
// whole.
var ErrNotStreamed = errors.New("png: not read a row at a time (interlaced, palette or under 8 bits a sample)")

// RowReader reads a non-interlaced grey, grey+alpha, RGB or RGBA PNG of 8
// or 16 bits a sample a range of rows at a time, decoding the compressed
// stream as it goes, so that neither the decoded image nor the cube is
// held: the memory is two rows of the file. The values, band count,
// metadata and source description are Read's.
type RowReader struct {
	H, W, B int
	Meta    hsi.Meta
	Info    hsi.SourceInfo

	path string
	f    *os.File
	hd   ihdr
	bpp  int // bytes a pixel in the file
	z    io.ReadCloser
	next int // the next row the stream gives
	cur  []byte
	prev []byte
	ch   *idatReader
}

// OpenRows opens the PNG at path for ReadRows; ErrNotStreamed (wrapped)
// when its kind is read whole only.
func OpenRows(path string) (*RowReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	r, err := openRows(path, f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

func openRows(path string, f *os.File) (*RowReader, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("png: %w", err)
	}
	head := make([]byte, 33)
	n, _ := io.ReadFull(f, head)
	hd, err := readIHDR(head[:n])
	if err != nil {
		return nil, fmt.Errorf("png: %s: %w", path, err)
	}
	interlace := head[28]
	if interlace != 0 || hd.colourType == 3 || (hd.depth != 8 && hd.depth != 16) {
		return nil, fmt.Errorf("%s: %w", path, ErrNotStreamed)
	}
	channels := map[uint8]int{0: 1, 2: 3, 4: 2, 6: 4}[hd.colourType]
	if channels == 0 {
		return nil, fmt.Errorf("png: %s: unsupported colour type %d", path, hd.colourType)
	}
	if hd.w == 0 || hd.h == 0 {
		return nil, fmt.Errorf("png: %s: image of %dx%d pixels has no data (%w)", path, hd.w, hd.h, hsi.ErrEmpty)
	}
	if hd.w > 1<<30 || hd.h > 1<<30 {
		return nil, fmt.Errorf("png: %s: the header claims %dx%d pixels", path, hd.w, hd.h)
	}
	// As Read: deflate cannot compress better than about 1032:1, and a
	// pixel takes at least one bit.
	pixels := uint64(hd.w) * uint64(hd.h)
	if pixels > 8*1040*uint64(st.Size())+1<<16 {
		return nil, fmt.Errorf("png: %s: the header claims %dx%d pixels, impossible for a file of %d bytes", path, hd.w, hd.h, st.Size())
	}
	bpp := channels * int(hd.depth) / 8
	if err := memlimit.Check(2*uint64(hd.w)*uint64(bpp)+1<<16, fmt.Sprintf("png: %s: two rows of %d pixels", path, hd.w)); err != nil {
		return nil, err
	}
	bands := 3
	if hd.colourType == 0 || hd.colourType == 4 {
		bands = 1
	}
	r := &RowReader{H: int(hd.h), W: int(hd.w), B: bands, path: path, f: f, hd: hd, bpp: bpp}
	r.Info = hsi.SourceInfo{Format: "PNG", DataType: "uint8", Layout: colourNames[hd.colourType],
		Detail: fmt.Sprintf("colour type %d (%s), bit depth %d", hd.colourType, colourNames[hd.colourType], hd.depth)}
	if hd.depth == 16 {
		r.Info.DataType = "uint16"
	}
	if hd.colourType == 4 || hd.colourType == 6 {
		r.Info.Detail += "; alpha dropped"
	}
	r.Info.Layout += fmt.Sprintf(", %d band(s)", bands)
	if bands == 3 {
		r.Meta.BandNames = []string{"red", "green", "blue"}
	}
	if err := r.restart(); err != nil {
		return nil, err
	}
	return r, nil
}

// restart positions the stream at row 0.
func (r *RowReader) restart() error {
	if r.z != nil {
		r.z.Close()
		r.z = nil
	}
	if _, err := r.f.Seek(8, io.SeekStart); err != nil {
		return fmt.Errorf("png: %s: %w", r.path, err)
	}
	r.ch = &idatReader{r: bufio.NewReader(r.f)}
	z, err := zlib.NewReader(r.ch)
	if err != nil {
		return fmt.Errorf("png: %s: %w", r.path, r.ch.cause(err))
	}
	r.z, r.next = z, 0
	n := r.W*r.bpp + 1
	r.cur, r.prev = make([]byte, n), make([]byte, n)
	return nil
}

// ReadRows fills dst with rows [y0, y1) (pixel-interleaved float32, B
// values a pixel). Rows are decoded in order: a range before the last one
// read restarts the stream.
func (r *RowReader) ReadRows(y0, y1 int, dst []float32) error {
	if y0 < 0 || y1 > r.H || y0 > y1 {
		return fmt.Errorf("png: %s: rows [%d, %d) of %d", r.path, y0, y1, r.H)
	}
	if len(dst) < (y1-y0)*r.W*r.B {
		return fmt.Errorf("png: %s: buffer of %d values for %d rows", r.path, len(dst), y1-y0)
	}
	if y0 < r.next {
		if err := r.restart(); err != nil {
			return err
		}
	}
	for r.next < y1 {
		if err := r.row(); err != nil {
			return err
		}
		if y := r.next - 1; y >= y0 {
			r.convert(dst[(y-y0)*r.W*r.B : (y-y0+1)*r.W*r.B])
		}
	}
	return nil
}

// row decodes the next row into r.cur (its filter undone).
func (r *RowReader) row() error {
	r.cur, r.prev = r.prev, r.cur
	if _, err := io.ReadFull(r.z, r.cur); err != nil {
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return fmt.Errorf("png: %s: the image data ends at row %d of %d", r.path, r.next, r.H)
		}
		return fmt.Errorf("png: %s: row %d: %w", r.path, r.next, r.ch.cause(err))
	}
	if r.next == 0 {
		clear(r.prev)
	}
	cur, prev, bpp := r.cur[1:], r.prev[1:], r.bpp
	switch r.cur[0] {
	case 0:
	case 1: // Sub
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case 2: // Up
		for i, p := range prev {
			cur[i] += p
		}
	case 3: // Average
		for i := range bpp {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += uint8((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case 4: // Paeth
		for i := range cur {
			var a, c int
			if i >= bpp {
				a, c = int(cur[i-bpp]), int(prev[i-bpp])
			}
			cur[i] += paeth(a, int(prev[i]), c)
		}
	default:
		return fmt.Errorf("png: %s: row %d: bad filter type %d", r.path, r.next, r.cur[0])
	}
	r.next++
	return nil
}

func paeth(a, b, c int) uint8 {
	p := a + b - c
	pa, pb, pc := abs(p-a), abs(p-b), abs(p-c)
	switch {
	case pa <= pb && pa <= pc:
		return uint8(a)
	case pb <= pc:
		return uint8(b)
	}
	return uint8(c)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// convert writes the colour samples of the decoded row r.cur to dst.
func (r *RowReader) convert(dst []float32) {
	px := r.cur[1:]
	wide := r.hd.depth == 16
	step := r.bpp
	size := 1
	if wide {
		size = 2
	}
	for x := range r.W {
		p := px[x*step:]
		for b := range r.B {
			if wide {
				dst[x*r.B+b] = float32(binary.BigEndian.Uint16(p[b*size:]))
			} else {
				dst[x*r.B+b] = float32(p[b])
			}
		}
	}
}

// Close closes the file.
func (r *RowReader) Close() error {
	if r.z != nil {
		r.z.Close()
	}
	return r.f.Close()
}

// idatReader gives the data of the IDAT chunks of a PNG whose reader
// stands after the signature, checking each chunk's CRC; other ancillary
// chunks are skipped, an unknown critical chunk is an error.
type idatReader struct {
	r    *bufio.Reader
	left uint32 // bytes of the current IDAT chunk not yet given
	crc  uint32
	err  error
	seen bool // the current chunk is an IDAT chunk whose CRC is unread
	had  bool // an IDAT chunk was met
	done bool // the IDAT chunks are over
}

// cause returns the chunk error behind a zlib error, when there is one.
func (d *idatReader) cause(err error) error {
	if d.err != nil && d.err != io.EOF {
		return d.err
	}
	return err
}

func (d *idatReader) Read(p []byte) (int, error) {
	if d.err != nil {
		return 0, d.err
	}
	for d.left == 0 {
		if d.seen {
			if err := d.checkCRC(); err != nil {
				d.err = err
				return 0, err
			}
		}
		if err := d.nextIDAT(); err != nil {
			d.err = err
			return 0, err
		}
	}
	n := min(len(p), int(d.left))
	n, err := io.ReadFull(d.r, p[:n])
	d.crc = crc32.Update(d.crc, crc32.IEEETable, p[:n])
	d.left -= uint32(n)
	if err != nil {
		d.err = fmt.Errorf("the file ends inside an IDAT chunk")
		return n, d.err
	}
	return n, nil
}

// checkCRC reads and checks the CRC of the IDAT chunk just consumed.
func (d *idatReader) checkCRC() error {
	var b [4]byte
	if _, err := io.ReadFull(d.r, b[:]); err != nil {
		return fmt.Errorf("the file ends inside an IDAT chunk")
	}
	if binary.BigEndian.Uint32(b[:]) != d.crc {
		return fmt.Errorf("invalid checksum of an IDAT chunk")
	}
	d.seen = false
	return nil
}

// nextIDAT moves to the data of the next IDAT chunk (io.EOF after the
// last one).
func (d *idatReader) nextIDAT() error {
	for {
		var h [8]byte
		if _, err := io.ReadFull(d.r, h[:]); err != nil {
			return fmt.Errorf("the file ends before its IEND chunk")
		}
		n, typ := binary.BigEndian.Uint32(h[:4]), string(h[4:])
		if n > 1<<31-1 {
			return fmt.Errorf("chunk %q of %d bytes", typ, n)
		}
		if typ == "IDAT" {
			if d.done {
				return fmt.Errorf("an IDAT chunk after another chunk ended the image data")
			}
			d.left, d.seen, d.had = n, true, true
			d.crc = crc32.Update(0, crc32.IEEETable, h[4:])
			if n == 0 {
				if err := d.checkCRC(); err != nil {
					return err
				}
				continue
			}
			return nil
		}
		if d.had {
			d.done = true // a chunk after the IDAT chunks ends the image data
		}
		if typ == "IEND" {
			return io.EOF
		}
		if typ[0]&0x20 == 0 && typ != "IHDR" && typ != "PLTE" {
			return fmt.Errorf("unknown critical chunk %q", typ)
		}
		crc := crc32.Update(0, crc32.IEEETable, h[4:])
		body := make([]byte, min(n, 1<<16))
		for left := n; left > 0; {
			k := min(left, uint32(len(body)))
			if _, err := io.ReadFull(d.r, body[:k]); err != nil {
				return fmt.Errorf("the file ends inside chunk %q", typ)
			}
			crc = crc32.Update(crc, crc32.IEEETable, body[:k])
			left -= k
		}
		var b [4]byte
		if _, err := io.ReadFull(d.r, b[:]); err != nil || binary.BigEndian.Uint32(b[:]) != crc {
			return fmt.Errorf("invalid checksum of chunk %q", typ)
		}
	}
}
