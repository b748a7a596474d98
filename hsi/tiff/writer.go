package tiff

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"sort"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/internal/rowstream"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/par"
)

// stripTarget is the raw size aimed at for one strip of one band.
const stripTarget = 64 << 10

// bigTIFFAbove is the file size above which BIGTIFF=IF_NEEDED writes
// BigTIFF (a variable so that tests can force BigTIFF on small files).
var bigTIFFAbove uint64 = math.MaxUint32

// ifSaferAbove is the file size above which BIGTIFF=IF_SAFER writes BigTIFF.
var ifSaferAbove uint64 = 1 << 31

// headerReserve is where image data starts in a GTiff file: room for a
// BigTIFF header, so that the choice between TIFF and BigTIFF waits until
// the size is known.
const headerReserve = 16

// Write stores the cube as a TIFF (a GeoTIFF when the cube is georeferenced);
// see the package documentation.
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := c.Validate(); err != nil {
		return fmt.Errorf("tiff: write %s: %w", path, err)
	}
	s, err := Create(path, c.H, c.W, c.B, c.Meta, opt)
	if err != nil {
		return err
	}
	defer s.Abort()
	if err := s.WriteRows(c.Data); err != nil {
		return err
	}
	return s.Commit()
}

// level is the layout of one image of the file: the full-resolution image
// or an overview.
type level struct {
	w, h         int
	cw, ch       int // strip or tile size
	tiled        bool
	across, down int
	offsets      []uint64
	counts       []uint64
}

func newLevel(w, h, cw, ch, b int, tiled bool) *level {
	l := &level{w: w, h: h, cw: cw, ch: ch, tiled: tiled}
	if !tiled {
		l.cw = w
	}
	l.across = (w + l.cw - 1) / l.cw
	l.down = (h + ch - 1) / ch
	n := l.across * l.down * b
	l.offsets = make([]uint64, n)
	l.counts = make([]uint64, n)
	return l
}

// StreamWriter writes a TIFF a block of rows at a time: see Create.
type StreamWriter struct {
	rs *rowstream.Writer
}

// streamSink is the rowstream.Sink of a StreamWriter: the file's layout,
// the encoder and the block of rows being filled.
type streamSink struct {
	path     string
	h, w, b  int
	meta     hsi.Meta
	st       sampleType
	o        Options
	f        *atomicfile.File
	out      *bufio.Writer // the file (GTiff) or the spill file (COG)
	pos      uint64        // bytes written to out
	main     *level
	enc      *blockEncoder
	buf      []float32 // rows of the block being filled
	rows     int       // rows in buf
	next     int       // rows received
	spill    *os.File  // COG: the full-resolution tiles until Commit
	spillTmp *atomicfile.File
	ovr      *hsi.Cube // COG: the first overview, filled as rows arrive
}

