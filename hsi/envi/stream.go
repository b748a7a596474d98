package envi

import (
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/internal/rowstream"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// StreamWriter writes an ENVI image whose rows arrive in order, for images
// too large to hold in memory. Create it with Create, hand it the rows
// with WriteRows and finish with Commit; Abort discards everything.
//
// The samples go straight to their place in a temporary data file
// (WriteAt): in bsq each call's rows land in every band's plane, in bil
// one band line after another, in bip contiguously. The header is written
// by Commit, which publishes data file and header like Write (data first,
// header last). The memory held is a few buffers bounded by the rows of one
// call and by raw.ChunkBytes, never the image. The data is handed to the
// disk as it is written, the ranges of the writes in batches
// (atomicfile.File.Wrote), so that Commit's sync has little left to wait
// for.
//
// An error from WriteRows or Commit is final: the writer has removed its
// temporary files and returns the same error from then on. A StreamWriter
// is not safe for concurrent use.
type StreamWriter struct {
	rs *rowstream.Writer
}

// streamSink is the rowstream.Sink of a StreamWriter: the data writer of
// its temporary data file and the header Commit publishes with it.
type streamSink struct {
	dataWriter
	hdrPath string
	hdr     []byte
	df      *atomicfile.File
}

// dataWriter converts rows of a cube into the samples of an ENVI data file
// of h rows, w columns and b bands with sample type t and interleave il,
// and writes them at their place in f. Write uses one for the whole cube,
// StreamWriter one for all its calls; the buffers are reused from call to
// call.
type dataWriter struct {
	f       io.WriterAt
	h, w, b int
	t       sample.Type
	il      string
	buf     []byte    // encoded samples
	tmp     []float32 // band rows gathered from the pixels' spectra
}

// Create starts an ENVI image of h rows, w columns and b bands at path
// (header and data file named as by WritePaths), with the metadata meta
// and the data type and interleave of opt, as Write would store them. It
// creates the temporary data file; nothing appears at path before Commit.
func Create(path string, h, w, b int, meta hsi.Meta, opt hsi.WriteOptions) (*StreamWriter, error) {
	if _, err := hsi.Elems(h, w, b); err != nil {
		return nil, fmt.Errorf("envi: create %s: %w", path, err)
	}
	if err := checkBandLists(&meta, b); err != nil {
		return nil, fmt.Errorf("envi: create %s: %w", path, err)
	}
	t, il, err := writeParams(opt)
	if err != nil {
		return nil, fmt.Errorf("envi: create %s: %w", path, err)
	}
	hdr, err := formatHeader(&hsi.Cube{H: h, W: w, B: b, Meta: meta}, t, il)
	if err != nil {
		return nil, fmt.Errorf("envi: create %s: %w", path, err)
	}
	hdrPath, dataPath := WritePaths(path)
	df, err := atomicfile.Create(dataPath)
	if err != nil {
		return nil, fmt.Errorf("envi: %w", err)
	}
	df.ExpectSize(int64(h) * int64(w) * int64(b) * int64(t.Size()))
	dw := dataWriter{f: df.Tracked(), h: h, w: w, b: b, t: t, il: il}
	sink := &streamSink{dataWriter: dw, hdrPath: hdrPath, hdr: hdr, df: df}
	return &StreamWriter{rs: rowstream.New("envi", dataPath, h, w, b, sink)}, nil
}

// checkBandLists checks that every per-band list of m has b entries or none.
func checkBandLists(m *hsi.Meta, b int) error {
	for _, l := range []struct {
		name string
		n    int
	}{{"wavelength", len(m.Wavelengths)}, {"fwhm", len(m.FWHM)}, {"bad band list", len(m.BadBands)}, {"band names", len(m.BandNames)}} {
		if l.n != 0 && l.n != b {
			return fmt.Errorf("the %s has %d entries for %d bands", l.name, l.n, b)
		}
	}
	return nil
}

// Rows returns the number of rows written so far.
func (s *StreamWriter) Rows() int { return s.rs.Rows() }

// WriteRows appends whole rows: data holds k*w*b values, k >= 0, in the
// cube's pixel-interleaved order (row-major, each pixel's spectrum
// contiguous). Values are converted as by Write; a NaN or infinite value,
// or one that does not fit the data type, is an error naming its row,
// column and band.
func (s *StreamWriter) WriteRows(data []float32) error { return s.rs.WriteRows(data) }

// Commit checks that all rows were written, writes the header and
// publishes both files: the data file is synced and renamed into place,
// then the header. With rows missing it fails and removes everything.
// Commit after a successful Commit does nothing.
func (s *StreamWriter) Commit() error { return s.rs.Commit() }

// Abort removes the temporary files. It is idempotent and does nothing
// after a successful Commit, so `defer w.Abort()` is always safe.
func (s *StreamWriter) Abort() { s.rs.Abort() }

// WriteRows writes n rows at row y0 into the temporary data file.
func (s *streamSink) WriteRows(data []float32, y0, n int) error {
	return s.writeRows(data, y0, n)
}

// Commit publishes the data file and the header.
func (s *streamSink) Commit() error {
	if err := publish(s.df, s.hdrPath, s.hdr); err != nil {
		return err
	}
	s.buf, s.tmp = nil, nil
	return nil
}

// Abort removes the temporary data file.
func (s *streamSink) Abort() {
	s.df.Abort()
	s.buf, s.tmp = nil, nil
}

// buffers returns the byte buffer with at least nb bytes and the float
// buffer with at least nf values, reusing those of earlier calls.
func (s *dataWriter) buffers(nb, nf int) ([]byte, []float32) {
	if cap(s.buf) < nb {
		s.buf = make([]byte, nb)
	}
	if cap(s.tmp) < nf {
		s.tmp = make([]float32, nf)
	}
	return s.buf[:nb], s.tmp[:nf]
}

// writeRows writes n rows of data (n*w*b values in the cube's order),
// rows y0 to y0+n-1 of the image.
func (s *dataWriter) writeRows(data []float32, y0, n int) error {
	switch s.il {
	case "bip":
		return s.writeBIP(data, y0)
	case "bil":
		return s.writeBIL(data, y0, n)
	}
	return s.writeBSQ(data, y0, n)
}

// writeBIP writes the rows contiguously from the offset of row y0.
func (s *dataWriter) writeBIP(data []float32, y0 int) error {
	es := int64(s.t.Size())
	base := int64(y0) * int64(s.w) * int64(s.b) * es
	var err error
	s.buf, err = raw.EncodePixels(s.buf, data, s.w, s.b, y0, s.t, func(p []byte, i int) error {
		_, err := s.f.WriteAt(p, base+int64(i)*es)
		return err
	})
	return err
}

// writeBIL writes n rows, each as b band lines of w samples, through a
// buffer of as many whole rows as fit raw.ChunkBytes (at least one).
func (s *dataWriter) writeBIL(data []float32, y0, n int) error {
	es := s.t.Size()
	W, B := s.w, s.b
	lineBytes := W * B * es
	k := min(max(raw.ChunkBytes/lineBytes, 1), n)
	buf, rows := s.buffers(k*lineBytes, min(B, raw.GroupBands)*W)
	for r0 := 0; r0 < n; r0 += k {
		m := min(k, n-r0)
		for l := 0; l < m; l++ {
			r := r0 + l
			for g := 0; g < B; g += raw.GroupBands {
				kb := min(raw.GroupBands, B-g)
				raw.FromPixels(rows, data[r*W*B:], B, g, W, kb)
				for j := 0; j < kb; j++ {
					if bad := sample.Encode(buf[(l*B+g+j)*W*es:], rows[j*W:], 1, W, s.t, false); bad >= 0 {
						return raw.BadValue(data, W, B, y0, (r*W+bad)*B+g+j, s.t)
					}
				}
			}
		}
		if _, err := s.f.WriteAt(buf[:m*lineBytes], int64(y0+r0)*int64(lineBytes)); err != nil {
			return err
		}
	}
	return nil
}

// bsqSub is the number of pixels writeBSQ transposes at a time: their
// spectra and one group's band rows stay in the core's cache while the
// rows are encoded.
const bsqSub = 512

// writeBSQ writes the n*w pixels of n rows into each band's plane, in
// blocks of pixels: each block is transposed and encoded bsqSub pixels and
// a group of 16 bands at a time into one buffer holding the block's
// segment of every band (at most 2*raw.ChunkBytes), then written with one
// write per band.
func (s *dataWriter) writeBSQ(data []float32, y0, n int) error {
	es := s.t.Size()
	W, B := s.w, s.b
	HW := int64(s.h) * int64(W)
	P := n * W
	np := min(max(2*raw.ChunkBytes/(B*es), bsqSub), P)
	buf, rows := s.buffers(np*B*es, min(B, raw.GroupBands)*min(bsqSub, np))
	p00 := int64(y0) * int64(W) // first pixel of the call in the image
	// Little-endian float32 samples are the values' own bytes: on a
	// little-endian machine the pixels are transposed straight into buf,
	// and only a group holding a NaN or an infinite value is encoded
	// again (to write a NaN, or report the infinite value).
	var bufF []float32
	if s.t == sample.Float32 && nativeLE {
		bufF = unsafe.Slice((*float32)(unsafe.Pointer(unsafe.SliceData(buf))), len(buf)/4)
	}
	for p0 := 0; p0 < P; p0 += np {
		m := min(np, P-p0)
		for q0 := 0; q0 < m; q0 += bsqSub {
			q := min(bsqSub, m-q0)
			for g := 0; g < B; g += raw.GroupBands {
				kb := min(raw.GroupBands, B-g)
				if bufF != nil {
					if raw.FromPixelsFinite(bufF[g*m+q0:], m, data[(p0+q0)*B:], B, g, q, kb) {
						continue
					}
				}
				raw.FromPixels(rows, data[(p0+q0)*B:], B, g, q, kb)
				for j := 0; j < kb; j++ {
					if bad := sample.Encode(buf[((g+j)*m+q0)*es:], rows[j*q:], 1, q, s.t, false); bad >= 0 {
						return raw.BadValue(data, W, B, y0, (p0+q0+bad)*B+g+j, s.t)
					}
				}
			}
		}
		for b := 0; b < B; b++ {
			off := (int64(b)*HW + p00 + int64(p0)) * int64(es)
			if _, err := s.f.WriteAt(buf[b*m*es:(b+1)*m*es], off); err != nil {
				return err
			}
		}
	}
	return nil
}

// nativeLE reports whether this machine stores a float32 as its
// little-endian bytes.
var nativeLE = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
