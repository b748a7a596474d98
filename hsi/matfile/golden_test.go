package matfile

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

type goldenVar struct {
	Dims   []int     `json:"dims"`
	Class  string    `json:"class"`
	Values []float64 `json:"values"`
}

// expected reads testdata/expected.json, written by testdata/gen_golden.py.
func expected(t testing.TB) map[string]map[string]goldenVar {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]map[string]goldenVar
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// checkCube compares a cube with a column-major H x W x B (or H x W) dump.
func checkCube(t *testing.T, c *hsi.Cube, g goldenVar) {
	t.Helper()
	h, w, b := g.Dims[0], g.Dims[1], 1
	if len(g.Dims) == 3 {
		b = g.Dims[2]
	}
	if c.H != h || c.W != w || c.B != b {
		t.Fatalf("cube is %dx%dx%d, want %dx%dx%d", c.H, c.W, c.B, h, w, b)
	}
	for k := 0; k < b; k++ {
		for x := 0; x < w; x++ {
			for y := 0; y < h; y++ {
				want := float32(g.Values[y+x*h+k*h*w])
				if got := c.At(y, x, k); got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
					t.Fatalf("value at (%d,%d,%d) = %v, want %v", y, x, k, got, want)
				}
			}
		}
	}
}

func goldenFile(key string) string {
	for _, ext := range []string{".mat.golden", ".h5"} {
		p := filepath.Join("testdata", key+ext)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join("testdata", key+".mat.golden")
}

// TestGoldens reads every variable of every golden written by scipy and h5py
// and compares it value by value with the dump.
func TestGoldens(t *testing.T) {
	exp := expected(t)
	keys := make([]string, 0, len(exp))
	for k := range exp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := 0
	for _, key := range keys {
		if key == "plain" || key == "latest_index" {
			continue // HDF5 files that are not MAT files: tested in hsi/internal/hdf5
		}
		path := goldenFile(key)
		for name, g := range exp[key] {
			if key[:6] == "v5_bhw" || key[:7] == "v5be_bh" {
				continue // bands x pixels: TestColMajor
			}
			t.Run(key+"/"+name, func(t *testing.T) {
				c, info, err := Read(path, hsi.ReadOptions{Var: name})
				if err != nil {
					t.Fatal(err)
				}
				if info.Variable != name {
					t.Errorf("variable %q, want %q", info.Variable, name)
				}
				wantFormat := "MAT v5"
				if strings.HasPrefix(key, "v73") {
					wantFormat = "MAT v7.3"
				}
				if info.Format != wantFormat {
					t.Errorf("format %q, want %q", info.Format, wantFormat)
				}
				if info.DataType != typeName(g.Class) {
					t.Errorf("data type %q, want %q", info.DataType, typeName(g.Class))
				}
				checkCube(t, c, g)
			})
			n++
		}
	}
	if n < 60 {
		t.Fatalf("only %d golden variables tested", n)
	}
}

func TestBigEndianDetail(t *testing.T) {
	_, info, err := Read(filepath.Join("testdata", "v5be_int16_3d_z.mat.golden"), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(info.Detail, "big-endian") || !strings.Contains(info.Detail, "compressed") {
		t.Errorf("detail %q should say big-endian, compressed", info.Detail)
	}
}

func TestColMajor(t *testing.T) {
	exp := expected(t)
	for _, tc := range []struct {
		key  string
		opt  hsi.ReadOptions
		note string
	}{
		{"v5_bhw_3x4x5", hsi.ReadOptions{Var: "Y", Layout: LayoutBHW, Height: 3, Width: 4}, ""},
		{"v5_bhw_3x4x5", hsi.ReadOptions{Var: "Y", Layout: LayoutBHW, Height: 3}, ""},
		{"v5_bhw_3x4x5", hsi.ReadOptions{Var: "Y", Layout: LayoutBHW, Width: 4}, ""},
		{"v5_bhw_3x4x5", hsi.ReadOptions{Var: "Y", Height: 3, Width: 4}, ""}, // inferred from H*W
		{"v5_bhw_3x3x4", hsi.ReadOptions{Var: "Y", Layout: LayoutBHW}, "inferred (square)"},
	} {
		c, info, err := Read(filepath.Join("testdata", tc.key+".mat.golden"), tc.opt)
		if err != nil {
			t.Fatalf("%s %+v: %v", tc.key, tc.opt, err)
		}
		if info.Layout != LayoutBHW {
			t.Errorf("%s: layout %q", tc.key, info.Layout)
		}
		if tc.note != "" && !strings.Contains(info.Detail, tc.note) {
			t.Errorf("%s: detail %q does not say %q", tc.key, info.Detail, tc.note)
		}
		checkCube(t, c, exp[tc.key]["cube"])
	}
	// Not square, no size given: a clear error.
	_, _, err := Read(filepath.Join("testdata", "v5_bhw_3x4x5.mat.golden"), hsi.ReadOptions{Var: "Y", Layout: LayoutBHW})
	if err == nil || !strings.Contains(err.Error(), "not a square") {
		t.Errorf("non-square pixels without a size: err = %v", err)
	}
	_, _, err = Read(filepath.Join("testdata", "v5_bhw_3x4x5.mat.golden"), hsi.ReadOptions{Var: "Y", Layout: LayoutBHW, Height: 5, Width: 5})
	if err == nil {
		t.Error("wrong height x width accepted")
	}
}

func TestDefaultVariableAndMeta(t *testing.T) {
	exp := expected(t)
	for _, key := range []string{"v5_multi_u", "v5_multi_z", "v5be_multi_u"} {
		c, info, err := Read(filepath.Join("testdata", key+".mat.golden"), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.Variable != "cube" {
			t.Errorf("%s: default variable %q, want cube", key, info.Variable)
		}
		checkCube(t, c, exp[key]["cube"])
		want := exp[key]["wavelengths"].Values
		if len(c.Meta.Wavelengths) != len(want) {
			t.Fatalf("%s: wavelengths %v, want %v", key, c.Meta.Wavelengths, want)
		}
		for i := range want {
			if c.Meta.Wavelengths[i] != want[i] {
				t.Fatalf("%s: wavelengths %v, want %v", key, c.Meta.Wavelengths, want)
			}
		}
	}
	c, _, err := Read(filepath.Join("testdata", "v73_earliest.mat.golden"), hsi.ReadOptions{Var: "chunk_f32"})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Meta.Wavelengths) != 4 || c.Meta.Wavelengths[0] != 450 || c.Meta.Wavelengths[3] != 700 {
		t.Errorf("v7.3 wavelengths %v", c.Meta.Wavelengths)
	}
}

func TestList(t *testing.T) {
	for _, key := range []string{"v5_multi_u", "v5_multi_z", "v5be_multi_u"} {
		vs, err := List(filepath.Join("testdata", key+".mat.golden"))
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]VarInfo{}
		for _, v := range vs {
			got[v.Name] = v
		}
		for name, class := range map[string]string{
			"cube": "single", "small": "double", "wavelengths": "double", "names": "char",
			"cellv": "cell", "structv": "struct", "sparsev": "sparse", "cplx": "double", "empty": "double",
		} {
			v, ok := got[name]
			if !ok {
				t.Fatalf("%s: variable %s not listed (got %v)", key, name, vs)
			}
			if v.Class != class {
				t.Errorf("%s: %s has class %q, want %q", key, name, v.Class, class)
			}
			numeric := class != "char" && class != "cell" && class != "struct" && class != "sparse" && name != "cplx"
			if v.Numeric != numeric {
				t.Errorf("%s: %s numeric = %v, want %v", key, name, v.Numeric, numeric)
			}
		}
		if !got["cplx"].Complex {
			t.Errorf("%s: cplx not flagged complex", key)
		}
		if got["empty"].Numel() != 0 {
			t.Errorf("%s: empty has %d elements", key, got["empty"].Numel())
		}
	}
	vs, err := List(filepath.Join("testdata", "v73_earliest.mat.golden"))
	if err != nil {
		t.Fatal(err)
	}
	classes := map[string]string{}
	for _, v := range vs {
		classes[v.Name] = v.Class
	}
	if classes["st"] != "struct" || classes["txt"] != "char" || classes["mask"] != "logical" {
		t.Errorf("v7.3 classes %v", classes)
	}
}

// TestNonNumeric selects each variable that is not a real numeric array.
func TestNonNumeric(t *testing.T) {
	for _, tc := range []struct{ file, v, want string }{
		{"v5_multi_u.mat.golden", "cellv", "class cell"},
		{"v5_multi_z.mat.golden", "structv", "class struct"},
		{"v5_multi_u.mat.golden", "sparsev", "class sparse"},
		{"v5_multi_z.mat.golden", "names", "class char"},
		{"v5_multi_u.mat.golden", "cplx", "complex"},
		{"v5_multi_u.mat.golden", "empty", "0-size"},
		{"v5_multi_u.mat.golden", "nosuch", "no variable"},
		{"v73_earliest.mat.golden", "st", "class struct"},
		{"v73_earliest.mat.golden", "txt", "class char"},
		{"v73_earliest.mat.golden", "emptyv", "0-size"},
	} {
		path := filepath.Join("testdata", tc.file)
		_, _, err := Read(path, hsi.ReadOptions{Var: tc.v})
		if err == nil {
			t.Errorf("%s %s: no error", tc.file, tc.v)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, tc.want) || !strings.Contains(msg, path) {
			t.Errorf("%s %s: error %q should name the file and say %q", tc.file, tc.v, msg, tc.want)
		}
	}
}
