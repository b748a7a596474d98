package figure

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/cofr"
)

func nan32() float32 { return float32(math.NaN()) }

// cube returns an h x w x b cube holding vals (pixel-interleaved).
func cube(t *testing.T, h, w, b int, vals ...float32) *hsi.Cube {
	t.Helper()
	c := hsi.MustNew(h, w, b)
	if len(vals) != len(c.Data) {
		t.Fatalf("cube %dx%dx%d: %d values", h, w, b, len(vals))
	}
	copy(c.Data, vals)
	return c
}

func solid(w, h int, c color.NRGBA) *image.NRGBA {
	m := image.NewNRGBA(image.Rect(0, 0, w, h))
	fill(m, c)
	return m
}

func wantErr(t *testing.T, err error, sub string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", sub)
	}
	if !strings.Contains(err.Error(), sub) {
		t.Fatalf("error %q does not contain %q", err, sub)
	}
}

func TestFalseColour(t *testing.T) {
	// 1 x 3 pixels, 3 bands; bands shown as R, G, B = 2, 1, 0.
	c := cube(t, 1, 3, 3,
		0, 10, 20, // pixel 0
		5, 15, 30, // pixel 1
		-1, nan32(), 99, // pixel 2
	)
	lo := [3]float32{20, 10, 0}
	hi := [3]float32{30, 20, 10}
	m, err := FalseColour(c, [3]int{2, 1, 0}, lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds() != image.Rect(0, 0, 3, 1) {
		t.Fatalf("bounds %v", m.Bounds())
	}
	for _, tc := range []struct {
		x    int
		want color.NRGBA
	}{
		{0, color.NRGBA{0, 0, 0, 255}},       // all at lo
		{1, color.NRGBA{255, 128, 128, 255}}, // hi; 127.5 rounds to even 128
		{2, color.NRGBA{255, 0, 0, 255}},     // above hi clamps; NaN is 0; below lo clamps
	} {
		if got := m.NRGBAAt(tc.x, 0); got != tc.want {
			t.Errorf("pixel %d = %v, want %v", tc.x, got, tc.want)
		}
	}
	// hi <= lo: a threshold at lo.
	m, err = FalseColour(c, [3]int{0, 0, 0}, [3]float32{4, 4, 4}, [3]float32{4, 4, 4})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.NRGBAAt(1, 0); got != (color.NRGBA{255, 255, 255, 255}) {
		t.Errorf("threshold above: %v", got)
	}
	if got := m.NRGBAAt(0, 0); got != (color.NRGBA{0, 0, 0, 255}) {
		t.Errorf("threshold below: %v", got)
	}

	bad := cube(t, 1, 3, 3, make([]float32, 9)...)
	bad.Data = bad.Data[:8]
	for _, tc := range []struct {
		name  string
		c     *hsi.Cube
		bands [3]int
		lo    [3]float32
		sub   string
	}{
		{"band high", c, [3]int{0, 1, 3}, lo, "blue band 3 outside 0..2"},
		{"band negative", c, [3]int{-1, 1, 2}, lo, "red band -1"},
		{"nil", nil, [3]int{}, lo, "nil cube"},
		{"short data", bad, [3]int{}, lo, "holds 8 values"},
		{"empty", &hsi.Cube{}, [3]int{}, lo, "zero dimension"},
		{"nan stretch", c, [3]int{}, [3]float32{0, nan32(), 0}, "green stretch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FalseColour(tc.c, tc.bands, tc.lo, hi)
			wantErr(t, err, tc.sub)
		})
	}
}

func TestStretchOf(t *testing.T) {
	// Band 0 holds 0..100 over 101 pixels, band 1 a constant, NaN ignored.
	c := hsi.MustNew(1, 102, 2)
	for x := range 101 {
		c.Data[x*2], c.Data[x*2+1] = float32(x), 7
	}
	c.Data[101*2], c.Data[101*2+1] = nan32(), nan32()
	lo, hi := StretchOf(c, [3]int{0, 1, 0})
	if lo != [3]float32{2, 7, 2} || hi != [3]float32{98, 7, 98} {
		t.Fatalf("stretch %v..%v", lo, hi)
	}
	if lo, hi := StretchOf(c, [3]int{0, 2, 0}); lo != [3]float32{} || hi != [3]float32{} {
		t.Fatalf("band out of range: %v..%v, want zeros", lo, hi)
	}
}

