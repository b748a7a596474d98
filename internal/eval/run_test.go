package eval

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// smoothCube is a deterministic scene of smooth, band-dependent patterns
// with values in raw-sensor-like units (normalisation must map it to [0, 1]).
func smoothCube(h, w, b int, phase float64) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := 0; k < b; k++ {
				v := 2 + math.Sin(0.21*float64(x)+phase+0.3*float64(k)) + math.Cos(0.17*float64(y)*(1+0.05*float64(k))) +
					0.5*math.Sin(0.05*float64(x*y)/8+phase)
				c.Set(y, x, k, float32(1000*v))
			}
		}
	}
	return c
}

func testScenes() []*Scene {
	return []*Scene{
		CubeScene("remote", "AVIRIS", smoothCube(96, 130, 7, 0)),
		CubeScene("closeup", "CAVE", smoothCube(80, 90, 5, 1)),
	}
}

func cubeKey(c *hsi.Cube) uint64 {
	h := fnv.New64a()
	var buf [4]byte
	binary.Write(h, binary.LittleEndian, [3]int64{int64(c.H), int64(c.W), int64(c.B)})
	for _, v := range c.Data {
		binary.LittleEndian.PutUint32(buf[:], math.Float32bits(v))
		h.Write(buf[:])
	}
	return h.Sum64()
}

// oracle returns, for the LR input of any image of the scenes under the
// clean protocol, its HR reference times gain. It builds its table
// independently of Run: normalise, cut, Downsample.
type oracle struct {
	label string
	gain  float32
	mu    sync.Mutex
	table map[uint64]*hsi.Cube
	calls int
}

