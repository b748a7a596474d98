package tiff

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Tags.
const (
	tNewSubfileType   = 254
	tImageWidth       = 256
	tImageLength      = 257
	tBitsPerSample    = 258
	tCompression      = 259
	tPhotometric      = 262
	tFillOrder        = 266
	tImageDescription = 270
	tStripOffsets     = 273
	tSamplesPerPixel  = 277
	tRowsPerStrip     = 278
	tStripByteCounts  = 279
	tPlanarConfig     = 284
	tSoftware         = 305
	tPredictor        = 317
	tTileWidth        = 322
	tTileLength       = 323
	tTileOffsets      = 324
	tTileByteCounts   = 325
	tExtraSamples     = 338
	tSampleFormat     = 339
	tModelPixelScale  = 33550
	tModelTiepoint    = 33922
	tModelTransform   = 34264
	tGeoKeyDirectory  = 34735
	tGeoDoubleParams  = 34736
	tGeoASCIIParams   = 34737
	tGDALMetadata     = 42112
	tGDALNoData       = 42113
)

// Field types.
const (
	dtByte      = 1
	dtASCII     = 2
	dtShort     = 3
	dtLong      = 4
	dtRational  = 5
	dtSByte     = 6
	dtUndefined = 7
	dtSShort    = 8
	dtSLong     = 9
	dtSRational = 10
	dtFloat     = 11
	dtDouble    = 12
	dtIFD       = 13
	dtLong8     = 16
	dtSLong8    = 17
	dtIFD8      = 18
)

func fieldSize(t uint16) int {
	switch t {
	case dtByte, dtASCII, dtSByte, dtUndefined:
		return 1
	case dtShort, dtSShort:
		return 2
	case dtLong, dtSLong, dtFloat, dtIFD:
		return 4
	case dtRational, dtSRational, dtDouble, dtLong8, dtSLong8, dtIFD8:
		return 8
	}
	return 0
}

// Compression schemes.
const (
	cNone     = 1
	cLZW      = 5
	cDeflate  = 8
	cPackBits = 32773
	cDeflate2 = 32946
)

// Limits.
const (
	maxIFDs      = 1 << 16
	maxEntries   = 1 << 12
	maxExpansion = 4096 // bound on how much a compressed strip can expand
	// maxExpansionZSTD bounds ZSTD, whose RLE blocks store up to 128 KiB
	// of one byte value in 4 bytes.
	maxExpansionZSTD = 1 << 16
	maxRowBytes      = 1 << 30
	// chunkSlack is what a compressed chunk may hold beyond its payload
	// (stream headers, one partial block).
	chunkSlack = 4096
)

func chunkKind(p *page) string {
	if p.tiled {
		return "tile"
	}
	return "strip"
}

type field struct {
	typ   uint16
	count uint64
	raw   []byte // the value bytes, in the file's byte order
}

type ifd map[uint16]field

// file is an open TIFF.
type file struct {
	path string
	r    io.ReaderAt
	size int64
	bo   binary.ByteOrder
	big  bool
	ifds []ifd
	// tagBytes counts the tag values read; IFDs may share or overlap
	// values, so the total is bounded to keep the work linear in the size.
	tagBytes int64
}

func openFile(path string, r io.ReaderAt, size int64) (*file, error) {
	f := &file{path: path, r: r, size: size}
	var h [16]byte
	if size < 8 {
		return nil, fmt.Errorf("file of %d bytes is too short for a TIFF header", size)
	}
	n, _ := r.ReadAt(h[:min(16, int(size))], 0)
	switch string(h[:2]) {
	case "II":
		f.bo = binary.LittleEndian
	case "MM":
		f.bo = binary.BigEndian
	default:
		return nil, errors.New("not a TIFF file (no II or MM byte-order mark)")
	}
	var first uint64
	switch f.bo.Uint16(h[2:4]) {
	case 42:
		first = uint64(f.bo.Uint32(h[4:8]))
	case 43:
		if n < 16 || f.bo.Uint16(h[4:6]) != 8 {
			return nil, errors.New("BigTIFF header damaged")
		}
		f.big = true
		first = f.bo.Uint64(h[8:16])
	default:
		return nil, fmt.Errorf("not a TIFF file (version %d, want 42 or 43)", f.bo.Uint16(h[2:4]))
	}
	seen := map[uint64]bool{}
	for off := first; off != 0; {
		if seen[off] {
			return nil, fmt.Errorf("IFD chain loops back to byte %d", off)
		}
		if len(f.ifds) >= maxIFDs {
			return nil, errors.New("too many IFDs")
		}
		seen[off] = true
		d, next, err := f.readIFD(off)
		if err != nil {
			return nil, fmt.Errorf("IFD %d at byte %d: %w", len(f.ifds), off, err)
		}
		f.ifds = append(f.ifds, d)
		off = next
	}
	if len(f.ifds) == 0 {
		return nil, errors.New("no image (first IFD offset is 0)")
	}
	return f, nil
}

