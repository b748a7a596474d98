package tiff

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// sampleType is a TIFF sample type for writing.
type sampleType struct {
	name   string
	format int // 1 uint, 2 int, 3 float
	bits   int
	lo, hi float64
}

var sampleTypes = map[string]sampleType{
	"":        {"float32", 3, 32, 0, 0},
	"float32": {"float32", 3, 32, 0, 0},
	"float64": {"float64", 3, 64, 0, 0},
	"uint8":   {"uint8", 1, 8, 0, math.MaxUint8},
	"int8":    {"int8", 2, 8, math.MinInt8, math.MaxInt8},
	"uint16":  {"uint16", 1, 16, 0, math.MaxUint16},
	"int16":   {"int16", 2, 16, math.MinInt16, math.MaxInt16},
	"uint32":  {"uint32", 1, 32, 0, math.MaxUint32},
	"int32":   {"int32", 2, 32, math.MinInt32, math.MaxInt32},
}

// stripTarget is the raw size aimed at for one strip of one band.
const stripTarget = 64 << 10

// bigTIFFAbove is the estimated file size above which BigTIFF is written
// (a variable so that tests can force BigTIFF on small files).
var bigTIFFAbove uint64 = math.MaxUint32

// deflateLevel is the zlib level of deflate-compressed files: level 1 is
// 3.5 times as fast as the default 6 on real scenes for files 1-7% larger.
var deflateLevel = zlib.BestSpeed

// Write stores the cube as a TIFF (a GeoTIFF when the cube is georeferenced);
// see the package documentation.
func Write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := write(path, c, opt); err != nil {
		return fmt.Errorf("tiff: write %s: %w", path, err)
	}
	return nil
}

