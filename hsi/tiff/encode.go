package tiff

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"runtime"
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// sampleType is a sample type with its TIFF SampleFormat and BitsPerSample.
type sampleType struct {
	t            sample.Type
	name         string
	format, bits int
}

// tiffType returns the sample type dataType (as in
// hsi.WriteOptions.DataType; the zero value is float32), false when TIFF
// does not store it.
func tiffType(dataType sample.Type) (sampleType, bool) {
	t, err := raw.WriteType(dataType)
	format, bits, ok := t.TIFF()
	if err != nil || !ok {
		return sampleType{}, false
	}
	return sampleType{t: t, name: t.String(), format: format, bits: bits}, true
}

// deflateLevel is the default zlib level of deflate-compressed files:
// level 1 writes a real scene 2.7-3.3 times as fast as zlib's default 6
// for files 3-10% larger (BenchmarkCodecs).
var deflateLevel = zlib.BestSpeed

// zstdLevel is the default ZSTD level, GDAL's ZSTD_LEVEL default.
const zstdLevel = 9

// chunkEncoder turns the samples of one strip or tile (one sample per
// pixel) into its bytes on disk. It is not safe for concurrent use.
type chunkEncoder struct {
	st    sampleType
	comp  int
	pred  int
	data  []byte
	words []uint64
	tmp   []byte
	zbuf  bytes.Buffer
	zw    *zlib.Writer
	lz    *lzwEncoder
	zs    *zstd.Encoder
}

func newChunkEncoder(st sampleType, comp, pred, level int) (*chunkEncoder, error) {
	e := &chunkEncoder{st: st, comp: comp, pred: pred}
	var err error
	switch comp {
	case cDeflate:
		if level == 0 {
			level = deflateLevel
		}
		e.zw, err = zlib.NewWriterLevel(&e.zbuf, level)
	case cLZW:
		e.lz = new(lzwEncoder)
	case cZSTD:
		if level == 0 {
			level = zstdLevel
		}
		e.zs, err = zstdEncoder(level)
	}
	return e, err
}

// zstdEncoders holds one ZSTD encoder per level, shared by all writers:
// EncodeAll may be called concurrently, and an encoder's tables are costly
// to set up for small files.
var zstdEncoders sync.Map

func zstdEncoder(level int) (*zstd.Encoder, error) {
	if e, ok := zstdEncoders.Load(level); ok {
		return e.(*zstd.Encoder), nil
	}
	e, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(level)),
		zstd.WithEncoderConcurrency(runtime.GOMAXPROCS(0)), zstd.WithEncoderCRC(false))
	if err != nil {
		return nil, err
	}
	got, _ := zstdEncoders.LoadOrStore(level, e)
	return got.(*zstd.Encoder), nil
}

// encode appends the encoded chunk of rows x width samples to dst.
func (e *chunkEncoder) encode(dst []byte, vals []float32, rows, width int) ([]byte, error) {
	es := e.st.bits / 8
	n := len(vals)
	if cap(e.data) < n*es {
		e.data = make([]byte, n*es)
	}
	data := e.data[:n*es]
	sample.Encode(data, vals, 1, n, e.st.t, false) // integers were checked by WriteRows; NaN stays NaN
	switch e.pred {
	case 2:
		if cap(e.words) < n {
			e.words = make([]uint64, n)
		}
		predictInts(data, e.words[:n], rows, width, es)
	case 3:
		if cap(e.tmp) < width*es {
			e.tmp = make([]byte, width*es)
		}
		predictFloats(data, e.tmp[:width*es], rows, width, es)
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
	case cZSTD:
		return e.zs.EncodeAll(data, dst), nil
	}
	return append(dst, data...), nil
}

// predictInts applies horizontal differencing (predictor 2) to rows of one
// sample per pixel, of any size (floats are differenced as integers).
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
	case 8:
		for i, v := range w {
			le.PutUint64(data[8*i:], v)
		}
	}
}

// predictFloats applies the floating-point predictor (3) to rows of one
// sample per pixel stored little-endian; tmp holds one row.
func predictFloats(data, tmp []byte, rows, width, es int) {
	rowBytes := width * es
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