// Create starts a TIFF of h x w pixels and b bands at path, written as
// Write would write a cube with meta and opt. Rows are given in order with
// WriteRows and Commit publishes the file; the memory held is one block of
// rows (a strip or tile height) plus, for a COG, the first overview (a
// quarter of the image as float32) and, at Commit, the smaller ones and
// the overviews' compressed tiles (about 0.4 of the image in all). Any
// error is final and removes what was written.
func Create(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (*StreamWriter, error) {
	s, err := create(path, h, w, b, meta, opt)
	if err != nil {
		return nil, fmt.Errorf("tiff: write %s: %w", path, err)
	}
	return &StreamWriter{rs: rowstream.New("tiff", path, h, w, b, s)}, nil
}

func create(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (*streamSink, error) {
	if _, err := hsi.Elems(h, w, b); err != nil {
		return nil, err
	}
	if b <= 65535 {
		// The metadata's band lists, checked on a one-pixel cube.
		if err := (&hsi.Cube{H: 1, W: 1, B: b, Data: make([]float32, b), Meta: meta}).Validate(); err != nil {
			return nil, err
		}
	}
	st, ok := tiffType(opt.DataType)
	if !ok {
		return nil, fmt.Errorf("data type %q is not supported (float32, float64, uint8, int8, uint16, int16, uint32, int32)", opt.DataType)
	}
	o, err := ParseOptions(opt)
	if err != nil {
		return nil, err
	}
	if b > 65535 {
		return nil, fmt.Errorf("%d bands: TIFF holds at most 65535 samples per pixel", b)
	}
	switch {
	case o.Predictor == 0 && st.format == 3:
		o.Predictor = 3
	case o.Predictor == 0:
		o.Predictor = 2
	case o.Predictor == 3 && st.format != 3:
		return nil, fmt.Errorf("PREDICTOR=3 (floating point) does not apply to %s samples", st.name)
	}
	es := st.bits / 8
	switch {
	case o.COG && o.BlockW == 0:
		o.BlockW, o.BlockH = 512, 512
	case o.Tiled:
		if o.BlockW == 0 {
			o.BlockW = 256
		}
		if o.BlockH == 0 {
			o.BlockH = 256
		}
	case o.BlockH == 0:
		o.BlockH = max(1, min(h, stripTarget/(w*es)))
	}
	if !o.Tiled {
		o.BlockH = min(o.BlockH, h)
	}
	if err := checkBlockMemory(o, w, b, es); err != nil {
		return nil, err
	}
	s := &streamSink{path: path, h: h, w: w, b: b, meta: meta.Clone(), st: st, o: o}
	s.main = newLevel(w, h, o.BlockW, o.BlockH, b, o.Tiled)
	if s.enc, err = newBlockEncoder(st, o, b); err != nil {
		return nil, err
	}
	if o.COG {
		ow, oh := (w+1)/2, (h+1)/2
		if o.Overviews && (w > o.BlockW || h > o.BlockH) {
			if err := memlimit.Check(uint64(ow)*uint64(oh)*uint64(b)*4, fmt.Sprintf("COG overview %dx%dx%d float32", oh, ow, b)); err != nil {
				return nil, err
			}
			if s.ovr, err = hsi.New(oh, ow, b); err != nil {
				return nil, err
			}
		}
	}
	if s.f, err = atomicfile.Create(path); err != nil {
		return nil, err
	}
	if o.COG {
		// A temporary of atomicfile, so that a signal removes it too.
		s.spillTmp, err = atomicfile.Create(path + ".cog")
		if err != nil {
			s.f.Abort()
			return nil, err
		}
		s.spill = s.spillTmp.File
		s.out = bufio.NewWriterSize(s.spillTmp, 1<<20)
		return s, nil
	}
	s.out = bufio.NewWriterSize(s.f, 1<<20)
	if err := s.write(make([]byte, headerReserve)); err != nil {
		s.f.Abort()
		return nil, err
	}
	return s, nil
}

// checkBlockMemory refuses a block of rows larger than the memory limit.
func checkBlockMemory(o Options, w, b, es int) error {
	rows := uint64(o.BlockH)
	need := rows * uint64(w) * uint64(b) * uint64(4+es)
	return memlimit.Check(need, fmt.Sprintf("a block of %d rows of %d pixels x %d bands", rows, w, b))
}

func (s *streamSink) write(b []byte) error {
	n, err := s.out.Write(b)
	s.pos += uint64(n)
	return err
}

// WriteRows appends whole rows: data holds k*w*b values, k >= 0, in the
// cube's pixel-interleaved order. An integer sample type reports a value
// that does not fit it with its row, column and band.
func (s *StreamWriter) WriteRows(data []float32) error { return s.rs.WriteRows(data) }

// Commit writes what remains and publishes the file. It fails, leaving
// nothing, unless all rows were written.
func (s *StreamWriter) Commit() error { return s.rs.Commit() }

// Abort removes everything written so far. It is idempotent and does
// nothing after a successful Commit.
func (s *StreamWriter) Abort() { s.rs.Abort() }

// Abort removes what was written.
func (s *streamSink) Abort() {
	s.f.Abort()
	if s.spill != nil {
		s.spillTmp.Abort()
		s.spill = nil
	}
	s.buf, s.ovr = nil, nil
}

// WriteRows takes n whole rows, rows y0 on, into the block being filled,
// encoding and writing each block as it fills.
func (s *streamSink) WriteRows(data []float32, y0, n int) error {
	if !s.st.t.IsFloat() {
		// Float samples keep NaN and infinities; integers must fit.
		if bad := sample.FirstMisfit(data, s.st.t); bad >= 0 {
			return raw.BadValue(data, s.w, s.b, y0, bad, s.st.t)
		}
	}
	row := s.w * s.b
	for len(data) > 0 {
		if s.buf == nil {
			s.buf = make([]float32, s.main.ch*row)
		}
		k := min(s.main.ch-s.rows, len(data)/row)
		copy(s.buf[s.rows*row:], data[:k*row])
		data = data[k*row:]
		s.rows += k
		s.next += k
		if s.rows == s.main.ch || s.next == s.h {
			if err := s.flushBlock(); err != nil {
				return err
			}
		}
	}
	return nil
}

// flushBlock encodes and writes the block of rows in buf.
func (s *streamSink) flushBlock() error {
	y0 := s.next - s.rows
	block := s.buf[:s.rows*s.w*s.b]
	if s.ovr != nil {
		src := &hsi.Cube{H: s.rows, W: s.w, B: s.b, Data: block}
		half := s.ovr.W * s.b
		downsample(s.ovr.Data[y0/2*half:(y0/2+(s.rows+1)/2)*half], src, s.o.Resampling, &s.meta)
	}
	err := s.enc.encodeBlock(s.main, y0/s.main.ch, block, s.rows, func(idx int, b []byte) error {
		s.main.offsets[idx], s.main.counts[idx] = s.pos, uint64(len(b))
		return s.write(b)
	})
	s.rows = 0
	return err
}

// Commit writes what remains and publishes the file.
func (s *streamSink) Commit() error {
	var err error
	if s.o.COG {
		err = s.commitCOG()
	} else {
		err = s.commitGTiff()
	}
	if err != nil {
		return fmt.Errorf("tiff: write %s: %w", s.path, err)
	}
	s.buf, s.ovr = nil, nil
	return nil
}

// useBig decides between TIFF and BigTIFF for a file of size bytes.
func (s *streamSink) useBig(size uint64) (bool, error) {
	switch s.o.BigTIFF {
	case "YES":
		return true, nil
	case "NO":
		if size > bigTIFFAbove {
			return false, fmt.Errorf("the file of %d bytes needs BigTIFF, but BIGTIFF=NO", size)
		}
		return false, nil
	case "IF_SAFER":
		return size > min(ifSaferAbove, bigTIFFAbove), nil
	}
	return size > bigTIFFAbove, nil
}

func (s *streamSink) commitGTiff() error {
	if s.pos%2 == 1 {
		if err := s.write([]byte{0}); err != nil {
			return err
		}
	}
	ifdPos := s.pos
	ifd := encodeIFD(s.ifdTags(s.main, false, true), ifdPos, false, 0)
	big, err := s.useBig(ifdPos + uint64(len(ifd)))
	if err != nil {
		return err
	}
	if big {
		ifd = encodeIFD(s.ifdTags(s.main, true, true), ifdPos, true, 0)
	}
	if err := s.write(ifd); err != nil {
		return err
	}
	if err := s.out.Flush(); err != nil {
		return err
	}
	if _, err := s.f.WriteAt(header(big, ifdPos), 0); err != nil {
		return err
	}
	return s.f.Commit()
}

// header is the file header pointing at the first IFD.
func header(big bool, ifd uint64) []byte {
	if big {
		h := []byte{'I', 'I', 43, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
		binary.LittleEndian.PutUint64(h[8:], ifd)
		return h
	}
	h := []byte{'I', 'I', 42, 0, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(h[4:], uint32(ifd))
	return h
}

// ifdTags are the tags of the IFD of level l: the full-resolution image
// (full) with the file's metadata, or a reduced-resolution overview.
func (s *streamSink) ifdTags(l *level, big, full bool) []tagValue {
	var tags []tagValue
	add := func(t tagValue) { tags = append(tags, t) }
	if !full {
		add(longs(tNewSubfileType, 1))
	}
	add(shorts(tImageWidth, uint64(l.w)))
	add(shorts(tImageLength, uint64(l.h)))
	bps := make([]uint64, s.b)
	sfs := make([]uint64, s.b)
	for i := range bps {
		bps[i], sfs[i] = uint64(s.st.bits), uint64(s.st.format)
	}
	add(shorts(tBitsPerSample, bps...))
	add(shorts(tCompression, uint64(s.o.Compression)))
	add(shorts(tPhotometric, 1))
	if full && s.meta.Description != "" {
		add(ascii(tImageDescription, s.meta.Description))
	}
	add(shorts(tSamplesPerPixel, uint64(s.b)))
	if l.tiled {
		add(shorts(tTileWidth, uint64(l.cw)))
		add(shorts(tTileLength, uint64(l.ch)))
		add(offsetsTag(tTileOffsets, big, l.offsets))
		add(offsetsTag(tTileByteCounts, big, l.counts))
	} else {
		add(offsetsTag(tStripOffsets, big, l.offsets))
		add(longs(tRowsPerStrip, uint64(l.ch)))
		add(offsetsTag(tStripByteCounts, big, l.counts))
	}
	planar := uint64(2)
	if s.b == 1 {
		planar = 1
	}
	add(shorts(tPlanarConfig, planar))
	if full {
		add(ascii(tSoftware, "omnihsr"))
	}
	if s.o.Predictor > 1 {
		add(shorts(tPredictor, uint64(s.o.Predictor)))
	}
	if s.b > 1 {
		add(shorts(tExtraSamples, make([]uint64, s.b-1)...))
	}
	add(shorts(tSampleFormat, sfs...))
	if full {
		if g := s.meta.Geo; g != nil {
			addGeoTags(g, add)
		}
		if md := gdalMetadataXML(&s.meta, s.b); md != "" {
			add(ascii(tGDALMetadata, md))
		}
	}
	if s.meta.HasDataIgnore {
		add(ascii(tGDALNoData, noDataString(s.meta.DataIgnore)))
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].tag < tags[j].tag })
	return tags
}

// blockEncoder encodes the strips or tiles of a block of rows on all cores.
type blockEncoder struct {
	b      int
	encs   []*chunkEncoder
	planes []float32
	tiles  [][]float32 // one tile buffer per worker
	outs   [][]byte
}

func newBlockEncoder(st sampleType, o Options, b int) (*blockEncoder, error) {
	e := &blockEncoder{b: b}
	workers := max(1, runtime.GOMAXPROCS(0))
	e.encs = make([]*chunkEncoder, workers)
	e.tiles = make([][]float32, workers)
	for i := range e.encs {
		var err error
		if e.encs[i], err = newChunkEncoder(st, o.Compression, o.Predictor, o.Level); err != nil {
			return nil, err
		}
	}
	return e, nil
}

// encodeBlock encodes the chunks of block row s of level l, from rows
// pixel-interleaved rows, and hands them to put in file order: band by
// band, left to right. idx is the chunk's index in the level's offsets.
func (e *blockEncoder) encodeBlock(l *level, s int, block []float32, rows int, put func(idx int, b []byte) error) error {
	b, w := e.b, l.w
	n := rows * w
	if cap(e.planes) < n*b {
		e.planes = make([]float32, n*b)
	}
	planes := e.planes[:n*b]
	for p := 0; p < n; p++ {
		spec := block[p*b : (p+1)*b]
		for k, v := range spec {
			planes[k*n+p] = v
		}
	}
	jobs := b * l.across
	if len(e.outs) < jobs {
		e.outs = append(e.outs, make([][]byte, jobs-len(e.outs))...)
	}
	workers := min(len(e.encs), jobs)
	errs := make([]error, workers)
	par.Strided(jobs, workers, func(wi, j int) {
		if errs[wi] != nil {
			return
		}
		enc := e.encs[wi]
		band, tx := j/l.across, j%l.across
		plane := planes[band*n : (band+1)*n]
		var out []byte
		var err error
		if !l.tiled {
			out, err = enc.encode(e.outs[j][:0], plane, rows, w)
		} else {
			if len(e.tiles[wi]) != l.cw*l.ch {
				e.tiles[wi] = make([]float32, l.cw*l.ch)
			}
			tile := e.tiles[wi]
			clear(tile)
			x0 := tx * l.cw
			xn := min(l.cw, w-x0)
			for r := 0; r < rows; r++ {
				copy(tile[r*l.cw:r*l.cw+xn], plane[r*w+x0:r*w+x0+xn])
			}
			out, err = enc.encode(e.outs[j][:0], tile, l.ch, l.cw)
		}
		if err != nil {
			errs[wi] = err
			return
		}
		e.outs[j] = out
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	per := l.across * l.down
	for j := 0; j < jobs; j++ {
		band, tx := j/l.across, j%l.across
		if err := put(band*per+s*l.across+tx, e.outs[j]); err != nil {
			return err
		}
	}
	return nil
}

// copyN copies n bytes from r to w.
func copyN(w io.Writer, r io.Reader, n uint64) error {
	_, err := io.CopyN(w, r, int64(n))
	return err
}

// tagValue is one IFD entry with its value encoded little-endian.
type tagValue struct {
	tag   uint16
	typ   uint16
	count uint64
	data  []byte
}

func shorts(tag uint16, v ...uint64) tagValue {
	b := make([]byte, 2*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint16(b[2*i:], uint16(x))
	}
	return tagValue{tag, dtShort, uint64(len(v)), b}
}

func longs(tag uint16, v ...uint64) tagValue {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return tagValue{tag, dtLong, uint64(len(v)), b}
}

func offsetsTag(tag uint16, big bool, v []uint64) tagValue {
	if !big {
		return longs(tag, v...)
	}
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], x)
	}
	return tagValue{tag, dtLong8, uint64(len(v)), b}
}

func doubles(tag uint16, v []float64) tagValue {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return tagValue{tag, dtDouble, uint64(len(v)), b}
}

func ascii(tag uint16, s string) tagValue {
	b := append([]byte(s), 0)
	return tagValue{tag, dtASCII, uint64(len(b)), b}
}

// encodeIFD lays out an IFD at offset at, with the values that do not fit
// in an entry placed after it, and next as the next IFD's offset. Its
// length depends on the tags' sizes only, not on their values.
func encodeIFD(tags []tagValue, at uint64, big bool, next uint64) []byte {
	le := binary.LittleEndian
	cntSize, entSize, offSize := 2, 12, 4
	if big {
		cntSize, entSize, offSize = 8, 20, 8
	}
	head := cntSize + len(tags)*entSize + offSize
	out := make([]byte, head)
	if big {
		le.PutUint64(out, uint64(len(tags)))
		le.PutUint64(out[head-8:], next)
	} else {
		le.PutUint16(out, uint16(len(tags)))
		le.PutUint32(out[head-4:], uint32(next))
	}
	for i, t := range tags {
		e := out[cntSize+i*entSize : cntSize+(i+1)*entSize]
		le.PutUint16(e[0:], t.tag)
		le.PutUint16(e[2:], t.typ)
		val := e[8:12]
		if big {
			le.PutUint64(e[4:], t.count)
			val = e[12:20]
		} else {
			le.PutUint32(e[4:], uint32(t.count))
		}
		if len(t.data) <= len(val) {
			copy(val, t.data)
			continue
		}
		if len(out)%2 == 1 {
			out = append(out, 0)
		}
		off := at + uint64(len(out))
		if big {
			le.PutUint64(val, off)
		} else {
			le.PutUint32(val, uint32(off))
		}
		out = append(out, t.data...)
	}
	if len(out)%2 == 1 {
		out = append(out, 0)
	}
	return out
}