func (f *file) readAt(off uint64, n int) ([]byte, error) {
	if n < 0 || off > uint64(f.size) || uint64(n) > uint64(f.size)-off {
		return nil, fmt.Errorf("%d bytes at byte %d lie beyond the end of the file (%d bytes): truncated file", n, off, f.size)
	}
	b := make([]byte, n)
	if _, err := f.r.ReadAt(b, int64(off)); err != nil && !(err == io.EOF && n == 0) {
		return nil, err
	}
	return b, nil
}

func (f *file) readIFD(off uint64) (ifd, uint64, error) {
	cntSize, entSize, offSize := 2, 12, 4
	if f.big {
		cntSize, entSize, offSize = 8, 20, 8
	}
	cb, err := f.readAt(off, cntSize)
	if err != nil {
		return nil, 0, err
	}
	var n uint64
	if f.big {
		n = f.bo.Uint64(cb)
	} else {
		n = uint64(f.bo.Uint16(cb))
	}
	if n == 0 || n > maxEntries {
		return nil, 0, fmt.Errorf("IFD of %d entries", n)
	}
	body, err := f.readAt(off+uint64(cntSize), int(n)*entSize+offSize)
	if err != nil {
		return nil, 0, err
	}
	d := ifd{}
	for i := 0; i < int(n); i++ {
		e := body[i*entSize : (i+1)*entSize]
		tag := f.bo.Uint16(e[0:2])
		typ := f.bo.Uint16(e[2:4])
		var count uint64
		var val []byte
		if f.big {
			count = f.bo.Uint64(e[4:12])
			val = e[12:20]
		} else {
			count = uint64(f.bo.Uint32(e[4:8]))
			val = e[8:12]
		}
		fs := fieldSize(typ)
		if fs == 0 {
			continue // unknown field type: skip, as the TIFF spec asks
		}
		if count > uint64(f.size)/uint64(fs) {
			return nil, 0, fmt.Errorf("tag %d declares %d values, more than the file holds", tag, count)
		}
		nb := int(count) * fs
		f.tagBytes += int64(nb)
		if f.tagBytes > 16*f.size+1<<20 {
			return nil, 0, errors.New("IFDs repeat the same values over and over: damaged file")
		}
		var raw []byte
		if nb <= len(val) {
			raw = append([]byte(nil), val[:nb]...)
		} else {
			var vo uint64
			if f.big {
				vo = f.bo.Uint64(val)
			} else {
				vo = uint64(f.bo.Uint32(val))
			}
			raw, err = f.readAt(vo, nb)
			if err != nil {
				return nil, 0, fmt.Errorf("tag %d: %w", tag, err)
			}
		}
		d[tag] = field{typ: typ, count: count, raw: raw}
	}
	ob := body[int(n)*entSize:]
	var next uint64
	if f.big {
		next = f.bo.Uint64(ob)
	} else {
		next = uint64(f.bo.Uint32(ob))
	}
	return d, next, nil
}

// uints returns the values of an unsigned integer field.
func (f *file) uints(d ifd, tag uint16) ([]uint64, bool) {
	fl, ok := d[tag]
	if !ok {
		return nil, false
	}
	out := make([]uint64, fl.count)
	fs := fieldSize(fl.typ)
	for i := range out {
		b := fl.raw[i*fs : (i+1)*fs]
		switch fl.typ {
		case dtByte, dtUndefined, dtSByte:
			out[i] = uint64(b[0])
		case dtShort, dtSShort:
			out[i] = uint64(f.bo.Uint16(b))
		case dtLong, dtSLong, dtIFD:
			out[i] = uint64(f.bo.Uint32(b))
		case dtLong8, dtSLong8, dtIFD8:
			out[i] = f.bo.Uint64(b)
		default:
			return nil, false
		}
	}
	return out, true
}

