package npy

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/internal/raw"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

type goldenImage struct {
	File    string `json:"file"`
	Shape   [3]int `json:"shape"`
	DType   string `json:"dtype"`
	Fortran bool   `json:"fortran"`
	Values  string `json:"values"`
}

func loadGolden(t testing.TB) (map[string][]json.Number, []goldenImage) {
	t.Helper()
	f, err := os.Open("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	var g struct {
		Values map[string][]json.Number `json:"values"`
		Images []goldenImage            `json:"images"`
	}
	if err := dec.Decode(&g); err != nil {
		t.Fatal(err)
	}
	return g.Values, g.Images
}

func exact(t testing.TB, n json.Number, dtype string) float32 {
	s := n.String()
	switch {
	case strings.HasPrefix(dtype, "float"):
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		return float32(v)
	case strings.HasPrefix(dtype, "uint"):
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		return float32(v)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return float32(v)
}

// TestGoldens reads every file numpy wrote (testdata/gen_golden.py).
func TestGoldens(t *testing.T) {
	vals, images := loadGolden(t)
	if len(images) < 80 {
		t.Fatalf("%d golden files, want at least 80", len(images))
	}
	for _, im := range images {
		t.Run(strings.TrimSuffix(im.File, ".npy"), func(t *testing.T) {
			c, info, err := Read(filepath.Join("testdata", im.File), hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.H != im.Shape[0] || c.W != im.Shape[1] || c.B != im.Shape[2] {
				t.Fatalf("shape %dx%dx%d, want %v", c.H, c.W, c.B, im.Shape)
			}
			wantType := im.DType
			if wantType == "bool" {
				wantType = "uint8"
			}
			if info.DataType != wantType || strings.HasPrefix(info.Layout, "Fortran") != im.Fortran {
				t.Errorf("info %+v", info)
			}
			v := vals[im.Values]
			if len(v) != len(c.Data) {
				t.Fatalf("%d golden values, %d in cube", len(v), len(c.Data))
			}
			for i, n := range v {
				if want := exact(t, n, im.DType); c.Data[i] != want {
					p := i / c.B
					t.Fatalf("row %d col %d band %d = %v, want %v", p/c.W, p%c.W, i%c.B, c.Data[i], want)
				}
			}
		})
	}
}

func testCube(h, w, b int, t sample.Type) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	lo, hi := t.Range()
	for i := range c.Data {
		if t.IsFloat() {
			c.Data[i] = float32(math.Cos(float64(i)) * 1e3 / float64(i%5+1))
			continue
		}
		v := math.Round(lo + float64((i*7919)%1000)/999*(math.Min(hi, 1<<40)-lo))
		f := float32(v)
		if float64(f) > hi || (hi >= 1<<63 && float64(f) >= hi) {
			f = math.Nextafter32(f, 0)
		}
		c.Data[i] = f
	}
	return c
}

func TestRoundTripEveryType(t *testing.T) {
	dir := t.TempDir()
	for _, typ := range []sample.Type{sample.Uint8, sample.Int8, sample.Int16, sample.Uint16, sample.Int32, sample.Uint32, sample.Int64, sample.Uint64, sample.Float32, sample.Float64} {
		for _, b := range []int{1, 4} {
			c := testCube(6, 9, b, typ)
			p := filepath.Join(dir, fmt.Sprintf("%s_%d.npy", typ, b))
			if err := Write(p, c, hsi.WriteOptions{DataType: typ}); err != nil {
				t.Fatal(err)
			}
			got, info, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if info.DataType != typ.String() || got.H != 6 || got.W != 9 || got.B != b {
				t.Fatalf("%s: %+v %dx%dx%d", typ, info, got.H, got.W, got.B)
			}
			for i := range c.Data {
				if got.Data[i] != c.Data[i] {
					t.Fatalf("%s: value %d = %v, want %v", typ, i, got.Data[i], c.Data[i])
				}
			}
		}
	}
}

func TestWriteHeaderLikeNumpy(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.npy")
	if err := Write(p, testCube(2, 3, 4, sample.Float32), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	// np.save of a (2, 3, 4) float32 array writes exactly this 128-byte header.
	want := "\x93NUMPY\x01\x00v\x00{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }" +
		strings.Repeat(" ", 128-10-len("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3, 4), }")-1) + "\n"
	if string(b[:128]) != want {
		t.Fatalf("header %q\nwant   %q", b[:128], want)
	}
	if len(b) != 128+2*3*4*4 {
		t.Fatalf("file is %d bytes", len(b))
	}
}

func npyBytes(dict string, data []byte) []byte {
	b := append([]byte("\x93NUMPY\x01\x00"), byte(len(dict)), byte(len(dict)>>8))
	b = append(b, dict...)
	return append(b, data...)
}

func TestReadErrors(t *testing.T) {
	f4 := func(vals ...float32) []byte {
		var b []byte
		for _, v := range vals {
			b = append(b, byte(math.Float32bits(v)), byte(math.Float32bits(v)>>8), byte(math.Float32bits(v)>>16), byte(math.Float32bits(v)>>24))
		}
		return b
	}
	nan := float32(math.NaN())
	ok := "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }\n"
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"magic", []byte("PK\x03\x04 not numpy"), "bad magic"},
		{"empty", nil, "bad magic"},
		{"version", append([]byte("\x93NUMPY\x04\x00\x00\x00"), ok...), "version 4.0"},
		{"header past end", []byte("\x93NUMPY\x01\x00\xff\x00{'descr'"), "runs past the end"},
		{"truncated", npyBytes(ok, f4(1, 2, 3)), "holds 12 bytes of data, but shape [2 2] of float32 needs 16"},
		{"1d", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", f4(1, 2, 3, 4)), "want (H, W) or (H, W, B)"},
		{"4d", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,1,1,1), }", f4(1)), "want (H, W) or (H, W, B)"},
		{"zero bands", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2, 0), }", nil), "no data"},
		{"complex", npyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1, 1), }", f4(1, 2)), "unsupported dtype"},
		{"structured", npyBytes("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1, 1), }", f4(1)), "structured"},
		{"no shape", npyBytes("{'descr': '<f4', 'fortran_order': False}", f4(1)), "no 'shape'"},
		{"no order", npyBytes("{'descr': '<f4', 'shape': (1, 1)}", f4(1)), "no 'fortran_order'"},
		{"bad dict", npyBytes("{'descr': '<f4' 'shape': (1, 1)}", f4(1)), "expected ','"},
		{"bad shape", npyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1, x), }", f4(1)), "bad shape"},
		{"nan", npyBytes(ok, f4(1, 2, nan, 4)), "the first, NaN, at row 1, column 0, band 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "bad.npy")
			os.WriteFile(p, tc.file, 0o644)
			c, _, err := Read(p, hsi.ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), p) {
				t.Fatalf("error %q does not name the file", err)
			}
			var nf *hsi.NonFiniteError
			if errors.As(err, &nf) != (c != nil) {
				t.Fatalf("cube returned: %v, error %v", c != nil, err)
			}
			if nf == nil {
				r, err := OpenRows(p)
				if err == nil {
					r.Close()
				}
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
					t.Fatalf("OpenRows: err = %v, want one naming the file and saying %q", err, tc.want)
				}
			}
		})
	}
}

