package hdf5

import (
	"path/filepath"
	"slices"
	"testing"
)

// A parallel read delivers what a serial one does, value for value, and
// fails on the same damaged chunk (run with -race to check the hand-over).
func TestParallelRead(t *testing.T) {
	var files []string
	for _, pat := range []string{"products/testdata/*.nc", "products/testdata/*.h5", "products/testdata/*.he5", "matfile/testdata/*.h5", "matfile/testdata/v73*.golden"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", filepath.FromSlash(pat)))
		files = append(files, m...)
	}
	defer func(d func() int) { decoders = d }(decoders)
	parallelRuns, damaged := 0, 0
	for _, p := range files {
		f := openFile(t, p)
		root, err := f.Root()
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		var mem []*Object
		if err := root.Walk(func(o *Object) error { mem = append(mem, o); return nil }); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		for _, o := range mem {
			if o.Kind != KindDataset || !o.Type.Numeric() {
				continue
			}
			decoders = func() int { return 1 }
			want, werr := readAll(o)
			decoders = func() int { return 4 }
			got, gerr := readAll(o)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Errorf("%s %s: serial error %v, parallel %v", p, o.Path, werr, gerr)
				continue
			}
			if werr != nil {
				damaged++
				continue
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: parallel read differs from the serial one", p, o.Path)
			}
			if o.layout.class == layoutChunked && len(o.filters) > 0 && o.layout.index != indexSingle {
				parallelRuns++
			}
		}
	}
	if parallelRuns < 10 || damaged == 0 {
		t.Errorf("%d parallel reads of filtered chunked datasets, %d damaged: the files do not exercise both paths", parallelRuns, damaged)
	}
}