// uint1 returns the first value of an integer field, or def.
func (f *file) uint1(d ifd, tag uint16, def uint64) uint64 {
	v, ok := f.uints(d, tag)
	if !ok || len(v) == 0 {
		return def
	}
	return v[0]
}

// floats returns the values of a numeric field as float64.
func (f *file) floats(d ifd, tag uint16) []float64 {
	fl, ok := d[tag]
	if !ok {
		return nil
	}
	out := make([]float64, fl.count)
	fs := fieldSize(fl.typ)
	for i := range out {
		b := fl.raw[i*fs : (i+1)*fs]
		switch fl.typ {
		case dtByte, dtUndefined:
			out[i] = float64(b[0])
		case dtSByte:
			out[i] = float64(int8(b[0]))
		case dtShort:
			out[i] = float64(f.bo.Uint16(b))
		case dtSShort:
			out[i] = float64(int16(f.bo.Uint16(b)))
		case dtLong, dtIFD:
			out[i] = float64(f.bo.Uint32(b))
		case dtSLong:
			out[i] = float64(int32(f.bo.Uint32(b)))
		case dtLong8, dtIFD8:
			out[i] = float64(f.bo.Uint64(b))
		case dtSLong8:
			out[i] = float64(int64(f.bo.Uint64(b)))
		case dtRational:
			out[i] = float64(f.bo.Uint32(b)) / float64(f.bo.Uint32(b[4:]))
		case dtSRational:
			out[i] = float64(int32(f.bo.Uint32(b))) / float64(int32(f.bo.Uint32(b[4:])))
		case dtFloat:
			out[i] = float64(math.Float32frombits(f.bo.Uint32(b)))
		case dtDouble:
			out[i] = math.Float64frombits(f.bo.Uint64(b))
		default:
			return nil
		}
	}
	return out
}

// str returns an ASCII field without its terminating NUL.
func (f *file) str(d ifd, tag uint16) string {
	fl, ok := d[tag]
	if !ok || (fl.typ != dtASCII && fl.typ != dtByte && fl.typ != dtUndefined) {
		return ""
	}
	return strings.TrimRight(string(fl.raw), "\x00")
}

// page is the image layout of one IFD.
type page struct {
	index       int
	w, h, spp   int
	bps         int // bits per sample (all samples alike)
	format      int // 1 uint, 2 int, 3 float
	typ         sample.Type
	compression int
	predictor   int
	planar      int
	tiled       bool
	cw, ch      int // chunk (strip or tile) width and height
	offsets     []uint64
	counts      []uint64
}

func (p *page) typeName() string { return p.typ.String() }

func (p *page) compressionName() string {
	switch p.compression {
	case cNone:
		return "uncompressed"
	case cLZW:
		return "LZW"
	case cDeflate, cDeflate2:
		return "deflate"
	case cPackBits:
		return "PackBits"
	case cZSTD:
		return "ZSTD"
	}
	return fmt.Sprintf("compression %d", p.compression)
}

// chunksAcross and chunksDown give the chunk grid of one plane.
func (p *page) chunksAcross() int { return (p.w + p.cw - 1) / p.cw }
func (p *page) chunksDown() int   { return (p.h + p.ch - 1) / p.ch }

func (p *page) planes() int {
	if p.planar == 2 {
		return p.spp
	}
	return 1
}

// chunkSamples is the samples per pixel stored in one chunk.
func (p *page) chunkSamples() int {
	if p.planar == 2 {
		return 1
	}
	return p.spp
}

