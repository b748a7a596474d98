package tiff

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/klauspost/compress/zstd"
	"golang.org/x/image/tiff/lzw"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// decodePage decodes every chunk of page p into bands band.. of c. Chunks
// are decompressed as streams and handled a row at a time, so memory beyond
// the cube is a few row buffers whatever the strip or tile size.
func (f *file) decodePage(p *page, c *hsi.Cube, band int) error {
	var cr chunkOpener
	defer cr.close()
	d := newChunkDecoder(f, p, &cr)
	n := p.chunksAcross() * p.chunksDown() * p.planes()
	for idx := 0; idx < n; idx++ {
		if err := d.chunk(idx, c.Data, c.W, c.B, band, 0); err != nil {
			return err
		}
	}
	return nil
}

// chunkDecoder decodes the chunks of one page, reusing its buffers.
type chunkDecoder struct {
	f           *file
	p           *page
	rowBuf, tmp []byte
	words       []uint64
	mask        uint64
	cr          *chunkOpener // shared by the decoders of one reader
}

func newChunkDecoder(f *file, p *page, cr *chunkOpener) *chunkDecoder {
	rowBuf := make([]byte, p.rowBytes())
	return &chunkDecoder{f: f, p: p, cr: cr, rowBuf: rowBuf, tmp: make([]byte, len(rowBuf)),
		words: make([]uint64, p.cw*p.chunkSamples()), mask: ^uint64(0) >> (64 - uint(p.bps))}
}

// chunk decodes chunk idx of the page into data, the samples of rows yBase
// on of an image w pixels wide with b samples a pixel, the page's samples
// going to samples band.. of each pixel.
func (d *chunkDecoder) chunk(idx int, data []float32, w, b, band, yBase int) error {
	f, p := d.f, d.p
	across := p.chunksAcross()
	perPlane := across * p.chunksDown()
	cs := p.chunkSamples()
	es := p.bps / 8
	rowSamples := p.cw * cs
	rowBuf, tmp, words, mask := d.rowBuf, d.tmp, d.words, d.mask
	plane, k := idx/perPlane, idx%perPlane
	ty, tx := k/across, k%across
	y0, x0 := ty*p.ch, tx*p.cw
	ymax := min(p.ch, p.h-y0)
	xmax := min(p.cw, p.w-x0)
	rd, done, err := d.cr.open(f, p, idx)
	if err != nil {
		return fmt.Errorf("%s %d: %w", chunkKind(p), idx, err)
	}
	defer done()
	for r := 0; r < ymax; r++ {
		if _, err := io.ReadFull(rd, rowBuf); err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return fmt.Errorf("%s %d: data ends in row %d of %d: truncated or damaged data", chunkKind(p), idx, r, ymax)
			}
			return fmt.Errorf("%s %d: %w", chunkKind(p), idx, err)
		}
		if p.predictor == 3 {
			unpredictFloatRow(rowBuf, tmp, rowSamples, cs, es)
			toWords(rowBuf, words, es, binary.BigEndian)
		} else {
			toWords(rowBuf, words, es, f.bo)
			if p.predictor == 2 {
				for i := cs; i < len(words); i++ {
					words[i] = (words[i] + words[i-cs]) & mask
				}
			}
		}
		y := y0 + r - yBase
		if cs == 1 {
			dst := (y*w+x0)*b + band + plane
			for x := 0; x < xmax; x++ {
				data[dst+x*b] = sample.FromBits(words[x], p.typ)
			}
			continue
		}
		for x := 0; x < xmax; x++ {
			o := (y*w+x0+x)*b + band
			dst := data[o : o+cs]
			src := words[x*cs : (x+1)*cs]
			for i := range dst {
				dst[i] = sample.FromBits(src[i], p.typ)
			}
		}
	}
	return nil
}

// zstdMaxWindow bounds the memory a ZSTD frame may ask for.
const zstdMaxWindow = 64 << 20

