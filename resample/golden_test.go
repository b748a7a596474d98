package resample

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// The goldens are made by testdata/gen_golden.py (PyTorch, scipy).

type goldenRef struct {
	File   string `json:"file"`
	Offset int    `json:"offset"`
	Shape  []int  `json:"shape"`
}

type goldenCase struct {
	Name  string    `json:"name"`
	Op    string    `json:"op"`
	In    goldenRef `json:"in"`
	Out   goldenRef `json:"out"`
	Scale float64   `json:"scale"`
	Sigma float64   `json:"sigma"`
}

type goldenSet struct {
	Torch string       `json:"torch"`
	Cases []goldenCase `json:"cases"`
	files map[string][]float32
}

func loadGolden(t testing.TB, dir string) *goldenSet {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "golden.json"))
	if err != nil {
		t.Fatal(err)
	}
	g := &goldenSet{files: map[string][]float32{}}
	if err := json.Unmarshal(b, g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("golden.json has no cases")
	}
	return g
}

func (g *goldenSet) cube(t testing.TB, dir string, r goldenRef) *hsi.Cube {
	t.Helper()
	data, ok := g.files[r.File]
	if !ok {
		b, err := os.ReadFile(filepath.Join(dir, r.File))
		if err != nil {
			t.Fatal(err)
		}
		data = make([]float32, len(b)/4)
		for i := range data {
			data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
		g.files[r.File] = data
	}
	if len(r.Shape) != 3 {
		t.Fatalf("golden shape %v", r.Shape)
	}
	c := hsi.MustNew(r.Shape[0], r.Shape[1], r.Shape[2])
	copy(c.Data, data[r.Offset:r.Offset+len(c.Data)])
	return c
}

// maxDiff returns the largest absolute difference and how many values
// differ at all.
func maxDiff(a, b []float32) (float64, int) {
	var m float64
	n := 0
	for i := range a {
		d := math.Abs(float64(a[i]) - float64(b[i]))
		if d > m || d != d {
			m = d
		}
		if a[i] != b[i] {
			n++
		}
	}
	return m, n
}

func TestGoldenPyTorch(t *testing.T) {
	const dir = "testdata"
	g := loadGolden(t, dir)
	ops := map[string]int{}
	for _, tc := range g.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			in := g.cube(t, dir, tc.In)
			want := g.cube(t, dir, tc.Out)
			var got *hsi.Cube
			var err error
			switch tc.Op {
			case "down":
				got, err = Downsample(in, want.H, want.W)
			case "up":
				got, err = Upsample(in, want.H, want.W)
			case "area":
				got, err = AreaResize(in, want.H, want.W)
			case "blur":
				got, err = GaussianBlur(in, tc.Sigma)
			default:
				t.Fatalf("unknown op %q", tc.Op)
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.H != want.H || got.W != want.W || got.B != want.B {
				t.Fatalf("shape %dx%dx%d, want %dx%dx%d", got.H, got.W, got.B, want.H, want.W, want.B)
			}
			if tc.Scale > 0 && (tc.Op == "down" || tc.Op == "area") {
				if h, w := OutSize(in.H, tc.Scale), OutSize(in.W, tc.Scale); h != want.H || w != want.W {
					t.Errorf("OutSize(%d, %d, %g) = %dx%d, PyTorch case used %dx%d", in.H, in.W, tc.Scale, h, w, want.H, want.W)
				}
			}
			d, n := maxDiff(got.Data, want.Data)
			ops[tc.Op]++
			t.Logf("%s: max |diff| %.3g, %d of %d values not bit-identical", tc.Name, d, n, len(want.Data))
			if !(d <= 1e-5) {
				t.Errorf("max |diff| %.3g > 1e-5 (%d of %d values differ)", d, n, len(want.Data))
			}
		})
	}
	for _, op := range []string{"down", "up", "area", "blur"} {
		if ops[op] == 0 {
			t.Errorf("no golden case for %s", op)
		}
	}
}

func ExampleOutSize() {
	fmt.Println(OutSize(37, 2), OutSize(41, 3.7), OutSize(64, 16), OutSize(5, 2), UpSize(9, 2.5))
	// Output: 19 11 4 3 23
}