func TestErrorMap(t *testing.T) {
	want := cube(t, 1, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0)
	got := cube(t, 1, 4, 2,
		0, 0, // error 0
		1, 3, // mean |.| = 2 = max
		-10, 10, // 10, clamped to max
		nan32(), 0, // NaN
	)
	m, err := ErrorMap(got, want, 2)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x    int
		want color.NRGBA
	}{
		{0, color.NRGBA{0, 0, 4, 255}},       // inferno[0]
		{1, color.NRGBA{252, 255, 164, 255}}, // inferno[255]
		{2, color.NRGBA{252, 255, 164, 255}},
		{3, NaNColour},
	} {
		if c := m.NRGBAAt(tc.x, 0); c != tc.want {
			t.Errorf("pixel %d = %v, want %v", tc.x, c, tc.want)
		}
	}
	e, err := MeanAbsErr(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if e[1] != 2 || e[2] != 10 || !math.IsNaN(float64(e[3])) {
		t.Errorf("MeanAbsErr = %v", e)
	}

	other := cube(t, 1, 4, 1, 0, 0, 0, 0)
	for _, tc := range []struct {
		name      string
		got, want *hsi.Cube
		max       float32
		sub       string
	}{
		{"bands differ", other, want, 1, "got is 1x4x1, want is 1x4x2"},
		{"nil want", got, nil, 1, "want: nil cube"},
		{"zero max", got, want, 0, "maximum 0 must be positive"},
		{"nan max", got, want, nan32(), "must be positive"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ErrorMap(tc.got, tc.want, tc.max)
			wantErr(t, err, tc.sub)
		})
	}
}

func TestPercentileMaxOf(t *testing.T) {
	v := []float32{4, 1, nan32(), 3, 2, float32(math.Inf(1))}
	for _, tc := range []struct {
		q    float64
		want float32
	}{{0, 1}, {50, 2.5}, {100, 4}, {99, 3.97}, {-5, 1}, {200, 4}} {
		if got := Percentile(v, tc.q); math.Abs(float64(got-tc.want)) > 1e-6 {
			t.Errorf("Percentile(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile(nil) = %v", got)
	}
	if got := MaxOf(v, []float32{-1, 3.5}); got != 4 {
		t.Errorf("MaxOf = %v", got)
	}
	if got := MaxOf([]float32{-3, -2}); got != -2 {
		t.Errorf("MaxOf negatives = %v", got)
	}
	if got := MaxOf(); got != 0 {
		t.Errorf("MaxOf() = %v", got)
	}
	if v[0] != 4 {
		t.Error("Percentile modified its input")
	}
}

func TestHeatMapErrors(t *testing.T) {
	for _, tc := range []struct {
		name        string
		v           []float32
		w, h, scale int
		sub         string
	}{
		{"length", make([]float32, 5), 2, 3, 1, "5 values, want 6"},
		{"size", nil, 0, 3, 1, "sizes must be positive"},
		{"scale", make([]float32, 6), 2, 3, 0, "scale 0"},
		{"huge", make([]float32, 6), 2, 3, 1 << 30, "too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := HeatMap(tc.v, tc.w, tc.h, tc.scale, 1)
			wantErr(t, err, tc.sub)
		})
	}
	m, err := HeatMap([]float32{0, 1}, 2, 1, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds() != image.Rect(0, 0, 6, 3) || m.NRGBAAt(2, 2) != Inferno(0) || m.NRGBAAt(3, 0) != Inferno(1) {
		t.Errorf("heat map %v: %v %v", m.Bounds(), m.NRGBAAt(2, 2), m.NRGBAAt(3, 0))
	}
}

func TestGridSize(t *testing.T) {
	red := color.NRGBA{255, 0, 0, 255}
	img := func(w, h int) image.Image { return solid(w, h, red) }
	for _, tc := range []struct {
		name string
		rows [][]Panel
		pad  int
		w, h int
	}{
		{"empty", nil, 4, 0, 0},
		{"one row no titles", [][]Panel{{{"", img(10, 20)}, {"", img(30, 5)}}}, 2, 2 + 10 + 2 + 30 + 2, 2 + 20 + 2},
		{"title wider than panel", [][]Panel{{{"ab", img(10, 20)}, {"", img(30, 5)}}}, 2, 2 + 14 + 2 + 30 + 2, 2 + TitleHeight + 20 + 2},
		{"ragged rows", [][]Panel{{{"", img(10, 10)}, {"", img(20, 10)}}, {{"", img(30, 5)}}}, 0, 30 + 20, 10 + 5},
		{"title row and untitled row", [][]Panel{{{"x", img(8, 8)}}, {{"", img(8, 8)}}}, 1, 1 + 8 + 1, 1 + TitleHeight + 8 + 1 + 8 + 1},
		{"nil image", [][]Panel{{{"", nil}, {"", img(5, 5)}}}, 3, 3 + 0 + 3 + 5 + 3, 3 + 5 + 3},
		{"negative pad", [][]Panel{{{"", img(5, 6)}}}, -3, 5, 6},
		{"offset bounds", [][]Panel{{{"", solid(9, 9, red).SubImage(image.Rect(2, 3, 6, 9))}}}, 1, 1 + 4 + 1, 1 + 6 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Grid(tc.rows, tc.pad)
			if g.Bounds() != image.Rect(0, 0, tc.w, tc.h) {
				t.Fatalf("bounds %v, want %dx%d", g.Bounds(), tc.w, tc.h)
			}
		})
	}

	// Placement: a titled 10x10 red panel in a 14-wide column, pad 2:
	// x = 2 + (14-10)/2 = 4, y = 2 + TitleHeight.
	g := Grid([][]Panel{{{"ab", img(10, 10)}}}, 2)
	if c := g.NRGBAAt(4, 2+TitleHeight); c != red {
		t.Errorf("panel top-left %v", c)
	}
	if c := g.NRGBAAt(3, 2+TitleHeight); c != white {
		t.Errorf("left of panel %v", c)
	}
	if c := g.NRGBAAt(4+10, 2+TitleHeight+9); c != white {
		t.Errorf("right of panel %v", c)
	}
	dark := 0
	for y := 2; y < 2+TitleHeight; y++ {
		for x := 0; x < g.Bounds().Dx(); x++ {
			if g.NRGBAAt(x, y).R < 128 {
				dark++
			}
		}
	}
	if dark < 10 {
		t.Errorf("title band has %d dark pixels", dark)
	}
}

