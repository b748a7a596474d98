package hdf5

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type unlimitedGolden struct {
	Shape   []uint64   `json:"shape"`
	Values  []float64  `json:"values"`
	NonZero [][2]int64 `json:"nonzero"`
}

// TestUnlimited reads datasets with unlimited dimensions in each chunk
// index libhdf5 gives them (scripts/miniatures/unlimited.py): the version
// 1 B-tree netCDF-C writes, the extensible array (one unlimited
// dimension; its paged data blocks, written only in part) and the version
// 2 B-tree (several; filtered and not), value for value as netCDF4-python
// and h5py read them.
func TestUnlimited(t *testing.T) {
	dir := filepath.Join("..", "..", "products", "testdata")
	b, err := os.ReadFile(filepath.Join(dir, "unlimited_golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden map[string]unlimitedGolden
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, path     string
		version, index int
		filters        string
	}{
		{"unlimited_nc4.nc", "/reflectance", 3, indexBTree1, "shuffle+deflate"},
		{"unlimited_ea.nc", "/reflectance", 4, indexExtArr, "deflate"},
		{"unlimited_ea.nc", "/reflectance_hwb", 4, indexExtArr, "deflate"},
		{"unlimited_bt2.nc", "/reflectance", 4, indexBTree2, "deflate"},
		{"unlimited_bt2.nc", "/reflectance_raw", 4, indexBTree2, ""},
		{"unlimited_sparse.h5", "/sparse", 4, indexExtArr, ""},
	} {
		t.Run(tc.file+tc.path, func(t *testing.T) {
			g, ok := golden[tc.file+":"+strings.TrimPrefix(tc.path, "/")]
			if !ok {
				t.Fatal("no golden")
			}
			f := openFile(t, filepath.Join(dir, tc.file))
			o, err := f.Open(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if o.layout.version != tc.version || o.layout.index != tc.index || o.FilterNames() != tc.filters {
				t.Errorf("layout v%d index %d filters %q, want v%d index %d %q", o.layout.version, o.layout.index, o.FilterNames(), tc.version, tc.index, tc.filters)
			}
			if len(o.Dims) != len(g.Shape) {
				t.Fatalf("dims %v, want %v", o.Dims, g.Shape)
			}
			for i := range g.Shape {
				if o.Dims[i] != g.Shape[i] {
					t.Fatalf("dims %v, want %v", o.Dims, g.Shape)
				}
			}
			v, err := readAll(o)
			if err != nil {
				t.Fatal(err)
			}
			want := g.Values
			if g.NonZero != nil {
				want = make([]float64, len(v))
				for _, p := range g.NonZero {
					want[p[0]] = float64(p[1])
				}
			}
			if len(v) != len(want) {
				t.Fatalf("%d values, want %d", len(v), len(want))
			}
			for i := range v {
				if v[i] != want[i] {
					t.Fatalf("value %d = %v, want %v", i, v[i], want[i])
				}
			}
		})
	}
}

// Every truncation of the unlimited miniatures gives an error or a
// complete read, never a panic.
func TestUnlimitedTruncated(t *testing.T) {
	for _, name := range []string{"unlimited_ea.nc", "unlimited_bt2.nc", "unlimited_sparse.h5"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "products", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for n := len(b) - 1; n > 0; n -= 97 {
			f, err := Open(bytes.NewReader(b[:n]), int64(n))
			if err != nil {
				failed++
				continue
			}
			mem, err := f.Members()
			if err != nil {
				failed++
				continue
			}
			for _, o := range mem {
				if o.Kind == KindDataset && o.Type.Numeric() {
					if _, err := readAll(o); err != nil {
						failed++
					}
				}
			}
		}
		if failed == 0 {
			t.Errorf("%s: no truncation was noticed", name)
		}
	}
}