func TestFortranNaNPosition(t *testing.T) {
	// Fortran (2, 3, 2): element (y, x, b) at y + 2*(x + 3*b). NaN at (1, 2, 1) = 11 and (0, 1, 1) = 8.
	vals := make([]byte, 12*4)
	for _, i := range []int{11, 8} {
		copy(vals[4*i:], []byte{0, 0, 0xc0, 0x7f})
	}
	p := filepath.Join(t.TempDir(), "f.npy")
	os.WriteFile(p, npyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 2), }", vals), 0o644)
	_, _, err := Read(p, hsi.ReadOptions{})
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 0 || nf.Col != 1 || nf.Band != 1 || nf.Count != 2 {
		t.Fatalf("err = %v", err)
	}
}

func TestTooLargeForMemory(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.npy")
	f, _ := os.Create(p)
	f.Write(npyBytes("{'descr': '|u1', 'fortran_order': False, 'shape': (8192, 8192, 16), }", nil))
	if err := f.Truncate(1<<30 + 4096); err != nil {
		t.Skip("no sparse files:", err)
	}
	f.Close()
	t.Setenv("OMNIHSR_MEM_LIMIT", "1G")
	if _, _, err := Read(p, hsi.ReadOptions{}); !errors.Is(err, memlimit.ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteErrors(t *testing.T) {
	c := testCube(2, 2, 2, sample.Float32)
	c.Data[5] = float32(math.Inf(1))
	for _, opt := range []hsi.WriteOptions{{}, {DataType: sample.Uint8}, {DataType: sample.Float16}, {DataType: sample.Type(99)}} {
		dir := t.TempDir()
		err := Write(filepath.Join(dir, "x.npy"), c, opt)
		if err == nil || !strings.Contains(err.Error(), "x.npy") {
			t.Fatalf("%+v: err = %v", opt, err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Fatalf("left behind %v", ents)
		}
	}
	if err := Write(filepath.Join(t.TempDir(), "x.npy"), &hsi.Cube{H: 1, W: 1}, hsi.WriteOptions{}); err == nil {
		t.Fatal("0-band cube written")
	}
}

func TestParseDictVariants(t *testing.T) {
	for _, s := range []string{
		`{"shape": (3, 4), "fortran_order": True, "descr": ">u2"}`,
		"{'descr':'<u2','fortran_order':True,'shape':(3L,4L)}\n",
		"  {'descr': '<u2', 'fortran_order': True, 'shape': (3, 4,), }   \n",
	} {
		d, err := parseDict(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var h header
		if err := h.fill(d); err != nil || !h.fortran || h.typ != sample.Uint16 || fmt.Sprint(h.shape) != "[3 4]" {
			t.Fatalf("%q: %+v %v", s, h, err)
		}
	}
}

// FuzzRead feeds arbitrary bytes to the .npy decoder; it must not panic
// and must not make a cube larger than the data it was given.
func FuzzRead(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.npy")
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		c, h, err := decode(bytes.NewReader(b), int64(len(b)), "fuzz")
		if c == nil {
			if err == nil {
				t.Fatal("no cube and no error")
			}
			return
		}
		if int64(len(c.Data))*int64(h.typ.Size()) > int64(len(b)) {
			t.Fatal("cube larger than the file")
		}
		if err == nil {
			if e := raw.CheckFinite("fuzz", c); e != nil {
				t.Fatal("non-finite value not reported")
			}
		}
	})
}