// chunkOpener opens chunks as streams, reusing its buffers.
type chunkOpener struct {
	br *bufio.Reader
	zr io.ReadCloser
	zs *zstd.Decoder
}

// close releases the ZSTD decoder.
func (cr *chunkOpener) close() {
	if cr.zs != nil {
		cr.zs.Close()
	}
}

// open returns the decompressed bytes of chunk idx as a stream.
func (cr *chunkOpener) open(f *file, p *page, idx int) (io.Reader, func(), error) {
	off, n := p.offsets[idx], p.counts[idx]
	if off > uint64(f.size) || n > uint64(f.size)-off {
		return nil, nil, fmt.Errorf("%d bytes at byte %d lie beyond the end of the file (%d bytes): truncated file", n, off, f.size)
	}
	sec := io.NewSectionReader(f.r, int64(off), int64(n))
	if cr.br == nil {
		cr.br = bufio.NewReaderSize(sec, 64<<10)
	} else {
		cr.br.Reset(sec)
	}
	switch p.compression {
	case cDeflate, cDeflate2:
		var err error
		if cr.zr == nil {
			cr.zr, err = zlib.NewReader(cr.br)
		} else {
			err = cr.zr.(zlib.Resetter).Reset(cr.br, nil)
		}
		if err != nil {
			cr.zr = nil
			return nil, nil, fmt.Errorf("deflate: %w", err)
		}
		return cr.zr, func() {}, nil
	case cLZW:
		lr := lzw.NewReader(cr.br, lzw.MSB, 8)
		return lr, func() { lr.Close() }, nil
	case cPackBits:
		return &packBits{r: cr.br}, func() {}, nil
	case cZSTD:
		var err error
		if cr.zs == nil {
			cr.zs, err = zstd.NewReader(cr.br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(zstdMaxWindow))
		} else {
			err = cr.zs.Reset(cr.br)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("zstd: %w", err)
		}
		return cr.zs, func() {}, nil
	}
	return cr.br, func() {}, nil
}

// packBits decodes a PackBits stream.
type packBits struct {
	r   *bufio.Reader
	buf []byte // decoded bytes not yet returned
}

func (pb *packBits) Read(p []byte) (int, error) {
	for len(pb.buf) == 0 {
		h, err := pb.r.ReadByte()
		if err != nil {
			return 0, err
		}
		n := int(int8(h))
		switch {
		case n >= 0:
			pb.buf = make([]byte, n+1)
			if _, err := io.ReadFull(pb.r, pb.buf); err != nil {
				return 0, io.ErrUnexpectedEOF
			}
		case n != -128:
			v, err := pb.r.ReadByte()
			if err != nil {
				return 0, io.ErrUnexpectedEOF
			}
			pb.buf = bytes.Repeat([]byte{v}, 1-n)
		}
	}
	k := copy(p, pb.buf)
	pb.buf = pb.buf[k:]
	return k, nil
}

// unpredictFloatRow undoes the floating-point predictor (3) on one row in
// place: byte differencing with a stride of the samples per pixel, then the
// bytes of each value, stored as planes from the most significant, are
// gathered into big-endian values.
func unpredictFloatRow(row, tmp []byte, rowSamples, cs, es int) {
	for i := cs; i < len(row); i++ {
		row[i] += row[i-cs]
	}
	copy(tmp, row)
	for i := 0; i < rowSamples; i++ {
		for b := 0; b < es; b++ {
			row[i*es+b] = tmp[b*rowSamples+i]
		}
	}
}

// toWords reads values of es bytes into w.
func toWords(b []byte, w []uint64, es int, bo binary.ByteOrder) {
	switch es {
	case 1:
		for i := range w {
			w[i] = uint64(b[i])
		}
	case 2:
		for i := range w {
			w[i] = uint64(bo.Uint16(b[2*i:]))
		}
	case 4:
		for i := range w {
			w[i] = uint64(bo.Uint32(b[4*i:]))
		}
	case 8:
		for i := range w {
			w[i] = bo.Uint64(b[8*i:])
		}
	}
}