func TestZoomOutline(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 4, 4))
	for y := range 4 {
		for x := range 4 {
			src.SetNRGBA(x, y, color.NRGBA{uint8(x), uint8(y), 0, 255})
		}
	}
	z := Zoom(src, image.Rect(1, 2, 3, 9), 3) // clipped to rows 2..3
	if z.Bounds() != image.Rect(0, 0, 6, 6) {
		t.Fatalf("zoom bounds %v", z.Bounds())
	}
	for _, tc := range []struct{ x, y, sx, sy int }{{0, 0, 1, 2}, {2, 2, 1, 2}, {3, 0, 2, 2}, {5, 5, 2, 3}} {
		if c := z.NRGBAAt(tc.x, tc.y); c.R != uint8(tc.sx) || c.G != uint8(tc.sy) {
			t.Errorf("zoom (%d,%d) = %v, want source (%d,%d)", tc.x, tc.y, c, tc.sx, tc.sy)
		}
	}
	if z := Zoom(src, image.Rect(10, 10, 12, 12), 2); !z.Bounds().Empty() {
		t.Errorf("disjoint crop gives %v", z.Bounds())
	}

	m := solid(10, 10, white)
	blue := color.NRGBA{0, 0, 255, 255}
	Outline(m, image.Rect(2, 2, 8, 8), blue, 2)
	for _, tc := range []struct {
		x, y int
		want color.NRGBA
	}{{2, 2, blue}, {3, 5, blue}, {7, 7, blue}, {4, 4, white}, {1, 1, white}, {8, 8, white}, {5, 6, blue}} {
		if c := m.NRGBAAt(tc.x, tc.y); c != tc.want {
			t.Errorf("outline (%d,%d) = %v, want %v", tc.x, tc.y, c, tc.want)
		}
	}
}

