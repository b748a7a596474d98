package hdf5

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

type golden struct {
	Dims   []int     `json:"dims"`
	Class  string    `json:"class"`
	Values []float64 `json:"values"`
}

func loadExpected(t testing.TB) map[string]map[string]golden {
	b, err := os.ReadFile(filepath.Join("..", "..", "matfile", "testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]golden
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func openFile(t testing.TB, path string) *File {
	fh, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, _ := fh.Stat()
	f, err := Open(fh, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// readAll reads a numeric dataset into a float64 slice in C order.
func readAll(o *Object) ([]float64, error) {
	n, err := o.Numel()
	if err != nil {
		return nil, err
	}
	out := make([]float64, n)
	err = o.Read(func(start uint64, raw []byte) error {
		k := len(raw) / o.Type.Size
		o.Type.Decode(raw, out[start:start+uint64(k)])
		return nil
	})
	return out, err
}

func TestGoldens(t *testing.T) {
	exp := loadExpected(t)
	for _, tc := range []struct{ file, key string }{
		{"v73_earliest.mat.golden", "v73_earliest"},
		{"v73_latest.mat.golden", "v73_latest"},
		{"plain.h5", "plain"},
		{"latest_index.h5", "latest_index"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f := openFile(t, filepath.Join("..", "..", "matfile", "testdata", tc.file))
			mem, err := f.Members()
			if err != nil {
				t.Fatal(err)
			}
			byName := map[string]*Object{}
			for _, o := range mem {
				byName[o.Name] = o
				t.Logf("%s kind=%d dims=%v type=%s layout=%s filters=%s attrs=%v", o.Name, o.Kind, o.Dims, o.Type, o.LayoutName(), o.FilterNames(), o.Attrs)
			}
			// The libver="latest" file exercises each chunk index of layout v4.
			wantIndex := map[string]int{"single": indexSingle, "single_z": indexSingle, "implicit": indexImplicit, "paged": indexFixedArr, "paged_z": indexFixedArr}
			for name, idx := range wantIndex {
				if o := byName[name]; o != nil && (o.layout.version != 4 || o.layout.index != idx) {
					t.Errorf("%s: layout v%d index %d, want v4 index %d", name, o.layout.version, o.layout.index, idx)
				}
			}
			for name, g := range exp[tc.key] {
				o := byName[name]
				if o == nil {
					t.Fatalf("dataset %s missing", name)
				}
				if len(o.Dims) != len(g.Dims) {
					t.Fatalf("%s: dims %v, want reversed %v", name, o.Dims, g.Dims)
				}
				for i := range g.Dims {
					if int(o.Dims[len(o.Dims)-1-i]) != g.Dims[i] {
						t.Fatalf("%s: dims %v, want reversed %v", name, o.Dims, g.Dims)
					}
				}
				if tc.key != "plain" {
					if c := o.AttrString("MATLAB_class"); c != g.Class {
						t.Errorf("%s: MATLAB_class %q, want %q", name, c, g.Class)
					}
				}
				v, err := readAll(o)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(v) != len(g.Values) {
					t.Fatalf("%s: %d values, want %d", name, len(v), len(g.Values))
				}
				for i := range v {
					if v[i] != g.Values[i] {
						t.Fatalf("%s: value %d = %v, want %v", name, i, v[i], g.Values[i])
					}
				}
			}
		})
	}
}
