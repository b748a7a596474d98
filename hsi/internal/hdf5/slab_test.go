package hdf5

import (
	"fmt"
	"path/filepath"
	"testing"
)

// TestSlabRun: a Slab tells the runs of its axis that hold a written chunk
// from those that hold none (scripts/miniatures/hostile_hdf5.py and
// unlimited.py): a contiguous or chunked dataset never written is one
// unwritten run whatever its declared size, an extensible array written
// in three places has them as its written runs, and a chunk row written in
// part is a written run whose reads deliver the written chunks' elements,
// and only those (the rest reads as 0), value for value as h5py wrote them.
func TestSlabRun(t *testing.T) {
	type run struct {
		lo, hi  uint64
		written bool
	}
	dir := filepath.Join("..", "..", "products", "testdata")
	// partial_chunks.h5: (10, 8, 2), chunks (4, 4, 2), rows 0-3 x columns
	// 0-3 holding 1 .. 32 and rows 8-9 x columns 4-7 holding -1 .. -16.
	partial := make([]float64, 10*8*2)
	for y := 0; y < 4; y++ {
		for x := 0; x < 4; x++ {
			for b := 0; b < 2; b++ {
				partial[(y*8+x)*2+b] = float64(1 + (y*4+x)*2 + b)
			}
		}
	}
	for y := 8; y < 10; y++ {
		for x := 4; x < 8; x++ {
			for b := 0; b < 2; b++ {
				partial[(y*8+x)*2+b] = -float64(1 + ((y-8)*4+x-4)*2 + b)
			}
		}
	}
	for _, tc := range []struct {
		file, path string
		axis       int
		runs       []run
		// want, when not nil, is the whole dataset in C order: each run is
		// read and what it delivers compared with it (never-written
		// elements 0)
		want []float64
	}{
		{"hostile/huge.h5", "/cube", 0, []run{{0, 200000, false}}, nil},
		{"hostile/huge_gzip.h5", "/cube", 0, []run{{0, 200000, false}}, nil},
		{"hostile/huge_gzip.h5", "/cube", 2, []run{{0, 300, false}}, nil},
		{"hostile/sparse_big.h5", "/cube", 0, []run{{0, 50000, false}, {50000, 50016, true}, {50016, 100000, false}}, nil},
		{"hostile/sparse_big.h5", "/cube", 1, []run{{0, 16, true}, {16, 100000, false}}, nil},
		{"hostile/partial_chunks.h5", "/cube", 0, []run{{0, 4, true}, {4, 8, false}, {8, 10, true}}, partial},
		{"hostile/partial_chunks.h5", "/cube", 1, []run{{0, 8, true}}, partial},
		{"hostile/partial_chunks.h5", "/cube", 2, []run{{0, 2, true}}, partial},
		{"unlimited_sparse.h5", "/sparse", 0, []run{{0, 10, true}, {10, 40000, false}, {40000, 40001, true}, {40001, 69000, false}, {69000, 69010, true}, {69010, 70000, false}}, nil},
		{"generic_hwb.nc", "/radiance", 0, []run{{0, 3, true}}, nil},  // contiguous, written
		{"generic_bhw.h5", "/data/cube", 1, []run{{0, 4, true}}, nil}, // chunked, every chunk written
	} {
		t.Run(tc.file+tc.path+string(rune('0'+tc.axis)), func(t *testing.T) {
			o, err := openFile(t, filepath.Join(dir, tc.file)).Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := o.Slab(tc.axis)
			if err != nil {
				t.Fatal(err)
			}
			var got []float64
			if tc.want != nil {
				got = make([]float64, len(tc.want))
			}
			for _, r := range tc.runs {
				// from the run's start, from within it and from its last index
				for _, lo := range []uint64{r.lo, (r.lo + r.hi) / 2, r.hi - 1} {
					if hi, w := s.Run(lo); hi != r.hi || w != r.written {
						t.Errorf("Run(%d) = %d, %v; want %d, %v", lo, hi, w, r.hi, r.written)
					}
				}
				if got == nil {
					continue
				}
				delivered := 0
				err := s.Read(r.lo, r.hi, func(start uint64, raw []byte) error {
					k := len(raw) / o.Type.Size
					o.Type.Decode(raw, got[start:start+uint64(k)])
					delivered += k
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
				if !r.written && delivered != 0 {
					t.Errorf("unwritten run [%d, %d): %d elements delivered", r.lo, r.hi, delivered)
				}
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("element %d: %v, want %v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestSlabRunIn: within a range of rows, RunIn tells the runs of columns
// that hold a written chunk from those that hold none, and ReadWindow
// delivers the window's written elements and nothing else: in chunk rows
// written in part (partial_chunks.h5, wide_written.h5's first chunk of a
// 240 MB row), one chunk of a 149 GiB dataset, a dataset never written
// (nothing delivered) and a contiguous one (which has no window read).
func TestSlabRunIn(t *testing.T) {
	type run struct {
		lo, hi  uint64
		written bool
	}
	dir := filepath.Join("..", "..", "products", "testdata")
	for _, tc := range []struct {
		file, path string
		lo, hi     uint64 // rows (axis 0)
		k          int
		runs       []run
		// delivered is the count of elements ReadWindow delivers for each
		// run's window; -1: an error
		delivered []int
	}{
		{"hostile/partial_chunks.h5", "/cube", 0, 4, 1, []run{{0, 4, true}, {4, 8, false}}, []int{32, 0}},
		{"hostile/partial_chunks.h5", "/cube", 1, 3, 1, []run{{0, 4, true}, {4, 8, false}}, []int{16, 0}},
		{"hostile/partial_chunks.h5", "/cube", 4, 8, 1, []run{{0, 8, false}}, []int{0}},
		{"hostile/partial_chunks.h5", "/cube", 8, 10, 1, []run{{0, 4, false}, {4, 8, true}}, []int{0, 16}},
		{"hostile/partial_chunks.h5", "/cube", 0, 10, 1, []run{{0, 8, true}}, []int{48}},
		{"hostile/wide_written.h5", "/cube", 0, 64, 1, []run{{0, 64, true}, {64, 200000, false}}, []int{64 * 64 * 16, 0}},
		{"hostile/sparse_big.h5", "/cube", 50000, 50016, 1, []run{{0, 16, true}, {16, 100000, false}}, []int{16 * 16 * 4, 0}},
		{"hostile/huge.h5", "/cube", 0, 3, 1, []run{{0, 200000, false}}, []int{0}},
		{"generic_hwb.nc", "/radiance", 0, 3, 1, []run{{0, 2, true}}, []int{-1}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			o, err := openFile(t, filepath.Join(dir, tc.file)).Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := o.Slab(0)
			if err != nil {
				t.Fatal(err)
			}
			for i, r := range tc.runs {
				for _, lo2 := range []uint64{r.lo, r.hi - 1} {
					if hi2, w := s.RunIn(tc.lo, tc.hi, tc.k, lo2); hi2 != r.hi || w != r.written {
						t.Errorf("rows [%d, %d): RunIn(%d) = %d, %v; want %d, %v", tc.lo, tc.hi, lo2, hi2, w, r.hi, r.written)
					}
				}
				n := 0
				err := s.ReadWindow(tc.lo, tc.hi, tc.k, r.lo, r.hi, func(start uint64, raw []byte) error {
					// every element delivered lies in the window
					for e := uint64(0); e < uint64(len(raw)/o.Type.Size); e++ {
						idx, rest := (start+e)/(o.Dims[1]*o.Dims[2]), (start+e)%(o.Dims[1]*o.Dims[2])
						if col := rest / o.Dims[2]; idx < tc.lo || idx >= tc.hi || col < r.lo || col >= r.hi {
							return fmt.Errorf("element (%d, %d) outside the window", idx, col)
						}
					}
					n += len(raw) / o.Type.Size
					return nil
				})
				if (err != nil) != (tc.delivered[i] < 0) || err == nil && n != tc.delivered[i] {
					t.Errorf("window [%d, %d) x [%d, %d): %d elements delivered, error %v; want %d", tc.lo, tc.hi, r.lo, r.hi, n, err, tc.delivered[i])
				}
			}
		})
	}
}
