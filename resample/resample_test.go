package resample

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

func TestWorkersDoNotChangeResults(t *testing.T) {
	c := testrand.Cube(testrand.New(3, 1), 33, 29, 17)
	run := func() [][]float32 {
		d, err := Downsample(c, 9, 12)
		if err != nil {
			t.Fatal(err)
		}
		u, err := Upsample(c, 70, 61)
		if err != nil {
			t.Fatal(err)
		}
		g, err := GaussianBlur(c, 1.7)
		if err != nil {
			t.Fatal(err)
		}
		n, err := AddNoise(c, 0.1, 7)
		if err != nil {
			t.Fatal(err)
		}
		return [][]float32{d.Data, u.Data, g.Data, n.Data}
	}
	old := runtime.GOMAXPROCS(1)
	one := run()
	runtime.GOMAXPROCS(3)
	three := run()
	runtime.GOMAXPROCS(old)
	for k := range one {
		for i := range one[k] {
			if one[k][i] != three[k][i] {
				t.Fatalf("result %d differs at %d between 1 and 3 workers", k, i)
			}
		}
	}
}

func TestConstantStaysConstant(t *testing.T) {
	c := hsi.MustNew(23, 31, 5)
	for i := range c.Data {
		c.Data[i] = 0.625
	}
	for _, sz := range [][2]int{{6, 8}, {1, 1}, {23, 31}, {50, 40}, {12, 90}} {
		for name, f := range map[string]func(*hsi.Cube, int, int) (*hsi.Cube, error){
			"down": Downsample, "up": Upsample, "area": AreaResize,
		} {
			out, err := f(c, sz[0], sz[1])
			if err != nil {
				t.Fatal(err)
			}
			for i, v := range out.Data {
				if math.Abs(float64(v)-0.625) > 1e-6 {
					t.Fatalf("%s to %v: value %d = %v, want 0.625", name, sz, i, v)
				}
			}
		}
	}
}

func TestSameSizeIsIdentity(t *testing.T) {
	c := testrand.Cube(testrand.New(4, 1), 13, 17, 3)
	for name, f := range map[string]func(*hsi.Cube, int, int) (*hsi.Cube, error){
		"down": Downsample, "up": Upsample, "area": AreaResize,
	} {
		out, err := f(c, c.H, c.W)
		if err != nil {
			t.Fatal(err)
		}
		for i := range c.Data {
			if out.Data[i] != c.Data[i] {
				t.Fatalf("%s at the same size changed value %d", name, i)
			}
		}
	}
}

func TestArea(t *testing.T) {
	c := testrand.Cube(testrand.New(5, 1), 9, 14, 2)
	out, err := Area(c, 3)
	if err != nil {
		t.Fatal(err)
	}
	if out.H != 3 || out.W != 4 {
		t.Fatalf("Area(9x14, 3) is %dx%d, want 3x4 (last 2 columns dropped)", out.H, out.W)
	}
	for y := 0; y < 3; y++ {
		for x := 0; x < 4; x++ {
			for b := 0; b < 2; b++ {
				var s float64
				for dy := 0; dy < 3; dy++ {
					for dx := 0; dx < 3; dx++ {
						s += float64(c.At(3*y+dy, 3*x+dx, b))
					}
				}
				if d := math.Abs(s/9 - float64(out.At(y, x, b))); d > 1e-6 {
					t.Fatalf("block (%d,%d,%d): %v, want %v", y, x, b, out.At(y, x, b), s/9)
				}
			}
		}
	}
}

func TestGeoIsScaled(t *testing.T) {
	c := testrand.Cube(testrand.New(6, 1), 40, 60, 2)
	c.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 500000, 4000000, 30, 30, 13, North, WGS-84", PixelScale: []float64{30, 30, 0}}
	c.Meta.Wavelengths = []float64{500, 600}
	lr, err := Downsample(c, 10, 20)
	if err != nil {
		t.Fatal(err)
	}
	if got := lr.Meta.Geo.PixelScale; got[0] != 90 || got[1] != 120 {
		t.Errorf("pixel scale after 40x60 -> 10x20 is %v, want [90 120 0]", got)
	}
	if !strings.Contains(lr.Meta.Geo.MapInfo, "500000, 4000000, 90, 120,") {
		t.Errorf("map info after downsampling: %q", lr.Meta.Geo.MapInfo)
	}
	if c.Meta.Geo.PixelScale[0] != 30 {
		t.Error("the input's georeferencing was modified")
	}
	if len(lr.Meta.Wavelengths) != 2 {
		t.Error("wavelengths were not carried")
	}
	sr, err := Upsample(lr, 40, 60)
	if err != nil {
		t.Fatal(err)
	}
	if got := sr.Meta.Geo.PixelScale; math.Abs(got[0]-30) > 1e-9 || math.Abs(got[1]-30) > 1e-9 {
		t.Errorf("pixel scale after the round trip is %v, want 30 30", got)
	}
}

