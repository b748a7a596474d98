package hdf5

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzHDF5 feeds arbitrary bytes to the HDF5 reader, seeded with the
// MAT-file goldens and the product miniatures (NetCDF-4 with dense
// attributes, HDF-EOS5): walking every group and reading every dataset must
// return errors, never panic, loop or allocate without bound.
func FuzzHDF5(f *testing.F) {
	for _, pat := range []string{"matfile/testdata/*.mat.golden", "matfile/testdata/*.h5", "products/testdata/*.nc", "products/testdata/*.h5", "products/testdata/*.he5", "products/testdata/hostile/*"} {
		seeds, _ := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(pat)))
		for _, p := range seeds {
			b, err := os.ReadFile(p)
			if err == nil && len(b) < 64<<10 && (bytes.HasPrefix(b, Signature) || len(b) > 520 && bytes.Equal(b[512:520], Signature)) {
				f.Add(b)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		root, err := file.Root()
		if err != nil {
			return
		}
		var mem []*Object
		if err := root.Walk(func(o *Object) error { mem = append(mem, o); return nil }); err != nil {
			return
		}
		for _, o := range mem {
			if o.Kind != KindDataset || !o.Type.Numeric() {
				continue
			}
			n, err := o.Numel()
			if err != nil || n*uint64(o.Type.Size) > uint64(len(data))*1032+4096 {
				continue // the caller refuses such sizes before reading
			}
			out := make([]float64, n)
			_ = o.Read(func(start uint64, raw []byte) error {
				k := uint64(len(raw) / o.Type.Size)
				if start > n || k > n-start {
					t.Fatalf("run %d+%d outside %d elements", start, k, n)
				}
				o.Type.Decode(raw, out[start:start+k])
				return nil
			})
		}
	})
}
