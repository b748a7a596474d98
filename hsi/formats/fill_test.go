package formats

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/fillgolden"
)

// TestHDF5FillValues: an HDF5 or NetCDF-4 cube written in part reads, in
// its chunks never written, as its fill value does in h5py
// (scripts/miniatures/fill_hdf5.py, fill_golden.json): -9999 from h5py's
// fillvalue, netCDF's _FillValue and its default float fill
// (9.969209968386869e+36) when there is none, 7 for an int16 dataset, 7 *
// 0.5 + 1 where CF packing attributes apply, a contiguous dataset never
// written; and the no-data rule applies to them: the netCDF fill equal to
// _FillValue is no-data, the others are values. Read (whole), ReadRows
// (row by row and all at once) and ReadWindow (a column at a time) all
// give h5py's values, as float32, sample for sample; RowRun and ColRun
// report the fill value of the runs they call unwritten.
func TestHDF5FillValues(t *testing.T) {
	dir := filepath.Join("..", "products", "testdata", "fill")
	goldens := fillgolden.Load(t, dir)
	for _, g := range goldens {
		t.Run(g.File, func(t *testing.T) {
			p := filepath.Join(dir, g.File)
			// h5py's values, unpacked the CF way (a stored _FillValue kept)
			want := make([]float32, len(g.Values))
			for i, v := range g.Values {
				if g.NoData == nil || v != *g.NoData {
					v = v*g.Scale + g.Offset
				}
				want[i] = float32(v)
			}
			fill := float32(g.Fill*g.Scale + g.Offset)
			if g.NoData != nil && g.Fill == *g.NoData {
				fill = float32(g.Fill)
			}
			c, _, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if uint64(c.H) != g.Shape[0] || uint64(c.W) != g.Shape[1] || uint64(c.B) != g.Shape[2] {
				t.Fatalf("cube %dx%dx%d, h5py's shape %v", c.H, c.W, c.B, g.Shape)
			}
			check := func(what string, got []float32) {
				t.Helper()
				for i := range got {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%s: sample %d = %v, h5py reads %v", what, i, got[i], want[i])
					}
				}
			}
			check("Read", c.Data)
			nd := c.Meta.NoData()
			var fills, nodata int
			for i, v := range c.Data {
				if g.Values[i] == g.Fill {
					fills++
					if nd.Is(v) {
						nodata++
					}
				}
			}
			if fills == 0 {
				t.Fatal("no sample holds the fill value")
			}
			if g.NoData != nil && *g.NoData == g.Fill {
				if nodata != fills {
					t.Fatalf("%d of %d fill samples are no-data, want all (_FillValue %v)", nodata, fills, *g.NoData)
				}
			} else if nodata != 0 {
				t.Fatalf("%d fill samples are no-data, want none (no _FillValue)", nodata)
			}

			src, err := Open(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			H, W, B := c.H, c.W, c.B
			all := make([]float32, H*W*B)
			if err := src.ReadRows(0, H, all); err != nil {
				t.Fatal(err)
			}
			check("ReadRows", all)
			rows := make([]float32, H*W*B)
			for y := 0; y < H; y++ {
				if err := src.ReadRows(y, y+1, rows[y*W*B:(y+1)*W*B]); err != nil {
					t.Fatal(err)
				}
			}
			check("ReadRows by row", rows)
			runs, ok := src.(interface {
				RowRun(int) (int, bool, float32)
				ColRun(int, int, int) (int, bool, float32)
				ReadWindow(int, int, int, int, []float32) error
			})
			if !ok {
				t.Fatal("the Source has no RowRun, ColRun and ReadWindow")
			}
			unwritten := 0
			for y := 0; y < H; {
				e, written, v := runs.RowRun(y)
				if !written {
					unwritten += e - y
					if v != fill {
						t.Fatalf("RowRun(%d): unwritten to %d, fill %v, want %v", y, e, v, fill)
					}
				}
				for x := 0; x < W; {
					xe, w, v := runs.ColRun(y, e, x)
					if !w && v != fill {
						t.Fatalf("ColRun(%d, %d, %d): fill %v, want %v", y, e, x, v, fill)
					}
					x = xe
				}
				y = e
			}
			if g.File == "contig_fill.h5" && unwritten != H {
				t.Fatalf("%d of %d rows unwritten, want all", unwritten, H)
			}
			if g.File == "contig_fill.h5" {
				return // no window reads: not chunked
			}
			win := make([]float32, H*B)
			for x := 0; x < W; x++ {
				if err := runs.ReadWindow(0, H, x, x+1, win); err != nil {
					t.Fatal(err)
				}
				for y := 0; y < H; y++ {
					for k := 0; k < B; k++ {
						i := (y*W+x)*B + k
						if math.Float32bits(win[y*B+k]) != math.Float32bits(want[i]) {
							t.Fatalf("ReadWindow: sample (%d, %d, %d) = %v, h5py reads %v", y, x, k, win[y*B+k], want[i])
						}
					}
				}
			}
		})
	}
}

// An HDF5 cube whose Fill Value message is malformed (explicit_fill.h5 with
// its version byte 9) is refused by Read and Open with an error naming the
// file and the message, not read with a guessed fill.
func TestHDF5BadFillValue(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "products", "testdata", "fill", "explicit_fill.h5"))
	if err != nil {
		t.Fatal(err)
	}
	at := bytes.Index(b, []byte{2, 3, 0, 1, 4, 0, 0, 0, 0x00, 0x3c, 0x1c, 0xc6})
	if at < 0 {
		t.Fatal("fill value message not found")
	}
	b[at] = 9
	p := filepath.Join(t.TempDir(), "bad_fill.h5")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	want := "fill value message version 9 is not supported"
	if _, _, err := Read(p, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), want) {
		t.Errorf("Read: %v, want an error naming %s and saying %q", err, p, want)
	}
	if src, err := Open(p, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), want) {
		if src != nil {
			src.Close()
		}
		t.Errorf("Open: %v, want an error naming %s and saying %q", err, p, want)
	}
}