func TestBadInput(t *testing.T) {
	good := testrand.Cube(testrand.New(7, 1), 8, 9, 3)
	nan := good.Clone()
	nan.Set(5, 2, 1, float32(math.NaN()))
	inf := good.Clone()
	inf.Set(0, 8, 2, float32(math.Inf(-1)))
	short := &hsi.Cube{H: 8, W: 9, B: 3, Data: make([]float32, 10)}
	nanF := math.NaN()
	tests := []struct {
		name string
		f    func() (*hsi.Cube, error)
		want string
	}{
		{"nil", func() (*hsi.Cube, error) { return Downsample(nil, 2, 2) }, "nil cube"},
		{"short data", func() (*hsi.Cube, error) { return Upsample(short, 2, 2) }, "holds 10 values"},
		{"zero height", func() (*hsi.Cube, error) { return Downsample(good, 0, 3) }, "at least 1x1"},
		{"negative width", func() (*hsi.Cube, error) { return Upsample(good, 3, -1) }, "at least 1x1"},
		{"NaN pixel", func() (*hsi.Cube, error) { return Downsample(nan, 4, 4) }, "row 5, column 2, band 1"},
		{"Inf pixel", func() (*hsi.Cube, error) { return Upsample(inf, 16, 18) }, "row 0, column 8, band 2"},
		{"NaN pixel area", func() (*hsi.Cube, error) { return AreaResize(nan, 4, 4) }, "non-finite"},
		{"NaN pixel blur", func() (*hsi.Cube, error) { return GaussianBlur(nan, 1) }, "non-finite"},
		{"too large", func() (*hsi.Cube, error) { return Upsample(good, 1<<30, 1<<30) }, "invalid size"},
		{"more than memory", func() (*hsi.Cube, error) { return Upsample(good, 1<<18, 1<<18) }, "invalid size"},
		{"factor 0", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: 0}) }, "no factor"},
		{"factor < 0", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: -2}) }, "must be a finite number > 0"},
		{"factor NaN", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: nanF}) }, "must be a finite number > 0"},
		{"factor Inf", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: math.Inf(1)}) }, "must be a finite number > 0"},
		{"LR rounds to 0", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: 20}) }, "gives 0x0 pixels"},
		{"one side only", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{H: 3}) }, "both sides"},
		{"NaN noise", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: 2, Noise: nanF}) }, "noise NaN"},
		{"negative blur", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: 2, Blur: -1}) }, "blur -1"},
		{"NaN degrade", func() (*hsi.Cube, error) { return Degrade(nan, DegradeOptions{Scale: 2}) }, "row 5, column 2, band 1"},
		{"blur too wide", func() (*hsi.Cube, error) { return GaussianBlur(good, 5) }, "exceeds twice the larger side"},
		{"degrade blur too wide", func() (*hsi.Cube, error) { return Degrade(good, DegradeOptions{Scale: 4, Blur: 2}) }, "exceeds twice"},
		{"blur sigma < 0", func() (*hsi.Cube, error) { return GaussianBlur(good, -1) }, "sigma -1"},
		{"noise sigma Inf", func() (*hsi.Cube, error) { return AddNoise(good, math.Inf(1), 1) }, "sigma +Inf"},
		{"band blur s = 0", func() (*hsi.Cube, error) { return BandBlur(good, 0.5, 0) }, "factor 0"},
		{"area block 0", func() (*hsi.Cube, error) { return Area(good, 0) }, "block size 0"},
		{"area block too big", func() (*hsi.Cube, error) { return Area(good, 9) }, "smaller than one 9x9 block"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := tc.f()
			if err == nil {
				t.Fatalf("no error (got a %dx%dx%d cube)", out.H, out.W, out.B)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not mention %q", err, tc.want)
			}
		})
	}
	if _, err := Downsample(good, 0, 3); !errors.Is(err, ErrSize) {
		t.Errorf("size error %v does not wrap ErrSize", err)
	}
}

func TestTinyInputs(t *testing.T) {
	// No minimum input size: one pixel is replicated, as in PyTorch.
	c := hsi.MustNew(1, 1, 2)
	c.Data[0], c.Data[1] = 0.25, 0.75
	for _, f := range []func(*hsi.Cube, int, int) (*hsi.Cube, error){Downsample, Upsample, AreaResize} {
		out, err := f(c, 3, 4)
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p < 12; p++ {
			if math.Abs(float64(out.Data[2*p])-0.25) > 1e-6 || math.Abs(float64(out.Data[2*p+1])-0.75) > 1e-6 {
				t.Fatalf("pixel %d = %v", p, out.Data[2*p:2*p+2])
			}
		}
	}
}