func TestColourBar(t *testing.T) {
	b := ColourBar(0.5, 100, 10)
	if b.Bounds() != image.Rect(0, 0, 100, 10+TitleHeight) {
		t.Fatalf("bounds %v", b.Bounds())
	}
	if b.NRGBAAt(0, 5) != Inferno(0) || b.NRGBAAt(99, 5) != Inferno(1) {
		t.Errorf("ends %v %v", b.NRGBAAt(0, 5), b.NRGBAAt(99, 5))
	}
	if FormatValue(0.5) != "0.5" || FormatValue(0.012345) != "0.0123" {
		t.Errorf("FormatValue %q %q", FormatValue(0.5), FormatValue(0.012345))
	}
}

// hueOf returns the hue in degrees of a saturated colour.
func hueOf(c color.NRGBA) float64 {
	r, g, b := float64(c.R), float64(c.G), float64(c.B)
	mx, mn := max(r, g, b), min(r, g, b)
	if mx == mn {
		return math.NaN()
	}
	var h float64
	switch mx {
	case r:
		h = 60 * (g - b) / (mx - mn)
	case g:
		h = 60 * (2 + (b-r)/(mx-mn))
	default:
		h = 60 * (4 + (r-g)/(mx-mn))
	}
	return math.Mod(h+360, 360)
}

func onePrimitive(t *testing.T, s1, s2, theta, offX float32) *cofr.Primitives {
	t.Helper()
	p, err := cofr.NewPrimitives(1, 1)
	if err != nil {
		t.Fatal(err)
	}
	p.Sigma1[0], p.Sigma2[0], p.Theta[0], p.OffX[0] = s1, s2, theta, offX
	return p
}

func TestSupports(t *testing.T) {
	// One primitive at scale 41: centre (20.5, 20.5) (+ 41 OffX), radii
	// 41 s1 and 41 s2, so the axis ends fall inside pixels, not on their
	// edges. With s1 = 0.4: a = 16.4, a/sqrt(2) = 11.6.
	const scale = 41
	grey := color.NRGBA{128, 128, 128, 255}
	for _, tc := range []struct {
		name       string
		s1, s2, th float32
		offX       float32
		on         [][2]int // pixels on the long axis's ends
		hue        float64  // expected hue there; NaN: RoundColour
		off        [][2]int // pixels that stay background
	}{
		// Theta = pi/4: axis 1 points down-right on screen (y down).
		{"45 degrees down-right", 0.4, 0.1, math.Pi / 4, 0, [][2]int{{32, 32}, {8, 8}}, 90, [][2]int{{32, 8}, {8, 32}, {20, 20}}},
		// Sigma2 longer: the long axis is Theta + 90 degrees, down-left.
		{"long axis 2", 0.1, 0.4, math.Pi / 4, 0, [][2]int{{8, 32}, {32, 8}}, 270, [][2]int{{32, 32}, {8, 8}}},
		{"horizontal", 0.4, 0.1, 0, 0, [][2]int{{36, 20}, {4, 20}}, 0, [][2]int{{20, 36}, {20, 4}}},
		{"vertical", 0.4, 0.1, math.Pi / 2, 0, [][2]int{{20, 36}, {20, 4}}, 180, [][2]int{{36, 20}}},
		{"theta beyond pi", 0.4, 0.1, math.Pi + math.Pi/2, 0, [][2]int{{20, 4}, {20, 36}}, 180, nil},
		{"negative theta", 0.4, 0.1, -math.Pi / 4, 0, [][2]int{{32, 8}, {8, 32}}, 270, [][2]int{{32, 32}}},
		// OffX = 0.1 moves the centre to x = 24.6: ends at 36.9 and 12.3.
		{"offset", 0.3, 0.1, 0, 0.1, [][2]int{{36, 20}, {12, 20}}, 0, [][2]int{{8, 20}}},
		{"round", 0.3, 0.3, 0, 0, [][2]int{{32, 20}}, math.NaN(), nil},
		{"ratio below 1.2", 0.33, 0.3, 0, 0, [][2]int{{34, 20}}, math.NaN(), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Supports(onePrimitive(t, tc.s1, tc.s2, tc.th, tc.offX), nil, scale, 1.2)
			if err != nil {
				t.Fatal(err)
			}
			if m.Bounds() != image.Rect(0, 0, scale, scale) {
				t.Fatalf("bounds %v", m.Bounds())
			}
			for _, q := range tc.on {
				c := m.NRGBAAt(q[0], q[1])
				if math.IsNaN(tc.hue) {
					if c != RoundColour {
						t.Errorf("pixel %v = %v, want RoundColour", q, c)
					}
					continue
				}
				h := hueOf(c)
				if d := math.Abs(math.Mod(h-tc.hue+540, 360) - 180); !(d < 2) {
					t.Errorf("pixel %v = %v, hue %.1f, want %.0f", q, c, h, tc.hue)
				}
			}
			for _, q := range tc.off {
				if c := m.NRGBAAt(q[0], q[1]); c != grey {
					t.Errorf("pixel %v = %v, want background", q, c)
				}
			}
		})
	}

	// Radius capped at SupportMaxRadius: 1 x 7 primitives at scale 10,
	// the last one (centre (65, 5)) horizontal with Sigma1 = 10: its
	// outline stops at x = 65 - 30 = 35 instead of leaving the canvas.
	q, _ := cofr.NewPrimitives(1, 7)
	for n := range 7 {
		q.Sigma1[n], q.Sigma2[n] = 0.05, 0.05
	}
	q.Sigma1[6] = 10
	m, err := Supports(q, nil, 10, 1.2)
	if err != nil {
		t.Fatal(err)
	}
	if c := m.NRGBAAt(35, 5); c != Hue(0) {
		t.Errorf("capped end (35,5) = %v, want red", c)
	}
	if c := m.NRGBAAt(33, 5); c != grey {
		t.Errorf("beyond capped end (33,5) = %v, want background", c)
	}

	// Background copied, not modified; size checked.
	bg := solid(scale, scale, color.NRGBA{10, 20, 30, 255})
	m, err = Supports(onePrimitive(t, 0.4, 0.1, 0, 0), bg, scale, 1.2)
	if err != nil {
		t.Fatal(err)
	}
	if m.NRGBAAt(0, 0) != (color.NRGBA{10, 20, 30, 255}) || bg.NRGBAAt(36, 20) != (color.NRGBA{10, 20, 30, 255}) {
		t.Error("background not copied")
	}
	p := onePrimitive(t, 0.4, 0.1, 0, 0)
	for _, tc := range []struct {
		name  string
		p     *cofr.Primitives
		bg    image.Image
		scale int
		sub   string
	}{
		{"bg size", p, solid(30, 40, white), scale, "background is 30x40 pixels, want 41x41"},
		{"scale", p, nil, 0, "scale 0"},
		{"nil", nil, nil, 4, "nil primitives"},
		{"invalid", &cofr.Primitives{H: 1, W: 1}, nil, 4, "has 0 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Supports(tc.p, tc.bg, tc.scale, 1.2)
			wantErr(t, err, tc.sub)
		})
	}
}