func write(path string, c *hsi.Cube, opt hsi.WriteOptions) error {
	if err := c.Validate(); err != nil {
		return err
	}
	st, ok := sampleTypes[strings.ToLower(opt.DataType)]
	if !ok {
		return fmt.Errorf("data type %q is not supported (float32, float64, uint8, int8, uint16, int16, uint32, int32)", opt.DataType)
	}
	comp := cNone
	switch strings.ToLower(opt.Compression) {
	case "", "none":
	case "deflate", "zlib", "zip":
		comp = cDeflate
	case "lzw":
		comp = cLZW
	default:
		return fmt.Errorf("compression %q is not supported (none, deflate, lzw)", opt.Compression)
	}
	if c.B > 65535 {
		return fmt.Errorf("%d bands: TIFF holds at most 65535 samples per pixel", c.B)
	}
	if st.format != 3 {
		for i, v := range c.Data {
			r := math.Round(float64(v))
			if math.IsNaN(r) || r < st.lo || r > st.hi {
				p, b := i/c.B, i%c.B
				return fmt.Errorf("value %v at row %d, column %d, band %d does not fit %s", v, p/c.W, p%c.W, b, st.name)
			}
		}
	}
	pred := 1
	if comp != cNone {
		pred = 2
		if st.format == 3 {
			pred = 3
		}
	}
	es := st.bits / 8
	rowBytes := c.W * es
	rps := max(1, min(c.H, stripTarget/rowBytes))
	perBand := (c.H + rps - 1) / rps
	nstrips := perBand * c.B
	raw := uint64(len(c.Data)) * uint64(es)
	big := raw+uint64(nstrips)*16+uint64(c.B)*64+(1<<20) > bigTIFFAbove

	f, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	defer f.Abort()
	bw := bufio.NewWriterSize(f, 1<<20)
	var pos uint64
	wr := func(b []byte) error {
		n, err := bw.Write(b)
		pos += uint64(n)
		return err
	}
	le := binary.LittleEndian
	if big {
		err = wr([]byte{'I', 'I', 43, 0, 8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	} else {
		err = wr([]byte{'I', 'I', 42, 0, 0, 0, 0, 0})
	}
	if err != nil {
		return err
	}

	offsets := make([]uint64, nstrips)
	counts := make([]uint64, nstrips)
	planes := make([]float32, rps*c.W*c.B)
	outs := make([][]byte, c.B) // encoded strips of one block, one per band
	workers := max(1, min(runtime.GOMAXPROCS(0), c.B))
	encs := make([]*stripEncoder, workers)
	for i := range encs {
		encs[i] = newStripEncoder(st, comp, pred)
	}
	for s := 0; s < perBand; s++ {
		y0 := s * rps
		rows := min(rps, c.H-y0)
		n := rows * c.W
		// Gather the rows band by band.
		block := c.Data[y0*c.W*c.B : (y0+rows)*c.W*c.B]
		for p := 0; p < n; p++ {
			spec := block[p*c.B : (p+1)*c.B]
			for b, v := range spec {
				planes[b*n+p] = v
			}
		}
		// Encode the bands' strips in parallel, then write them in order.
		var wg sync.WaitGroup
		errs := make([]error, workers)
		for wi := range encs {
			wg.Add(1)
			go func(wi int) {
				defer wg.Done()
				e := encs[wi]
				for b := wi; b < c.B; b += workers {
					out, err := e.encode(outs[b][:0], planes[b*n:(b+1)*n], rows, c.W)
					if err != nil {
						errs[wi] = err
						return
					}
					outs[b] = out
				}
			}(wi)
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		for b := 0; b < c.B; b++ {
			k := b*perBand + s
			offsets[k], counts[k] = pos, uint64(len(outs[b]))
			if err := wr(outs[b]); err != nil {
				return err
			}
			if !big && pos > math.MaxUint32 {
				return fmt.Errorf("file exceeds 4 GiB")
			}
		}
	}
	if pos%2 == 1 {
		if err := wr([]byte{0}); err != nil {
			return err
		}
	}

	// The IFD.
	var tags []tagValue
	add := func(t tagValue) { tags = append(tags, t) }
	add(shorts(tImageWidth, uint64(c.W)))
	add(shorts(tImageLength, uint64(c.H)))
	bps := make([]uint64, c.B)
	sfs := make([]uint64, c.B)
	for i := range bps {
		bps[i], sfs[i] = uint64(st.bits), uint64(st.format)
	}
	add(shorts(tBitsPerSample, bps...))
	add(shorts(tCompression, uint64(comp)))
	add(shorts(tPhotometric, 1))
	if c.Meta.Description != "" {
		add(ascii(tImageDescription, c.Meta.Description))
	}
	add(offsetsTag(tStripOffsets, big, offsets))
	add(shorts(tSamplesPerPixel, uint64(c.B)))
	add(longs(tRowsPerStrip, uint64(rps)))
	add(offsetsTag(tStripByteCounts, big, counts))
	planar := uint64(2)
	if c.B == 1 {
		planar = 1
	}
	add(shorts(tPlanarConfig, planar))
	add(ascii(tSoftware, "omnihsr"))
	if pred > 1 {
		add(shorts(tPredictor, uint64(pred)))
	}
	if c.B > 1 {
		add(shorts(tExtraSamples, make([]uint64, c.B-1)...))
	}
	add(shorts(tSampleFormat, sfs...))
	if g := c.Meta.Geo; g != nil {
		addGeoTags(g, add)
	}
	if md := gdalMetadataXML(&c.Meta, c.B); md != "" {
		add(ascii(tGDALMetadata, md))
	}
	if c.Meta.HasDataIgnore {
		add(ascii(tGDALNoData, noDataString(c.Meta.DataIgnore)))
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].tag < tags[j].tag })

	ifdPos := pos
	ifd := encodeIFD(tags, ifdPos, big)
	if err := wr(ifd); err != nil {
		return err
	}
	if !big && pos > math.MaxUint32 {
		return fmt.Errorf("file exceeds 4 GiB")
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	var hdr [8]byte
	if big {
		le.PutUint64(hdr[:], ifdPos)
		_, err = f.WriteAt(hdr[:8], 8)
	} else {
		le.PutUint32(hdr[:4], uint32(ifdPos))
		_, err = f.WriteAt(hdr[:4], 4)
	}
	if err != nil {
		return err
	}
	return f.Commit()
}

// stripEncoder turns the samples of one strip into its bytes on disk.
type stripEncoder struct {
	st    sampleType
	comp  int
	pred  int
	data  []byte
	words []uint64
	zbuf  bytes.Buffer
	zw    *zlib.Writer
	lz    *lzwEncoder
}

func newStripEncoder(st sampleType, comp, pred int) *stripEncoder {
	e := &stripEncoder{st: st, comp: comp, pred: pred}
	switch comp {
	case cDeflate:
		e.zw, _ = zlib.NewWriterLevel(&e.zbuf, deflateLevel)
	case cLZW:
		e.lz = new(lzwEncoder)
	}
	return e
}

// encode appends the encoded strip of rows x width samples to dst.
func (e *stripEncoder) encode(dst []byte, vals []float32, rows, width int) ([]byte, error) {
	es := e.st.bits / 8
	n := len(vals)
	if cap(e.data) < n*es {
		e.data = make([]byte, n*es)
	}
	data := e.data[:n*es]
	encodeSamples(data, vals, e.st)
	switch e.pred {
	case 2:
		if cap(e.words) < n {
			e.words = make([]uint64, n)
		}
		predictInts(data, e.words[:n], rows, width, es)
	case 3:
		predictFloats(data, rows, width, es)
	}
	switch e.comp {
	case cDeflate:
		e.zbuf.Reset()
		e.zw.Reset(&e.zbuf)
		e.zw.Write(data)
		if err := e.zw.Close(); err != nil {
			return nil, err
		}
		return append(dst, e.zbuf.Bytes()...), nil
	case cLZW:
		return e.lz.encode(dst, data), nil
	}
	return append(dst, data...), nil
}

// encodeSamples writes vals as little-endian samples of type st.
func encodeSamples(dst []byte, vals []float32, st sampleType) {
	le := binary.LittleEndian
	switch {
	case st.format == 3 && st.bits == 32:
		for i, v := range vals {
			le.PutUint32(dst[4*i:], math.Float32bits(v))
		}
	case st.format == 3:
		for i, v := range vals {
			le.PutUint64(dst[8*i:], math.Float64bits(float64(v)))
		}
	case st.bits == 8:
		for i, v := range vals {
			dst[i] = byte(int64(math.Round(float64(v))))
		}
	case st.bits == 16:
		for i, v := range vals {
			le.PutUint16(dst[2*i:], uint16(int64(math.Round(float64(v)))))
		}
	default:
		for i, v := range vals {
			le.PutUint32(dst[4*i:], uint32(int64(math.Round(float64(v)))))
		}
	}
}

// predictInts applies horizontal differencing (predictor 2) to rows of one
// sample per pixel.
func predictInts(data []byte, w []uint64, rows, width, es int) {
	le := binary.LittleEndian
	toWords(data, w, es, le)
	for r := 0; r < rows; r++ {
		row := w[r*width : (r+1)*width]
		for i := len(row) - 1; i >= 1; i-- {
			row[i] -= row[i-1]
		}
	}
	switch es {
	case 1:
		for i, v := range w {
			data[i] = byte(v)
		}
	case 2:
		for i, v := range w {
			le.PutUint16(data[2*i:], uint16(v))
		}
	case 4:
		for i, v := range w {
			le.PutUint32(data[4*i:], uint32(v))
		}
	}
}

// predictFloats applies the floating-point predictor (3) to rows of one
// sample per pixel stored little-endian.
func predictFloats(data []byte, rows, width, es int) {
	rowBytes := width * es
	tmp := make([]byte, rowBytes)
	for r := 0; r < rows; r++ {
		row := data[r*rowBytes : (r+1)*rowBytes]
		// Byte planes, most significant first.
		for i := 0; i < width; i++ {
			for b := 0; b < es; b++ {
				tmp[b*width+i] = row[i*es+es-1-b]
			}
		}
		for i := rowBytes - 1; i >= 1; i-- {
			tmp[i] -= tmp[i-1]
		}
		copy(row, tmp)
	}
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
// in an entry placed after it.
func encodeIFD(tags []tagValue, at uint64, big bool) []byte {
	le := binary.LittleEndian
	cntSize, entSize, offSize := 2, 12, 4
	if big {
		cntSize, entSize, offSize = 8, 20, 8
	}
	head := cntSize + len(tags)*entSize + offSize
	out := make([]byte, head)
	if big {
		le.PutUint64(out, uint64(len(tags)))
	} else {
		le.PutUint16(out, uint16(len(tags)))
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
	// The next-IFD offset (0) is already zero.
	return out
}