func (f *file) page(i int) (*page, error) {
	d := f.ifds[i]
	p := &page{index: i}
	w, okw := f.uints(d, tImageWidth)
	h, okh := f.uints(d, tImageLength)
	if !okw || !okh || len(w) == 0 || len(h) == 0 {
		return nil, errors.New("missing ImageWidth or ImageLength")
	}
	if w[0] == 0 || h[0] == 0 {
		return nil, fmt.Errorf("image of %dx%d pixels has a 0-size dimension", w[0], h[0])
	}
	if w[0] > math.MaxInt32 || h[0] > math.MaxInt32 {
		return nil, fmt.Errorf("image of %dx%d pixels is too large", w[0], h[0])
	}
	p.w, p.h = int(w[0]), int(h[0])
	spp := f.uint1(d, tSamplesPerPixel, 1)
	if spp == 0 || spp > 65535 {
		return nil, fmt.Errorf("%d samples per pixel", spp)
	}
	p.spp = int(spp)
	bps, ok := f.uints(d, tBitsPerSample)
	if !ok || len(bps) == 0 {
		bps = []uint64{1}
	}
	for _, b := range bps {
		if b != bps[0] {
			return nil, fmt.Errorf("samples of different sizes (%v bits) are not supported", bps)
		}
	}
	p.bps = int(bps[0])
	sf, ok := f.uints(d, tSampleFormat)
	p.format = 1
	if ok && len(sf) > 0 {
		for _, s := range sf {
			if s != sf[0] {
				return nil, fmt.Errorf("samples of different formats (%v) are not supported", sf)
			}
		}
		p.format = int(sf[0])
	}
	switch {
	case p.format == 1 || p.format == 2:
		if p.bps != 8 && p.bps != 16 && p.bps != 32 {
			return nil, fmt.Errorf("%d-bit integer samples are not supported (8, 16 or 32)", p.bps)
		}
	case p.format == 3:
		if p.bps != 32 && p.bps != 64 {
			return nil, fmt.Errorf("%d-bit float samples are not supported (32 or 64)", p.bps)
		}
	default:
		return nil, fmt.Errorf("sample format %d is not supported (unsigned, signed or IEEE float)", p.format)
	}
	p.typ, _ = sample.FromTIFF(p.format, p.bps) // every case accepted above has a type
	p.compression = int(f.uint1(d, tCompression, cNone))
	switch p.compression {
	case cNone, cLZW, cDeflate, cDeflate2, cPackBits, cZSTD:
	default:
		return nil, fmt.Errorf("compression %d is not supported (none, LZW, deflate, PackBits, ZSTD)", p.compression)
	}
	p.predictor = int(f.uint1(d, tPredictor, 1))
	switch p.predictor {
	case 1, 2:
	case 3:
		if p.format != 3 {
			return nil, errors.New("floating-point predictor on integer samples")
		}
	default:
		return nil, fmt.Errorf("predictor %d is not supported", p.predictor)
	}
	p.planar = int(f.uint1(d, tPlanarConfig, 1))
	if p.planar != 1 && p.planar != 2 {
		return nil, fmt.Errorf("planar configuration %d", p.planar)
	}
	if p.spp == 1 {
		p.planar = 1
	}
	if _, ok := d[tTileWidth]; ok {
		p.tiled = true
		p.cw = int(min(f.uint1(d, tTileWidth, 0), math.MaxInt32))
		p.ch = int(min(f.uint1(d, tTileLength, 0), math.MaxInt32))
		if p.cw <= 0 || p.ch <= 0 {
			return nil, fmt.Errorf("tile of %dx%d pixels", p.cw, p.ch)
		}
		p.offsets, _ = f.uints(d, tTileOffsets)
		p.counts, _ = f.uints(d, tTileByteCounts)
	} else {
		p.cw = p.w
		rps := f.uint1(d, tRowsPerStrip, uint64(p.h))
		if rps == 0 || rps > uint64(p.h) {
			rps = uint64(p.h)
		}
		p.ch = int(rps)
		p.offsets, _ = f.uints(d, tStripOffsets)
		p.counts, _ = f.uints(d, tStripByteCounts)
	}
	// One row of a chunk must be of sane size (chunks are read a row at a time).
	if rb, err := hsi.Elems(1, p.cw, p.chunkSamples()); err != nil || rb > maxRowBytes/(p.bps/8) {
		return nil, fmt.Errorf("%s rows of %d pixels x %d samples are too large", chunkKind(p), p.cw, p.chunkSamples())
	}
	n := p.chunksAcross() * p.chunksDown() * p.planes()
	if n > 1<<28 {
		return nil, fmt.Errorf("%d strips/tiles is too many", n)
	}
	if len(p.offsets) < n {
		return nil, fmt.Errorf("%d strip/tile offsets for %d strips/tiles", len(p.offsets), n)
	}
	if len(p.counts) < n {
		if p.compression == cNone && len(p.counts) == 0 && n == 1 {
			p.counts = []uint64{uint64(p.chunkBytes(p.ch))}
		} else {
			return nil, fmt.Errorf("%d strip/tile byte counts for %d strips/tiles", len(p.counts), n)
		}
	}
	return p, nil
}