func TestOutSize(t *testing.T) {
	tests := []struct {
		side int
		s    float64
		want int
	}{
		{37, 2, 19}, {36, 2, 18}, {5, 2, 3}, {7, 2, 4}, {512, 3.7, 138}, {64, 16, 4}, {7, 16, 0}, {8, 16, 1},
		{10, 0, 0}, {10, -1, 0}, {10, math.NaN(), 0}, {10, math.Inf(1), 0}, {0, 2, 0},
	}
	for _, tc := range tests {
		if got := OutSize(tc.side, tc.s); got != tc.want {
			t.Errorf("OutSize(%d, %v) = %d, want %d", tc.side, tc.s, got, tc.want)
		}
	}
	if got := UpSize(19, 2); got != 38 {
		t.Errorf("UpSize(19, 2) = %d", got)
	}
	if got := UpSize(5, 2.5); got != 13 { // 12.5 rounds away from zero
		t.Errorf("UpSize(5, 2.5) = %d, want 13", got)
	}
	if got := UpSize(1<<20, 1e6); got != 0 {
		t.Errorf("UpSize overflow = %d, want 0", got)
	}
}

func TestNoise(t *testing.T) {
	c := hsi.MustNew(300, 300, 3)
	a, err := AddNoise(c, 0.02, 11)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := AddNoise(c, 0.02, 11)
	d, _ := AddNoise(c, 0.02, 12)
	same, diff := true, 0
	var s, ss float64
	for i := range a.Data {
		same = same && a.Data[i] == b.Data[i]
		if a.Data[i] != d.Data[i] {
			diff++
		}
		v := float64(a.Data[i])
		s += v
		ss += v * v
	}
	if !same {
		t.Error("the same seed gave different noise")
	}
	if diff < len(a.Data)*99/100 {
		t.Errorf("seeds 11 and 12 agree on %d of %d values", len(a.Data)-diff, len(a.Data))
	}
	n := float64(len(a.Data))
	mean, sd := s/n, math.Sqrt(ss/n-(s/n)*(s/n))
	// 270000 samples: the standard error of the mean is 0.02/520.
	if math.Abs(mean) > 0.0003 || math.Abs(sd-0.02) > 0.0003 {
		t.Errorf("noise mean %.5f sd %.5f, want 0 and 0.02", mean, sd)
	}
	if c.Data[0] != 0 {
		t.Error("AddNoise modified its input")
	}
}

func TestBandBlur(t *testing.T) {
	c := testrand.Cube(testrand.New(8, 1), 20, 24, 5)
	out, err := BandBlur(c, 0.4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for b := 0; b < 5; b++ {
		band := hsi.MustNew(20, 24, 1)
		band.SetBand(0, c.Band(b))
		want, err := GaussianBlur(band, 0.4*4*float64(b)/4)
		if err != nil {
			t.Fatal(err)
		}
		got := out.Band(b)
		for i := range got {
			if got[i] != want.Data[i] {
				t.Fatalf("band %d pixel %d: %v, want %v", b, i, got[i], want.Data[i])
			}
		}
	}
	one := testrand.Cube(testrand.New(9, 1), 5, 5, 1)
	o1, err := BandBlur(one, 1, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Data {
		if one.Data[i] != o1.Data[i] {
			t.Fatal("a 1-band cube was blurred")
		}
	}
}

func TestDegradeComposes(t *testing.T) {
	hr := testrand.Cube(testrand.New(10, 1), 40, 36, 4)
	check := func(name string, got, want *hsi.Cube) {
		t.Helper()
		if got.H != want.H || got.W != want.W {
			t.Fatalf("%s: %dx%d, want %dx%d", name, got.H, got.W, want.H, want.W)
		}
		for i := range got.Data {
			if got.Data[i] != want.Data[i] {
				t.Fatalf("%s: value %d = %v, want %v", name, i, got.Data[i], want.Data[i])
			}
		}
	}
	got, err := Degrade(hr, DegradeOptions{Scale: 3.7})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Downsample(hr, 11, 10)
	check("bicubic", got, want)

	got, _ = Degrade(hr, DegradeOptions{Scale: 2.5, Blur: 0.4, BandKappa: 0.3, Noise: 0.01, Seed: 5})
	b1, _ := GaussianBlur(hr, 0.4*2.5)
	b2, _ := BandBlur(b1, 0.3, 2.5)
	d, _ := Downsample(b2, 16, 14)
	want, _ = AddNoise(d, 0.01, 5)
	check("blur+band+noise", got, want)

	got, _ = Degrade(hr, DegradeOptions{Scale: 4, Area: true})
	want, _ = Area(hr, 4)
	check("area", got, want)

	got, _ = Degrade(hr, DegradeOptions{H: 20, W: 9, Blur: 0.5})
	b1, _ = GaussianBlur(hr, 0.5*(2+4)/2.0)
	want, _ = Downsample(b1, 20, 9)
	check("explicit size", got, want)
}
