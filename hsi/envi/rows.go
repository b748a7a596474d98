package envi

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// RowReader reads an ENVI image a range of lines at a time, for callers
// that stream an image larger than they want to hold (Read holds it all).
// The samples it returns are Read's, converted the same way.
type RowReader struct {
	H, W, B int
	Meta    hsi.Meta
	Info    hsi.SourceInfo

	hdr      *header
	f        *os.File
	dataPath string
}

// OpenRows opens the ENVI image that path names (header or data file),
// checks the data file's size against the header as Read does, and reads
// no samples yet. Close it when done.
func OpenRows(path string) (*RowReader, error) {
	hdrPath, dataPath, err := Pair(path)
	if err != nil {
		return nil, err
	}
	h, meta, err := parseHeaderFile(hdrPath)
	if err != nil {
		return nil, err
	}
	f, err := regfile.Open(dataPath)
	if err != nil {
		return nil, fmt.Errorf("envi: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("envi: %w", err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("envi: %s is %s", dataPath, regfile.Kind(st.Mode()))
	}
	if err := checkDataSize(st.Size(), h, dataPath, hdrPath); err != nil {
		f.Close()
		return nil, err
	}
	return &RowReader{H: h.lines, W: h.samples, B: h.bands, Meta: meta, Info: sourceInfo(h, hdrPath, dataPath),
		hdr: h, f: f, dataPath: dataPath}, nil
}

// ReadRows reads lines [y0, y1) into dst ((y1-y0) x W x B values,
// pixel-interleaved, as hsi.Cube.Data). On NaN or infinite samples it
// fills dst and returns a *hsi.NonFiniteError whose row is the image's.
func (r *RowReader) ReadRows(y0, y1 int, dst []float32) error {
	if y0 < 0 || y1 > r.H || y0 >= y1 {
		return fmt.Errorf("envi: %s: lines [%d, %d) outside an image of %d", r.dataPath, y0, y1, r.H)
	}
	if want := (y1 - y0) * r.W * r.B; len(dst) != want {
		return fmt.Errorf("envi: %s: lines [%d, %d): destination holds %d values, want %d", r.dataPath, y0, y1, len(dst), want)
	}
	c := &hsi.Cube{H: y1 - y0, W: r.W, B: r.B, Data: dst}
	var tr raw.FiniteTracker
	if err := readRows(r.f, r.hdr, c, y0, &tr); err != nil {
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return fmt.Errorf("envi: %s: data ends early (file changed while reading?): %w", r.dataPath, err)
		}
		return fmt.Errorf("envi: %s: %w", r.dataPath, err)
	}
	if tr.Count > 0 {
		tr.Row += y0
		return tr.Err(r.dataPath)
	}
	return nil
}

// Close closes the data file.
func (r *RowReader) Close() error { return r.f.Close() }