func newOracle(t *testing.T, label string, gain float32, scenes []*Scene, protocol string, factors []float64) *oracle {
	o := &oracle{label: label, gain: gain, table: map[uint64]*hsi.Cube{}}
	for _, sc := range scenes {
		c, _ := sc.Load()
		c.NormalizeMax()
		regs, err := Regions(protocol, c.H, c.W, sc.Sensor, "", 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range regs {
			hr, _ := c.Crop(r.Y0, r.X0, r.H, r.W)
			for _, s := range factors {
				lr, err := resample.Downsample(hr, int(math.Round(float64(r.H)/s)), int(math.Round(float64(r.W)/s)))
				if err != nil {
					t.Fatal(err)
				}
				o.table[cubeKey(lr)] = hr
			}
		}
	}
	return o
}

func (o *oracle) Name() string { return o.label }

func (o *oracle) Upscale(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	o.mu.Lock()
	hr, ok := o.table[cubeKey(lr)]
	o.calls++
	o.mu.Unlock()
	if !ok || hr.H != h || hr.W != w {
		return nil, os.ErrNotExist
	}
	out := hr.Clone()
	for i := range out.Data {
		out.Data[i] *= o.gain
	}
	return out, nil
}

func TestRunOracleMetrics(t *testing.T) {
	scenes := testScenes()
	factors := []float64{2, 4}
	truth := newOracle(t, "Truth", 1, scenes, ProtocolSeven, factors)
	half := newOracle(t, "Half", 0.5, scenes, ProtocolSeven, factors)
	res, err := Run(context.Background(), scenes, Config{Protocol: ProtocolSeven, Factors: factors, Methods: []Method{truth, half}})
	if err != nil {
		t.Fatal(err)
	}
	// Geometry: the remote scene gives 2 tiles of 64x64, the CAVE one the
	// largest centred square, 80x80 at (0, 5).
	if len(res.Scenes) != 2 || len(res.Scenes[0].Regions) != 2 || res.Scenes[0].Geometry != "tile" ||
		res.Scenes[1].Geometry != "crop" || res.Scenes[1].Regions[0] != (Region{Y0: 0, X0: 5, H: 80, W: 80, Kind: "crop"}) {
		t.Fatalf("scenes %+v", res.Scenes)
	}
	if got, want := len(res.Records), (2+1)*len(factors)*3; got != want {
		t.Fatalf("%d records, want %d", got, want)
	}
	if res.Config.Methods[0] != BicubicName {
		t.Errorf("bicubic not added first: %v", res.Config.Methods)
	}
	if truth.calls != 3*len(factors) {
		t.Errorf("oracle called %d times", truth.calls)
	}
	samFloor := math.Acos(1-1e-6) * 180 / math.Pi // the clipped cosine's angle
	for _, r := range res.Records {
		switch r.Method {
		case "Truth":
			if !math.IsInf(float64(r.PSNR), 1) || math.Abs(float64(r.SSIM)-1) > 1e-6 || float64(r.ERGAS) != 0 ||
				math.Abs(float64(r.SAM)-samFloor) > 1e-3 {
				t.Errorf("truth record %+v", r)
			}
		case "Half":
			c, _ := scenes[map[string]int{"remote": 0, "closeup": 1}[r.Scene]].Load()
			c.NormalizeMax()
			ref, _ := c.Crop(r.Y0, r.X0, r.H, r.W)
			var ss float64
			for _, v := range ref.Data {
				ss += 0.25 * float64(v) * float64(v)
			}
			psnr := 10 * math.Log10(float64(len(ref.Data))/ss)
			if math.Abs(float64(r.PSNR)-psnr) > 1e-6 {
				t.Errorf("half PSNR %v, want %v", r.PSNR, psnr)
			}
			// ERGAS = 100/s sqrt(mean_b (RMSE_b/mu_b)^2), RMSE_b = 0.5 rms(ref_b).
			eff := float64(r.H) / float64(r.LRH)
			var acc float64
			np := float64(ref.H * ref.W)
			for b := 0; b < ref.B; b++ {
				var m, sq float64
				for p := 0; p < ref.H*ref.W; p++ {
					v := float64(ref.Data[p*ref.B+b])
					m += v
					sq += v * v
				}
				acc += 0.25 * (sq / np) / ((m / np) * (m / np))
			}
			ergas := 100 / eff * math.Sqrt(acc/float64(ref.B))
			if math.Abs(float64(r.ERGAS)-ergas) > 1e-4*ergas {
				t.Errorf("half ERGAS %v, want %v", r.ERGAS, ergas)
			}
			if math.Abs(float64(r.SAM)-samFloor) > 1e-3 {
				t.Errorf("half SAM %v, want %v (parallel spectra)", r.SAM, samFloor)
			}
		}
		if r.LRH != int(math.Round(float64(r.H)/r.Factor)) || r.Effective != float64(r.H)/float64(r.LRH) {
			t.Errorf("record %+v: LR size or effective factor", r)
		}
	}
	// Summaries are the means of the records, and carry gain intervals.
	for _, s := range res.Summaries {
		var sum float64
		n := 0
		for _, r := range res.Records {
			if r.Scene == s.Scene && r.Factor == s.Factor && r.Method == s.Method {
				sum += float64(r.SSIM)
				n++
			}
		}
		if n != s.Images || math.Abs(sum/float64(n)-float64(s.SSIM)) > 1e-12 {
			t.Errorf("summary %+v: %d images, mean SSIM %v", s, n, sum/float64(n))
		}
		if (s.Method == BicubicName) != (s.Gain == nil) {
			t.Errorf("summary %+v: gain interval presence", s)
		}
		if s.Method == "Half" && s.Gain.N != n {
			t.Errorf("gain interval over %d pairs, want %d", s.Gain.N, n)
		}
		if len(s.BandRMSE) != map[string]int{"remote": 7, "closeup": 5}[s.Scene] {
			t.Errorf("summary %s has %d band RMSEs", s.Scene, len(s.BandRMSE))
		}
	}
}

func TestRunBicubicSanity(t *testing.T) {
	scenes := []*Scene{CubeScene("remote", "AVIRIS", smoothCube(64, 64, 4, 0.3))}
	res, err := Run(context.Background(), scenes, Config{Protocol: ProtocolTwelve, Factors: []float64{2, 4, 8, 16}})
	if err != nil {
		t.Fatal(err)
	}
	prev := math.Inf(1)
	prevSAM := 0.0
	for _, s := range res.Summaries {
		if !(float64(s.PSNR) < prev) || !(float64(s.SAM) > prevSAM) {
			t.Errorf("x%g: PSNR %v after %v, SAM %v after %v: want PSNR falling and SAM rising with the factor", s.Factor, s.PSNR, prev, s.SAM, prevSAM)
		}
		prev, prevSAM = float64(s.PSNR), float64(s.SAM)
	}
}

var timingSection = regexp.MustCompile(`(?s)## Time per image.*$`)

func TestRunDeterministic(t *testing.T) {
	dir := t.TempDir()
	var mds, jsons [][]byte
	for i := 0; i < 2; i++ {
		cfg := Config{Protocol: ProtocolSeven, Factors: []float64{2, 3}, Workers: 1 + i,
			Methods: []Method{MethodFunc{Label: "Nearest", Fn: nearest}}, Command: "omnihsr eval -test"}
		res, err := Run(context.Background(), testScenes(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		jp := filepath.Join(dir, "r.json")
		if err := WriteJSON(jp, res); err != nil {
			t.Fatal(err)
		}
		back, err := ReadJSON(jp)
		if err != nil {
			t.Fatal(err)
		}
		// Zero the timing figures, then the JSON must be byte-identical.
		for k := range back.Records {
			back.Records[k].MS = 0
		}
		for k := range back.Summaries {
			back.Summaries[k].MS = 0
		}
		back.WallSeconds = 0
		back.Config.Workers = 0
		j, _ := json.Marshal(back)
		jsons = append(jsons, j)
		md := Markdown(res)
		if !bytes.Contains(md, []byte("## Time per image")) || !bytes.Contains(md, []byte("| x2 | Nearest |")) {
			t.Fatalf("markdown lacks tables:\n%s", md)
		}
		mds = append(mds, timingSection.ReplaceAll(md, nil))
	}
	if !bytes.Equal(mds[0], mds[1]) {
		t.Errorf("markdown differs between runs:\n%s\n---\n%s", mds[0], mds[1])
	}
	if !bytes.Equal(jsons[0], jsons[1]) {
		t.Errorf("JSON differs between runs")
	}
}

// nearest is nearest-neighbour upsampling, a method worse than bicubic on
// smooth images.
func nearest(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	out := hsi.MustNew(h, w, lr.B)
	for y := 0; y < h; y++ {
		sy := min((2*y+1)*lr.H/(2*h), lr.H-1)
		for x := 0; x < w; x++ {
			sx := min((2*x+1)*lr.W/(2*w), lr.W-1)
			copy(out.Spectrum(y, x), lr.Spectrum(sy, sx))
		}
	}
	return out, nil
}

func TestRunNearestLosesToBicubic(t *testing.T) {
	res, err := Run(context.Background(), testScenes(), Config{Protocol: ProtocolSeven, Methods: []Method{MethodFunc{Label: "Nearest", Fn: nearest}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Summaries {
		if s.Method == "Nearest" && !(float64(s.Gain.Hi) < 0) {
			t.Errorf("%s x%g: nearest gain %+v, want an interval below zero", s.Scene, s.Factor, *s.Gain)
		}
	}
	md := string(Markdown(res))
	for _, want := range []string{"| Factor | Method | remote (7) | closeup (5) |", "PSNR gain over bicubic", "| x8 | Nearest |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

func TestRunErrors(t *testing.T) {
	bad := MethodFunc{Label: "Bad", Fn: func(lr *hsi.Cube, h, w int) (*hsi.Cube, error) { return hsi.New(h, w+1, lr.B) }}
	if _, err := Run(context.Background(), testScenes(), Config{Protocol: ProtocolSeven, Methods: []Method{bad}}); err == nil || !strings.Contains(err.Error(), "wrong shape") {
		t.Errorf("wrong-shape method: %v", err)
	}
	for _, cfg := range []Config{
		{Protocol: "nine"},
		{Protocol: ProtocolSeven, Factors: []float64{0}},
		{Protocol: ProtocolSeven, Factors: []float64{math.NaN()}},
		{Protocol: ProtocolSeven, Factors: []float64{2, 2}},
		{Protocol: ProtocolSeven, Degradation: Degradation{Noise: -1}},
		{Protocol: ProtocolSeven, Methods: []Method{Bicubic{}, Bicubic{}}},
	} {
		if _, err := Run(context.Background(), testScenes(), cfg); err == nil {
			t.Errorf("config %+v accepted", cfg)
		}
	}
	nan := smoothCube(64, 64, 3, 0)
	nan.Data[5] = float32(math.NaN())
	if _, err := Run(context.Background(), []*Scene{CubeScene("nan", "", nan)}, Config{Protocol: ProtocolSeven}); err == nil || !strings.Contains(err.Error(), "nan") {
		t.Errorf("NaN scene: %v", err)
	}
	if _, err := Run(context.Background(), []*Scene{CubeScene("small", "", smoothCube(40, 40, 3, 0))}, Config{Protocol: ProtocolSeven}); err == nil {
		t.Error("a scene smaller than a tile was accepted")
	}
}

func TestRunDegradations(t *testing.T) {
	sc := []*Scene{CubeScene("remote", "AVIRIS", smoothCube(64, 64, 6, 0))}
	psnr := func(d Degradation) float64 {
		res, err := Run(context.Background(), sc, Config{Protocol: ProtocolSeven, Factors: []float64{4}, Degradation: d})
		if err != nil {
			t.Fatal(err)
		}
		return float64(res.Summaries[0].PSNR)
	}
	clean := psnr(Degradation{})
	for _, d := range []Degradation{{Noise: 0.02, Seed: 1}, {Blur: 0.55}, {Area: true}, {Kappa: 0.5}} {
		v := psnr(d)
		if v == clean || math.IsNaN(v) {
			t.Errorf("%s: PSNR %v equals the clean %v", d, v, clean)
		}
		if d.Noise > 0 && psnr(d) != v {
			t.Errorf("seeded noise is not reproducible")
		}
	}
	if s := (Degradation{Blur: 0.4, Noise: 0.01}).String(); !strings.Contains(s, "blur") || !strings.Contains(s, "noise") {
		t.Errorf("String() = %q", s)
	}
}

func TestNumJSON(t *testing.T) {
	b, _ := json.Marshal([]Num{1.5, Num(math.Inf(1)), Num(math.NaN()), 0.1})
	if string(b) != "[1.5,null,null,0.1]" {
		t.Errorf("%s", b)
	}
	var back []Num
	if err := json.Unmarshal(b, &back); err != nil || back[0] != 1.5 || !math.IsNaN(float64(back[1])) {
		t.Errorf("%v %v", back, err)
	}
}

// A cancelled context stops Run before its next scene or method, with an
// error matching context.Canceled.
func TestRunCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	stop := func(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
		calls++
		cancel()
		return nearest(lr, h, w)
	}
	methods := []Method{MethodFunc{Label: "A", Fn: stop}, MethodFunc{Label: "B", Fn: stop}}
	_, err := Run(ctx, testScenes(), Config{Protocol: ProtocolSeven, Factors: []float64{4}, Workers: 1, Methods: methods})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want context.Canceled", err)
	}
	if calls != 1 {
		t.Errorf("%d method calls after the cancel, want none", calls-1)
	}
}
