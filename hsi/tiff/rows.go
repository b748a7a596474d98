package tiff

import (
	"fmt"
	"os"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// OpenRows opens the TIFF at path for reading a range of rows at a time,
// with Read's checks of the pages against the file's size, decoding no
// sample yet. ReadRows decodes only the strips or tiles that hold the rows
// asked (every compression, predictor and planar configuration Read
// reads, bands as samples or as pages), and gives Read's values,
// non-finite ones included. The rows of a strip or tile row that a call
// needs only in part are kept, decoded, for the next call (one strip or
// tile height of the whole width and bands, checked against the memory
// limit), so that reading one row at a time decodes each strip or tile
// once; a call whose rows cover whole strip or tile rows decodes them
// straight into its destination. Close it when done.
func OpenRows(path string) (hsi.RowReader, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tiff: read %s: %w", path, err)
	}
	r, err := openRows(path, fh)
	if err != nil {
		fh.Close()
		return nil, fmt.Errorf("tiff: read %s: %w", path, err)
	}
	return r, nil
}

func openRows(path string, fh *os.File) (*rowReader, error) {
	st, err := fh.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, fmt.Errorf("is a directory")
	}
	s, err := scan(path, fh, st.Size())
	if err != nil {
		return nil, err
	}
	meta, info, err := s.header()
	if err != nil {
		return nil, err
	}
	first := s.pages[0]
	r := &rowReader{path: path, fh: fh, s: s, hd: hsi.Header{H: first.h, W: first.w, B: s.bands, Meta: meta, Info: info}}
	band := 0
	for _, p := range s.pages {
		r.pages = append(r.pages, &pageRows{p: p, band: band, c0: -1})
		band += p.spp
	}
	return r, nil
}

// rowReader streams the rows of a TIFF.
type rowReader struct {
	path  string
	fh    *os.File
	s     *scanned
	hd    hsi.Header
	pages []*pageRows
	cr    chunkOpener // shared by the pages' decoders
}

// pageRows is one page's decoder and its last strip or tile row decoded.
type pageRows struct {
	p     *page
	band  int           // the page's first band in the image
	dec   *chunkDecoder // made at the page's first read
	cache []float32     // rows [c0, c0+p.ch) of the page's samples (spp a pixel), within the image
	c0    int
}

func (r *rowReader) Header() hsi.Header { return r.hd }

// BlockRows returns the rows a strip or tile row holds (the least common
// multiple over the pages, at most the image's height): reading rows in
// ranges aligned on it decodes each strip or tile once, whichever reader
// reads them.
func (r *rowReader) BlockRows() int {
	n := 1
	for _, pr := range r.pages {
		a, b := n, max(1, pr.p.ch)
		for b != 0 {
			a, b = b, a%b
		}
		n = n / a * max(1, pr.p.ch)
		if n >= r.hd.H {
			return r.hd.H
		}
	}
	return n
}

func (r *rowReader) ReadRows(y0, y1 int, dst []float32) error {
	W, B := r.hd.W, r.hd.B
	if err := raw.CheckRows("tiff: "+r.path, r.hd.H, W, B, y0, y1, len(dst)); err != nil {
		return err
	}
	if r.fh == nil {
		return fmt.Errorf("tiff: %s: read after Close", r.path)
	}
	for _, pr := range r.pages {
		if pr.dec == nil {
			p := pr.p
			// two row buffers and the row's samples as words
			need := uint64(p.rowBytes())*2 + uint64(p.cw*p.chunkSamples())*8
			if err := memlimit.Check(need, fmt.Sprintf("the row buffers of a %s of %d x %d samples", chunkKind(p), p.cw, p.chunkSamples())); err != nil {
				return fmt.Errorf("tiff: read %s: page %d: %w", r.path, p.index, err)
			}
			pr.dec = newChunkDecoder(r.s.f, p, &r.cr)
		}
		if err := r.readPage(pr, y0, y1, dst); err != nil {
			return fmt.Errorf("tiff: read %s: page %d: %w", r.path, pr.p.index, err)
		}
	}
	return nil
}

// readPage decodes the page's samples of rows [y0, y1) into dst.
func (r *rowReader) readPage(pr *pageRows, y0, y1 int, dst []float32) error {
	p := pr.p
	W, B := r.hd.W, r.hd.B
	for ty := y0 / p.ch; ty*p.ch < y1; ty++ {
		b0, b1 := ty*p.ch, min((ty+1)*p.ch, p.h)
		if y0 <= b0 && b1 <= y1 { // the whole strip or tile row: straight into dst
			if err := pr.decodeRow(ty, dst, W, B, pr.band, y0); err != nil {
				return err
			}
			continue
		}
		spp := p.spp
		if pr.c0 != b0 {
			if pr.cache == nil {
				k := min(p.ch, p.h) // a tile may be taller than the image
				n := k * W * spp    // at most the page's samples, which scan counted
				if err := memlimit.Check(uint64(n)*4, fmt.Sprintf("a %s row of %d x %d x %d samples", chunkKind(p), k, W, spp)); err != nil {
					return err
				}
				pr.cache = make([]float32, n)
			}
			pr.c0 = -1
			if err := pr.decodeRow(ty, pr.cache, W, spp, 0, b0); err != nil {
				return err
			}
			pr.c0 = b0
		}
		for y := max(y0, b0); y < min(y1, b1); y++ {
			src := pr.cache[(y-b0)*W*spp : (y-b0+1)*W*spp]
			out := dst[(y-y0)*W*B:]
			if spp == B {
				copy(out[:W*B], src)
				continue
			}
			for x := 0; x < W; x++ {
				copy(out[x*B+pr.band:x*B+pr.band+spp], src[x*spp:(x+1)*spp])
			}
		}
	}
	return nil
}

// decodeRow decodes strip or tile row ty of the page (every plane, every
// chunk across) into data, rows yBase on of w pixels of b samples, the
// page's samples going to samples band.. of each pixel.
func (pr *pageRows) decodeRow(ty int, data []float32, w, b, band, yBase int) error {
	p := pr.p
	across := p.chunksAcross()
	perPlane := across * p.chunksDown()
	for plane := 0; plane < p.planes(); plane++ {
		for tx := 0; tx < across; tx++ {
			if err := pr.dec.chunk(plane*perPlane+ty*across+tx, data, w, b, band, yBase); err != nil {
				return err
			}
		}
	}
	return nil
}

func (r *rowReader) Close() error {
	if r.fh == nil {
		return nil
	}
	r.cr.close()
	for _, pr := range r.pages {
		pr.dec, pr.cache = nil, nil
	}
	err := r.fh.Close()
	r.fh = nil
	return err
}
