package envi

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// RowReader returns, for any range of lines, exactly the samples Read
// returns for them, in every interleave and for an integer type, and names
// a non-finite sample by its row in the image.
func TestRowReaderMatchesRead(t *testing.T) {
	const h, w, b = 7, 5, 19 // more bands than one transposition group
	c := hsi.MustNew(h, w, b)
	for i := range c.Data {
		c.Data[i] = float32(i%251) - 100
	}
	for _, typ := range []sample.Type{sample.Float32, sample.Int16} {
		for _, il := range []string{"bsq", "bil", "bip"} {
			path := filepath.Join(t.TempDir(), "img.hdr")
			sw, err := Create(path, h, w, b, c.Meta, hsi.WriteOptions{DataType: typ, Interleave: hsi.Interleave(il)})
			if err != nil {
				t.Fatal(err)
			}
			if err := sw.WriteRows(c.Data); err != nil {
				t.Fatal(err)
			}
			if err := sw.Commit(); err != nil {
				t.Fatal(err)
			}
			want, _, err := Read(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := OpenRows(path)
			if err != nil {
				t.Fatal(err)
			}
			if r.H != h || r.W != w || r.B != b || r.Info.Layout != il {
				t.Fatalf("%s %s: shape %dx%dx%d layout %q", typ, il, r.H, r.W, r.B, r.Info.Layout)
			}
			for y0 := 0; y0 < h; y0++ {
				for y1 := y0 + 1; y1 <= h; y1++ {
					dst := make([]float32, (y1-y0)*w*b)
					if err := r.ReadRows(y0, y1, dst); err != nil {
						t.Fatal(err)
					}
					for i, v := range dst {
						if v != want.Data[y0*w*b+i] {
							t.Fatalf("%s %s: lines [%d, %d) value %d: %v, want %v", typ, il, y0, y1, i, v, want.Data[y0*w*b+i])
						}
					}
				}
			}
			if err := r.ReadRows(3, 3, nil); err == nil {
				t.Errorf("%s %s: empty range accepted", typ, il)
			}
			if err := r.ReadRows(0, h+1, make([]float32, (h+1)*w*b)); err == nil {
				t.Errorf("%s %s: range past the last line accepted", typ, il)
			}
			r.Close()
		}
	}
}

func TestRowReaderNonFinite(t *testing.T) {
	const h, w, b = 6, 4, 3
	dir := t.TempDir()
	data := make([]byte, h*w*b*4)
	// Band 1, row 4, column 2 (BSQ order) is +Inf.
	binary.LittleEndian.PutUint32(data[((1*h+4)*w+2)*4:], math.Float32bits(float32(math.Inf(1))))
	if err := os.WriteFile(filepath.Join(dir, "img"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	hdr := "ENVI\nsamples = 4\nlines = 6\nbands = 3\nheader offset = 0\ndata type = 4\ninterleave = bsq\nbyte order = 0\n"
	if err := os.WriteFile(filepath.Join(dir, "img.hdr"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := OpenRows(filepath.Join(dir, "img.hdr"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if err := r.ReadRows(0, 4, make([]float32, 4*w*b)); err != nil {
		t.Fatalf("rows without the infinite value: %v", err)
	}
	err = r.ReadRows(3, 6, make([]float32, 3*w*b))
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 4 || nf.Col != 2 || nf.Band != 1 || !math.IsInf(float64(nf.Value), 1) {
		t.Fatalf("rows [3, 6): %v, want the infinite value at row 4, column 2, band 1", err)
	}
	// A data file that does not match the header is refused on opening.
	if err := os.WriteFile(filepath.Join(dir, "img"), data[:len(data)-4], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenRows(filepath.Join(dir, "img.hdr")); err == nil {
		t.Fatal("truncated data file accepted")
	}
}