// rowBytes is the size of one row of a chunk.
func (p *page) rowBytes() int { return p.cw * p.chunkSamples() * p.bps / 8 }

// chunkBytes is the size of a chunk of rows rows.
func (p *page) chunkBytes(rows int) int { return rows * p.rowBytes() }

// Read loads a TIFF or GeoTIFF file as a cube. The options are not used
// (they select MATLAB variables).
func Read(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	c, info, err := read(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, fmt.Errorf("tiff: read %s: %w", path, err)
	}
	return c, info, nil
}

// Decode reads a TIFF or GeoTIFF of size bytes from r, as Read reads a
// file, for data that is not a file (in memory, in an archive, behind a
// network). Every allocation sized from the data is checked against size
// and the memory limit before it is made; truncated or hostile data is an
// error, never a panic. r may be read from several goroutines at once, as
// io.ReaderAt allows. The options are not used.
func Decode(r io.ReaderAt, size int64, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	if size < 0 {
		return nil, hsi.SourceInfo{}, fmt.Errorf("tiff: decode: size %d is negative", size)
	}
	c, info, err := decodeAll("", r, size)
	if err != nil {
		return nil, hsi.SourceInfo{}, fmt.Errorf("tiff: decode: %w", err)
	}
	return c, info, nil
}

func read(path string) (*hsi.Cube, hsi.SourceInfo, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	defer fh.Close()
	st, err := fh.Stat()
	if err != nil {
		return nil, hsi.SourceInfo{}, err
	}
	if st.IsDir() {
		return nil, hsi.SourceInfo{}, errors.New("is a directory")
	}
	return decodeAll(path, fh, st.Size())
}

// decodeAll reads every band of every full-resolution page.
func decodeAll(path string, r io.ReaderAt, size int64) (*hsi.Cube, hsi.SourceInfo, error) {
	var info hsi.SourceInfo
	s, err := scan(path, r, size)
	if err != nil {
		return nil, info, err
	}
	first := s.pages[0]
	c, err := raw.NewCube(first.h, first.w, s.bands)
	if err != nil {
		return nil, info, err
	}
	band := 0
	for _, p := range s.pages {
		if err := s.f.decodePage(p, c, band); err != nil {
			return nil, info, fmt.Errorf("page %d: %w", p.index, err)
		}
		band += p.spp
	}
	if c.Meta, info, err = s.header(); err != nil {
		return nil, info, err
	}
	return c, info, nil
}

// scanned is a TIFF whose full-resolution pages, the bands of its image,
// have been checked against the file's size.
type scanned struct {
	f              *file
	pages          []*page
	bands, skipped int
}

// scan opens a TIFF and checks its full-resolution pages: their sizes, and
// the samples they declare against the bytes that store them.
func scan(path string, r io.ReaderAt, size int64) (*scanned, error) {
	f, err := openFile(path, r, size)
	if err != nil {
		return nil, err
	}
	var pages []*page
	skipped := 0
	for i, d := range f.ifds {
		if sub := f.uint1(d, tNewSubfileType, 0); sub&5 != 0 && i > 0 {
			skipped++ // reduced-resolution image or transparency mask
			continue
		}
		p, err := f.page(i)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", i, err)
		}
		if len(pages) > 0 && (p.w != pages[0].w || p.h != pages[0].h) {
			return nil, fmt.Errorf("page %d is %dx%d pixels but page %d is %dx%d: pages of different sizes that are not marked as reduced-resolution images (NewSubfileType) cannot be read as the bands of one image",
				i, p.w, p.h, pages[0].index, pages[0].w, pages[0].h)
		}
		pages = append(pages, p)
	}
	first := pages[0]
	bands := 0
	var need, stored uint64
	expansion := uint64(maxExpansion)
	// Stored bytes are counted once per distinct strip/tile offset: a file
	// whose 1,600 tile offsets all point at one 365-byte ZSTD tile has 365
	// bytes of image data, not 1,600 x 365.
	distinct := map[uint64]uint64{}
	for _, p := range pages {
		bands += p.spp
		pe := uint64(maxExpansion)
		if p.compression == cZSTD {
			expansion, pe = maxExpansionZSTD, maxExpansionZSTD
		}
		n := p.chunksAcross() * p.chunksDown() * p.planes()
		full := uint64(p.chunkBytes(p.ch))
		for k := 0; k < n; k++ {
			cnt := min(p.counts[k], uint64(size))
			if cnt > distinct[p.offsets[k]] {
				stored += cnt - distinct[p.offsets[k]]
				distinct[p.offsets[k]] = cnt
			}
			// Each compressed chunk may expand at most pe-fold (plus a
			// little for headers): a tile that claims more is damaged.
			if p.compression != cNone && cnt > 0 && full > cnt*pe+chunkSlack {
				return nil, fmt.Errorf("page %d: strip/tile %d: %d bytes of samples cannot come from %d compressed bytes (at most %d-fold): damaged file", p.index, k, full, cnt, pe)
			}
		}
		e, err := hsi.Elems(p.h, p.w, p.spp)
		if err != nil {
			return nil, fmt.Errorf("page %d: %w", p.index, err)
		}
		need += uint64(e) * uint64(p.bps/8)
		if need > 1<<62 || bands > 1<<20 {
			return nil, fmt.Errorf("%d pages of %dx%d pixels are too large", len(pages), p.w, p.h)
		}
		if p.compression == cNone {
			// Every chunk must lie in the file.
			for k := 0; k < n; k++ {
				if p.offsets[k] > uint64(size) || p.counts[k] > uint64(size)-p.offsets[k] {
					return nil, fmt.Errorf("page %d: strip/tile %d (%d bytes at byte %d) lies beyond the end of the file (%d bytes): truncated file", p.index, k, p.counts[k], p.offsets[k], size)
				}
			}
		}
	}
	stored = min(stored, uint64(size)) // chunks may overlap: count the file once
	if need > stored*expansion+1<<20 {
		return nil, fmt.Errorf("%dx%dx%d samples (%d bytes) cannot come from %d bytes of image data: damaged file", first.h, first.w, bands, need, stored)
	}
	return &scanned{f: f, pages: pages, bands: bands, skipped: skipped}, nil
}

