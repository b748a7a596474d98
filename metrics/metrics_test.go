package metrics

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// The goldens are made by testdata/gen_golden.py (skimage, numpy).

type goldenRef struct {
	File  string `json:"file"`
	Shape []int  `json:"shape"`
}

type goldenCase struct {
	Name      string    `json:"name"`
	Scale     float64   `json:"scale"`
	Ref       goldenRef `json:"ref"`
	Est       goldenRef `json:"est"`
	PSNR      float64   `json:"psnr"`
	SSIM      float64   `json:"ssim"`
	SSIMF32   float64   `json:"ssim_f32"`
	SSIMBands []float64 `json:"ssim_bands"`
	SAM       float64   `json:"sam"`
	SAMPixels int       `json:"sam_pixels"`
	ERGAS     float64   `json:"ergas"`
	RMSE      float64   `json:"rmse"`
	BandRMSE  []float64 `json:"band_rmse"`
}

func readCube(t *testing.T, r goldenRef) *hsi.Cube {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", r.File))
	if err != nil {
		t.Fatal(err)
	}
	c := hsi.MustNew(r.Shape[0], r.Shape[1], r.Shape[2])
	if len(b) != 4*len(c.Data) {
		t.Fatalf("%s: %d bytes for shape %v", r.File, len(b), r.Shape)
	}
	for i := range c.Data {
		c.Data[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return c
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if !(math.Abs(got-want) <= tol) {
		t.Errorf("%s = %.10g, want %.10g (|diff| %.3g > %.3g)", what, got, want, math.Abs(got-want), tol)
	}
}

func TestGolden(t *testing.T) {
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var g struct {
		Cases []goldenCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	if len(g.Cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, tc := range g.Cases {
		t.Run(tc.Name, func(t *testing.T) {
			ref, est := readCube(t, tc.Ref), readCube(t, tc.Est)
			s, err := Compute(ref, est, tc.Scale)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("ssim %.12f, skimage float64 %.12f, skimage float32 %.12f", s.SSIM, tc.SSIM, tc.SSIMF32)
			near(t, "SSIM", s.SSIM, tc.SSIM, 1e-9)
			near(t, "SSIM vs skimage on float32", s.SSIM, tc.SSIMF32, 1e-4)
			for b := range tc.SSIMBands {
				near(t, "band SSIM", s.BandSSIM[b], tc.SSIMBands[b], 1e-9)
			}
			near(t, "PSNR", s.PSNR, tc.PSNR, 1e-9)
			near(t, "SAM", s.SAM, tc.SAM, 1e-9)
			if s.SAMPixels != tc.SAMPixels {
				t.Errorf("SAM pixels %d, want %d", s.SAMPixels, tc.SAMPixels)
			}
			near(t, "ERGAS", s.ERGAS, tc.ERGAS, 1e-9)
			near(t, "RMSE", s.RMSE, tc.RMSE, 1e-12)
			for b := range tc.BandRMSE {
				near(t, "band RMSE", s.BandRMSE[b], tc.BandRMSE[b], 1e-12)
			}
		})
	}
}

func TestIdentical(t *testing.T) {
	c := testrand.Cube(testrand.New(1, 3), 20, 30, 4)
	s, err := Compute(c, c.Clone(), 4)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(s.PSNR, 1) || s.RMSE != 0 || s.ERGAS != 0 {
		t.Errorf("identical cubes: PSNR %v RMSE %v ERGAS %v", s.PSNR, s.RMSE, s.ERGAS)
	}
	near(t, "SSIM of identical cubes", s.SSIM, 1, 1e-12)
	// The clip at 1-1e-6 gives acos(1-1e-6) = 0.081 degrees, not 0.
	near(t, "SAM of identical cubes", s.SAM, math.Acos(1-1e-6)*180/math.Pi, 1e-9)
}

func TestWorkersDoNotChangeScores(t *testing.T) {
	ref := testrand.Cube(testrand.New(2, 3), 150, 140, 9)
	est := testrand.Cube(testrand.New(3, 3), 150, 140, 9)
	old := runtime.GOMAXPROCS(1)
	a, err := Compute(ref, est, 2)
	runtime.GOMAXPROCS(4)
	b, err2 := Compute(ref, est, 2)
	runtime.GOMAXPROCS(old)
	if err != nil || err2 != nil {
		t.Fatal(err, err2)
	}
	if a.PSNR != b.PSNR || a.SSIM != b.SSIM || a.SAM != b.SAM || a.ERGAS != b.ERGAS {
		t.Errorf("1 worker %+v\n4 workers %+v", a, b)
	}
}

func TestSSIMAgainstDirectDefinition(t *testing.T) {
	// A direct 2-D evaluation of the windowed statistics on one band, to
	// check the strip and ring bookkeeping on a size with several strips.
	ref := testrand.Cube(testrand.New(4, 3), 19, 150, 2)
	est := testrand.Cube(testrand.New(5, 3), 19, 150, 2)
	_, per, err := SSIM(ref, est)
	if err != nil {
		t.Fatal(err)
	}
	g := ssimWindow()
	for b := 0; b < 2; b++ {
		var total float64
		for y := 5; y < ref.H-5; y++ {
			for x := 5; x < ref.W-5; x++ {
				var ux, uy, uxx, uyy, uxy float64
				for i := -5; i <= 5; i++ {
					for j := -5; j <= 5; j++ {
						w := g[i+5] * g[j+5]
						a, c := float64(ref.At(y+i, x+j, b)), float64(est.At(y+i, x+j, b))
						ux += w * a
						uy += w * c
						uxx += w * a * a
						uyy += w * c * c
						uxy += w * a * c
					}
				}
				c1, c2 := 1e-4, 9e-4
				total += ((2*ux*uy + c1) * (2*(uxy-ux*uy) + c2)) / ((ux*ux + uy*uy + c1) * (uxx - ux*ux + uyy - uy*uy + c2))
			}
		}
		near(t, "band SSIM", per[b], total/float64((ref.H-10)*(ref.W-10)), 1e-12)
	}
}

func TestBadInput(t *testing.T) {
	a := testrand.Cube(testrand.New(6, 3), 12, 12, 3)
	nan := a.Clone()
	nan.Set(3, 4, 2, float32(math.NaN()))
	small := testrand.Cube(testrand.New(7, 3), 10, 30, 2)
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", func() error { _, err := Compute(nil, a, 2); return err }(), "nil cube"},
		{"size", func() error { _, err := Compute(a, testrand.Cube(testrand.New(1, 3), 12, 12, 4), 2); return err }(), "estimate 12x12x4"},
		{"NaN", func() error { _, err := Compute(a, nan, 2); return err }(), "row 3, column 4, band 2"},
		{"scale 0", func() error { _, err := Compute(a, a, 0); return err }(), "scale 0"},
		{"scale NaN", func() error { _, err := ERGAS(a, a, math.NaN()); return err }(), "scale NaN"},
		{"small SSIM", func() error { _, _, err := SSIM(small, small); return err }(), "smaller than the 11x11 window"},
	}
	for _, tc := range tests {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, tc.err, tc.want)
		}
	}
	// PSNR and SAM need no minimum size.
	if _, err := PSNR(small, small); err != nil {
		t.Error(err)
	}
}

func TestZeroReference(t *testing.T) {
	z := hsi.MustNew(12, 12, 2)
	e := testrand.Cube(testrand.New(8, 3), 12, 12, 2)
	s, err := Compute(z, e, 2)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(s.SAM) || s.SAMPixels != 0 || !math.IsNaN(s.ERGAS) {
		t.Errorf("zero reference: SAM %v over %d pixels, ERGAS %v; want NaN, 0, NaN", s.SAM, s.SAMPixels, s.ERGAS)
	}
}

func TestClip01(t *testing.T) {
	c := hsi.MustNew(1, 1, 4)
	copy(c.Data, []float32{-0.5, 0.25, 1.5, float32(math.NaN())})
	Clip01(c)
	if c.Data[0] != 0 || c.Data[1] != 0.25 || c.Data[2] != 1 || !math.IsNaN(float64(c.Data[3])) {
		t.Errorf("Clip01 gave %v", c.Data)
	}
}