func TestPrimitiveStats(t *testing.T) {
	p, _ := cofr.NewPrimitives(1, 4)
	copy(p.Sigma1, []float32{2, 1, 1, 3})
	copy(p.Sigma2, []float32{1, 2, 1, 1})
	copy(p.Theta, []float32{-math.Pi / 4, 0.5, 0.2, math.Pi})
	for _, tc := range []struct {
		n            int
		ratio, angle float64
	}{
		{0, 2, 3 * math.Pi / 4},
		{1, 2, 0.5 + math.Pi/2},
		{2, 1, 0.2},
		{3, 3, float64(float32(math.Pi)) - math.Pi},
	} {
		if r := AxisRatio(p, tc.n); math.Abs(r-tc.ratio) > 1e-12 {
			t.Errorf("AxisRatio(%d) = %v, want %v", tc.n, r, tc.ratio)
		}
		if a := LongAxisAngle(p, tc.n); math.Abs(a-tc.angle) > 1e-6 || a < 0 || a >= math.Pi {
			t.Errorf("LongAxisAngle(%d) = %v, want %v", tc.n, a, tc.angle)
		}
	}
	if !math.IsNaN(AxisRatio(p, 4)) || !math.IsNaN(LongAxisAngle(p, -1)) || !math.IsNaN(AxisRatio(nil, 0)) {
		t.Error("out of range: want NaN")
	}
}

