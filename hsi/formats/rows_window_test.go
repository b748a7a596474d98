package formats

import (
	"errors"
	"io/fs"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// testdataFiles lists every file of the repository's test data that Read
// reads (the goldens and miniatures of every format), with its cube.
func testdataFiles(t *testing.T) []string {
	var paths []string
	for _, root := range []string{"..", "testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if root == ".." && p != ".." && filepath.Dir(p) == ".." {
					return nil // hsi/<pkg>: walk on
				}
				if filepath.Base(p) == "testdata" || filepath.Base(filepath.Dir(p)) == "testdata" || p == "testdata" || p == ".." {
					return nil
				}
				return fs.SkipDir
			}
			if filepath.Base(filepath.Dir(p)) == "testdata" || filepath.Base(filepath.Dir(filepath.Dir(p))) == "testdata" {
				if _, err := ForRead(p); err == nil {
					paths = append(paths, p)
				}
			}
			return nil
		})
	}
	if len(paths) < 100 {
		t.Fatalf("found %d test data files", len(paths))
	}
	return paths
}

// TestReadRowsWindows: for every golden and miniature that Read reads,
// Open's header is Read's, and ReadRows over random windows of rows (and
// row by row, forwards) gives Read's rows bit for bit, with the error
// Read's policy gives those rows.
func TestReadRowsWindows(t *testing.T) {
	rng := rand.New(rand.NewPCG(40, 2))
	counts := map[string]int{}
	t.Setenv("OMNIHSR_MEM_LIMIT", "256M") // the hostile miniatures that declare huge cubes are refused
	for _, p := range testdataFiles(t) {
		want, info, rerr := Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if rerr != nil && !errors.As(rerr, &nf) {
			continue
		}
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			t.Errorf("%s: Read reads it, Open: %v", p, err)
			continue
		}
		f, _ := ForRead(p)
		counts[f.Name+" "+kindOf(src)]++
		hd := src.Header()
		if hd.H != want.H || hd.W != want.W || hd.B != want.B || !reflect.DeepEqual(hd.Meta, want.Meta) || hd.Info != info {
			t.Errorf("%s: header differs from Read's", p)
		}
		row := hd.W * hd.B
		check := func(y0, y1 int) {
			got := make([]float32, (y1-y0)*row)
			err := src.ReadRows(y0, y1, got)
			wantRows := want.Data[y0*row : y1*row]
			wantErr := rowPolicy(hsi.ReadOptions{}, p, hd.W, hd.B, y0, wantRows)
			if !sameErr(err, wantErr) {
				t.Errorf("%s: rows [%d, %d): error %v, want %v", p, y0, y1, err, wantErr)
			}
			for i := range got {
				if math.Float32bits(got[i]) != math.Float32bits(wantRows[i]) {
					t.Errorf("%s: rows [%d, %d): value %d is %v, Read's %v", p, y0, y1, i, got[i], wantRows[i])
					return
				}
			}
		}
		for range 12 {
			y0 := rng.IntN(hd.H)
			check(y0, y0+1+rng.IntN(hd.H-y0))
		}
		for y := 0; y < min(hd.H, 40); y++ {
			check(y, y+1)
		}
		check(0, hd.H)
		if err := src.ReadRows(0, hd.H+1, make([]float32, (hd.H+1)*row)); err == nil {
			t.Errorf("%s: rows past the end read", p)
		}
		if err := src.ReadRows(0, 1, make([]float32, row+1)); err == nil {
			t.Errorf("%s: a destination of the wrong size accepted", p)
		}
		if err := src.Close(); err != nil {
			t.Error(err)
		}
	}
	t.Logf("files by format and source: %v", counts)
}

func sameErr(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var x, y *hsi.NonFiniteError
	if errors.As(a, &x) && errors.As(b, &y) {
		return *x == *y
	}
	return false
}

// kindOf names how a Source reads: "stream" or "whole".
func kindOf(s Source) string {
	if _, ok := s.(*cubeSource); ok {
		return "whole"
	}
	return "stream"
}

// TestOpenHostileRows: every test data file, the damaged and hostile ones
// included, opens or is refused with an error naming it; a first and last
// row read from those that open give rows or an error, never a panic.
func TestOpenHostileRows(t *testing.T) {
	t.Setenv("OMNIHSR_MEM_LIMIT", "256M")
	for _, p := range testdataFiles(t) {
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			continue
		}
		hd := src.Header()
		if row := hd.W * hd.B; row <= 1<<22 {
			for _, y := range []int{0, hd.H - 1} {
				if err := src.ReadRows(y, y+1, make([]float32, row)); err != nil {
					var nf *hsi.NonFiniteError
					if !errors.As(err, &nf) && !strings.Contains(err.Error(), filepath.Base(p)) {
						t.Errorf("%s: row %d: the error does not name the file: %v", p, y, err)
					}
				}
			}
		}
		src.Close()
	}
}
