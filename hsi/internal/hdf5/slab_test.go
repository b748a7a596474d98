package hdf5

import (
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