func TestOperatorNorm(t *testing.T) {
	p, _ := cofr.NewPrimitives(1, 2)
	p.K[0], p.K[24] = 3, -4 // primitive 0: norm 5
	p.K[25+12] = 10         // primitive 1: norm 10
	if n := OperatorNorms(p); len(n) != 2 || n[0] != 5 || n[1] != 10 {
		t.Fatalf("OperatorNorms = %v", n)
	}
	m, err := OperatorNorm(p, 2, 10)
	if err != nil {
		t.Fatal(err)
	}
	if m.Bounds() != image.Rect(0, 0, 4, 2) {
		t.Fatalf("bounds %v", m.Bounds())
	}
	e := inferno[128] // round(0.5 * 255)
	for _, tc := range []struct {
		x, y int
		want color.NRGBA
	}{{0, 0, color.NRGBA{e[0], e[1], e[2], 255}}, {1, 1, color.NRGBA{e[0], e[1], e[2], 255}}, {2, 0, color.NRGBA{252, 255, 164, 255}}} {
		if c := m.NRGBAAt(tc.x, tc.y); c != tc.want {
			t.Errorf("(%d,%d) = %v, want %v", tc.x, tc.y, c, tc.want)
		}
	}
	_, err = OperatorNorm(p, 2, 0)
	wantErr(t, err, "maximum 0")
}

func TestOperatorTile(t *testing.T) {
	k := make([]float32, 25)
	k[0], k[1], k[2] = 2, -2, -0.8 // row 0: max red, max blue, -0.4 max
	m := OperatorTile(k, 4)
	if m.Bounds() != image.Rect(0, 0, 26, 26) {
		t.Fatalf("bounds %v", m.Bounds())
	}
	cell := func(r, c int) color.NRGBA { return m.NRGBAAt(1+c*5+1, 1+r*5+1) }
	for _, tc := range []struct {
		r, c int
		want color.NRGBA
	}{
		{0, 0, color.NRGBA{0x67, 0x00, 0x1f, 255}},
		{0, 1, color.NRGBA{0x05, 0x30, 0x61, 255}},
		{0, 2, color.NRGBA{0x92, 0xc5, 0xde, 255}}, // -0.4: RdBu entry 7
		{2, 2, color.NRGBA{255, 255, 255, 255}},
	} {
		if got := cell(tc.r, tc.c); got != tc.want {
			t.Errorf("cell (%d,%d) = %v, want %v", tc.r, tc.c, got, tc.want)
		}
	}
	if c := m.NRGBAAt(0, 0); c != (color.NRGBA{160, 160, 160, 255}) {
		t.Errorf("frame %v", c)
	}
	if z := OperatorTile(nil, 1); z.NRGBAAt(1, 1) != white {
		t.Errorf("zero operator %v", z.NRGBAAt(1, 1))
	}
}

func TestCropPrimitives(t *testing.T) {
	p, _ := cofr.NewPrimitives(3, 4)
	for n := range 12 {
		p.Theta[n] = float32(n)
		p.K[n*25+7] = float32(n)
	}
	q, err := CropPrimitives(p, image.Rect(1, 1, 9, 2)) // columns 1..3 of row 1
	if err != nil {
		t.Fatal(err)
	}
	if q.H != 1 || q.W != 3 || q.Theta[0] != 5 || q.Theta[2] != 7 || q.K[2*25+7] != 7 {
		t.Fatalf("crop %dx%d %v", q.H, q.W, q.Theta)
	}
	_, err = CropPrimitives(p, image.Rect(5, 5, 6, 6))
	wantErr(t, err, "outside")
}

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestLinePlot(t *testing.T) {
	spec := PlotSpec{
		Title: "Training loss", XLabel: "step", YLabel: "L1", Width: 320, Height: 200, LogY: true,
		Series: []Series{
			{Name: "train", X: []float64{0, 1, 2, 3}, Y: []float64{1, 0.3, 0.1, 0.05}},
			{Name: "val", X: []float64{0, 3}, Y: []float64{0.8, 0.07}, Dashed: true},
		},
	}
	a, err := LinePlot(spec)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LinePlot(spec)
	if err != nil {
		t.Fatal(err)
	}
	if a.Bounds() != image.Rect(0, 0, 320, 200) {
		t.Fatalf("bounds %v", a.Bounds())
	}
	pa, pb := encode(t, a), encode(t, b)
	if !bytes.Equal(pa, pb) {
		t.Fatal("two renderings differ")
	}
	// Non-empty: some dark (text, axes) and some blue (series 0) pixels.
	dark, blue := 0, 0
	for y := range 200 {
		for x := range 320 {
			c := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			if c.R < 64 && c.G < 64 && c.B < 64 {
				dark++
			}
			if c.B > 150 && c.R < 60 && c.G > 80 && c.G < 140 {
				blue++
			}
		}
	}
	if dark < 200 || blue < 30 {
		t.Errorf("plot looks empty: %d dark, %d blue pixels", dark, blue)
	}

	one := []Series{{Name: "a", X: []float64{1}, Y: []float64{1}}}
	for _, tc := range []struct {
		name string
		spec PlotSpec
		sub  string
	}{
		{"no series", PlotSpec{}, "no series"},
		{"lengths", PlotSpec{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1}}}}, `series 0 ("s") has 2 X and 1 Y`},
		{"empty", PlotSpec{Series: []Series{{Name: "s"}}}, "no points"},
		{"nan", PlotSpec{Series: []Series{{Name: "s", X: []float64{1, 2}, Y: []float64{1, math.NaN()}}}}, "point 1 (2, NaN) is not finite"},
		{"log zero", PlotSpec{LogY: true, Series: []Series{{X: []float64{1, 2}, Y: []float64{1, 0}}}}, "log scale needs Y > 0"},
		{"size", PlotSpec{Width: 10, Series: one}, "size 10x400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := LinePlot(tc.spec)
			wantErr(t, err, tc.sub)
		})
	}
	// Degenerate ranges render.
	if _, err := LinePlot(PlotSpec{Width: 100, Height: 100, LogY: true, Series: one}); err != nil {
		t.Error(err)
	}
}