// header reads the image's metadata and describes the file.
func (s *scanned) header() (hsi.Meta, hsi.SourceInfo, error) {
	var meta hsi.Meta
	var info hsi.SourceInfo
	f, pages, first, bands, skipped := s.f, s.pages, s.pages[0], s.bands, s.skipped
	d0 := f.ifds[first.index]
	geo := f.geo(d0)
	if err := hsi.CheckGeo(geo); err != nil {
		return meta, info, err
	}
	meta.Geo = geo
	if nd := strings.TrimSpace(f.str(d0, tGDALNoData)); nd != "" {
		v, err := strconv.ParseFloat(nd, 64)
		if err != nil {
			return meta, info, fmt.Errorf("GDAL_NODATA = %q is not a number", nd)
		}
		meta.DataIgnore, meta.HasDataIgnore = v, true
	}
	meta.Description = f.str(d0, tImageDescription)
	if md := f.str(d0, tGDALMetadata); md != "" {
		applyGDALMetadata(&meta, md, bands)
	}

	info.Format = "TIFF"
	if geo != nil {
		info.Format = "GeoTIFF"
	}
	info.DataType = first.typeName()
	for _, p := range pages {
		if p.typeName() != info.DataType {
			info.DataType = "mixed"
		}
	}
	switch {
	case len(pages) > 1 && first.spp > 1:
		info.Layout = "pages+samples"
	case len(pages) > 1:
		info.Layout = "pages"
	default:
		info.Layout = "samples"
	}
	var det []string
	if f.bo == binary.BigEndian {
		det = append(det, "big-endian")
	} else {
		det = append(det, "little-endian")
	}
	if f.big {
		det = append(det, "BigTIFF")
	}
	if first.spp > 1 {
		if first.planar == 2 {
			det = append(det, "band-separate (planar 2)")
		} else {
			det = append(det, "pixel-interleaved (planar 1)")
		}
	}
	if first.tiled {
		det = append(det, fmt.Sprintf("tiles %dx%d", first.cw, first.ch))
	} else {
		det = append(det, fmt.Sprintf("strips of %d rows", first.ch))
	}
	det = append(det, first.compressionName())
	if first.predictor > 1 {
		det = append(det, fmt.Sprintf("predictor %d", first.predictor))
	}
	if len(pages) > 1 {
		det = append(det, fmt.Sprintf("%d pages", len(pages)))
	}
	if skipped > 0 {
		det = append(det, fmt.Sprintf("%d other pages skipped", skipped))
	}
	info.Detail = strings.Join(det, ", ")
	return meta, info, nil
}
