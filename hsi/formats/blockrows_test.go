package formats

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testfiles"
)

// BlockRows is a TIFF's strip or tile height (whatever it is written
// with) and an HDF5 dataset's chunk rows; formats read a range of rows at
// its own cost have none.
func TestBlockRows(t *testing.T) {
	dir := t.TempDir()
	c := &hsi.Cube{H: 40, W: 20, B: 3, Data: make([]float32, 40*20*3)}
	for i := range c.Data {
		c.Data[i] = float32(i % 13)
	}
	for _, tc := range []struct {
		name     string
		creation []string
		want     int
	}{
		{"tiles.tif", []string{"TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=16"}, 16},
		{"strips.tif", []string{"COMPRESS=DEFLATE"}, -1}, // GDAL's default strip height
		{"plain.hdr", nil, 0},
		{"plain.npy", nil, 0},
	} {
		p := filepath.Join(dir, tc.name)
		if err := Write(p, c, hsi.WriteOptions{Creation: tc.creation}); err != nil {
			t.Fatal(err)
		}
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		if b, ok := src.(interface{ BlockRows() int }); ok {
			got = b.BlockRows()
		}
		src.Close()
		switch {
		case tc.want >= 0 && got != tc.want:
			t.Errorf("%s: BlockRows %d, want %d", tc.name, got, tc.want)
		case tc.want < 0 && (got < 1 || got > c.H):
			t.Errorf("%s: BlockRows %d, want a strip height in [1, %d]", tc.name, got, c.H)
		}
	}
	chunked := 0
	for _, p := range testfiles.Committed(filepath.Join("..", "..")) {
		if ext := strings.ToLower(filepath.Ext(p)); ext != ".h5" && ext != ".nc" && ext != ".he5" {
			continue
		}
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			continue
		}
		rs, ok := src.(*rowsSource)
		if ok {
			rows, _ := rs.ChunkSize()
			if got := rs.BlockRows(); got != min(rows, rs.hd.H) {
				t.Errorf("%s: BlockRows %d, chunk rows %d", p, got, rows)
			}
			if rows > 0 && rows < rs.hd.H {
				chunked++
			}
		}
		src.Close()
	}
	if chunked == 0 {
		t.Error("no committed HDF5 file is chunked in fewer rows than it has")
	}
}

// A missing input is named with the system's words, as GDAL names it,
// whatever its format, and is fs.ErrNotExist for callers that match it.
func TestMissingFile(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.hdr", "a.img", "a.tif", "a.npy", "a.mat", "a.png", "a.h5", "a.nc", "a.xml"} {
		p := filepath.Join(dir, name)
		_, _, rerr := Read(p, hsi.ReadOptions{})
		_, oerr := Open(p, hsi.ReadOptions{})
		for _, err := range []error{rerr, oerr} {
			if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), p+": ") || strings.Count(err.Error(), p) != 1 {
				t.Errorf("%s: %v, want %q and the path once", name, err, p+": no such file or directory")
			}
		}
	}
}