func TestLogTicks(t *testing.T) {
	for _, tc := range []struct {
		lo, hi float64
		labels string
	}{
		{0.002, 1, "0.01 0.1 1"},
		{0.03, 0.9, "0.05 0.1 0.2 0.5"},
		{2.1, 2.9, "2.2 2.4 2.6 2.8"}, // linear ticks, at most 5
	} {
		if got := labels(logTicks(tc.lo, tc.hi, 5)); got != tc.labels {
			t.Errorf("ticks %v..%v: %q, want %q", tc.lo, tc.hi, got, tc.labels)
		}
	}
}

func TestWritePNG(t *testing.T) {
	dir := t.TempDir()
	img := Grid([][]Panel{{{"a", OperatorTile([]float32{1, -1}, 3)}, {"b", ColourBar(1, 30, 4)}}}, 2)
	p := filepath.Join(dir, "f.png")
	if err := WritePNG(p, img); err != nil {
		t.Fatal(err)
	}
	first, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(bytes.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if back.Bounds() != img.Bounds() {
		t.Fatalf("bounds %v, want %v", back.Bounds(), img.Bounds())
	}
	for y := range img.Bounds().Dy() {
		for x := range img.Bounds().Dx() {
			if c := color.NRGBAModel.Convert(back.At(x, y)); c != img.NRGBAAt(x, y) {
				t.Fatalf("(%d,%d) = %v, want %v", x, y, c, img.NRGBAAt(x, y))
			}
		}
	}
	if err := WritePNG(p, img); err != nil {
		t.Fatal(err)
	}
	if second, _ := os.ReadFile(p); !bytes.Equal(first, second) {
		t.Error("rewriting gives different bytes")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d entries", len(entries))
	}
	wantErr(t, WritePNG(filepath.Join(dir, "no", "such", "dir.png"), img), "dir.png")
	wantErr(t, WritePNG(p, nil), "nil image")
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"PSNR 31.2 dB", "PSNR 31.2 dB"},
		{"×4 – µm", "x4 - um"},
		{"é\t", "? "},
	} {
		if got := ascii(tc.in); got != tc.out {
			t.Errorf("ascii(%q) = %q, want %q", tc.in, got, tc.out)
		}
		if TextWidth(tc.in) != 7*len(tc.out) {
			t.Errorf("TextWidth(%q) = %d", tc.in, TextWidth(tc.in))
		}
	}
	l := Label(solid(50, 20, white), "hi")
	if l.NRGBAAt(0, 0) != (color.NRGBA{0, 0, 0, 255}) || l.NRGBAAt(40, 18) != white {
		t.Errorf("label %v %v", l.NRGBAAt(0, 0), l.NRGBAAt(40, 18))
	}
}
