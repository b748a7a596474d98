package capi

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

func TestParseOptions(t *testing.T) {
	cases := []struct {
		json   string
		want   omnihsr.Options
		status int
	}{
		{``, omnihsr.Options{}, StatusOK},
		{`{"scale": 2.5}`, omnihsr.Options{Scale: 2.5}, StatusOK},
		{`{"size": [10, 12], "method": "bicubic"}`, omnihsr.Options{Size: [2]int{10, 12}, Method: "bicubic"}, StatusOK},
		{`{"scale": 2, "noise": "clean"}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseClean}}, StatusOK},
		{`{"scale": 2, "noise": "auto"}`, omnihsr.Options{Scale: 2}, StatusOK},
		{`{"scale": 2, "noise": 0.5}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{0.5}}}, StatusOK},
		{`{"scale": 2, "noise": "0.25"}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{0.25}}}, StatusOK},
		{`{"scale": 2, "noise": [1, 2]}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseGiven, Sigma: []float64{1, 2}}}, StatusOK},
		{`{"scale": 2, "keep_noisy_bands": true, "weights": "w.omw"}`, omnihsr.Options{Scale: 2, KeepNoisyBands: true, Weights: "w.omw"}, StatusOK},
		{`{"scale": 2, "clamp": "input"}`, omnihsr.Options{Scale: 2, Clamp: omnihsr.ClampInput}, StatusOK},
		{`{"scale": 2, "clamp": "type"}`, omnihsr.Options{Scale: 2, Clamp: omnihsr.ClampType}, StatusOK},
		{`{"scale": 2, "clamp": "physical"}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2, "noise_file": "auto"}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseCompanion}}, StatusOK},
		{`{"scale": 2, "adapt": "auto"}`, omnihsr.Options{Scale: 2, Adapt: omnihsr.AdaptAuto}, StatusOK},
		{`{"scale": 2, "adapt": 30}`, omnihsr.Options{Scale: 2, Adapt: 30}, StatusOK},
		{`{"scale": 2, "adapt": "0"}`, omnihsr.Options{Scale: 2}, StatusOK},
		{`{"scale": 2, "adapt": -3}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2, "adapt": "lots"}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2, "noise_file": "n.txt"}`, omnihsr.Options{Scale: 2, Noise: omnihsr.Noise{Mode: omnihsr.NoiseFile, File: "n.txt"}}, StatusOK},
		{`{"scale": 2, "noise": "clean", "noise_file": "n.txt"}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2, "noise": "loud"}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2, "noise": {}}`, omnihsr.Options{}, StatusOption},
		{`{"scael": 2}`, omnihsr.Options{}, StatusOption},
		{`{"scale": 2} {}`, omnihsr.Options{}, StatusOption},
		{`[1]`, omnihsr.Options{}, StatusOption},
	}
	for _, c := range cases {
		_, got, err := parseOptions(c.json)
		if st := StatusOf(err); st != c.status {
			t.Errorf("%s: status %d (%v), want %d", c.json, st, err, c.status)
			continue
		}
		if err == nil && !(got.Scale == c.want.Scale && got.Size == c.want.Size && got.Method == c.want.Method &&
			got.Noise.Mode == c.want.Noise.Mode && slices.Equal(got.Noise.Sigma, c.want.Noise.Sigma) && got.Noise.File == c.want.Noise.File &&
			got.KeepNoisyBands == c.want.KeepNoisyBands && got.Weights == c.want.Weights && got.Clamp == c.want.Clamp && got.Adapt == c.want.Adapt) {
			t.Errorf("%s: got %+v, want %+v", c.json, got, c.want)
		}
	}
}

func TestOutputSize(t *testing.T) {
	cases := []struct {
		h, w   int
		json   string
		oh, ow int
		status int
	}{
		{10, 7, `{"scale": 4}`, 40, 28, StatusOK},
		{10, 7, `{"scale": 2.5}`, 25, 18, StatusOK}, // 17.5 rounds away from zero
		{10, 7, `{"size": [3, 5]}`, 3, 5, StatusOK},
		{10, 7, `{}`, 0, 0, StatusOption},
		{10, 7, `{"scale": 2, "size": [3, 5]}`, 0, 0, StatusOption},
		{10, 7, `{"size": [0, 5]}`, 0, 0, StatusOption},
		{10, 7, `{"scale": -1}`, 0, 0, StatusOption},
		{10, 7, `{"scale": 0.01}`, 0, 0, StatusOption},
	}
	for _, c := range cases {
		oh, ow, err := OutputSize(c.h, c.w, c.json)
		if st := StatusOf(err); st != c.status || oh != c.oh || ow != c.ow {
			t.Errorf("%dx%d %s: %dx%d status %d (%v), want %dx%d status %d", c.h, c.w, c.json, oh, ow, st, err, c.oh, c.ow, c.status)
		}
	}
}

// TestUpscaleArray checks that the array path gives omnihsr.Upscale's
// values, without modifying its input, and that the no-data value and
// bad bands given as options reach the library.
func TestUpscaleArray(t *testing.T) {
	c := testrand.Uniform(testrand.New(31, 1), 12, 10, 5, 0, 1)
	c.Data[7] = -9999
	orig := slices.Clone(c.Data)
	var calls int
	got, res, err := UpscaleArray(context.Background(), c.Data, 12, 10, 5, `{"scale": 2, "nodata": -9999, "bad_bands": [false, true, false, false, false]}`,
		func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Data, orig) {
		t.Fatal("the input was modified")
	}
	lr := &hsi.Cube{H: 12, W: 10, B: 5, Data: orig, Meta: hsi.Meta{DataIgnore: -9999, HasDataIgnore: true, BadBands: []bool{false, true, false, false, false}}}
	want, wres, err := omnihsr.Upscale(context.Background(), lr, omnihsr.Options{Scale: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want.Data) {
		t.Error("values differ from omnihsr.Upscale")
	}
	if res.NoData != 1 || res.BadBands != 1 || res.NoData != wres.NoData || res.Height != 24 || res.Width != 20 {
		t.Errorf("result %+v, want 1 no-data sample, 1 bad band, 24 x 20", res)
	}
	if calls == 0 {
		t.Error("progress never called")
	}
	for _, bad := range []string{`{"scale": 2, "type": "uint8"}`, `{"scales": [2, 3]}`, `{"scale": 2, "wavelengths": [1, 2]}`, `{"scale": 2, "bad_bands": [true]}`} {
		if _, _, err := UpscaleArray(context.Background(), c.Data, 12, 10, 5, bad, nil); StatusOf(err) != StatusOption {
			t.Errorf("%s: %v, want an option error", bad, err)
		}
	}
	if _, _, err := UpscaleArray(context.Background(), c.Data, 12, 10, 4, `{"scale": 2}`, nil); StatusOf(err) != StatusOption {
		t.Errorf("wrong shape: %v, want an option error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := UpscaleArray(ctx, c.Data, 12, 10, 5, `{"scale": 2}`, nil); StatusOf(err) != StatusCanceled {
		t.Errorf("cancelled: %v, want status %d", err, StatusCanceled)
	}
}

// TestReadAndFile reads an ENVI file with wavelengths and a map info back
// as JSON metadata and upscales it file to file.
func TestReadAndFile(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(31, 2), 9, 8, 4, 0, 1)
	c.Meta.Wavelengths, c.Meta.WavelengthUnits = []float64{450, 550, 650, 850}, "Nanometers"
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = math.NaN(), true
	c.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 500000, 4200000, 30, 30, 33, North, WGS-84"}
	in := filepath.Join(dir, "in.hdr")
	if err := envi.Write(in, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	got, info, err := ReadFile(in, `{}`)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Marshal(MetaOf(got, info))
	if err != nil {
		t.Fatal(err)
	}
	var m struct {
		Shape       []int
		Wavelengths []float64
		NoData      any `json:"nodata"`
		CRSEPSG     int `json:"crs_epsg"`
		CRSWKT      string
		Transform   []float64
	}
	if !strings.Contains(s, `"nodata":NaN`) {
		t.Errorf("no-data not NaN in %s", s)
	}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(s, "NaN", "null")), &m); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Shape, []int{9, 8, 4}) || !slices.Equal(m.Wavelengths, c.Meta.Wavelengths) || m.CRSEPSG != 32633 ||
		!slices.Equal(m.Transform, []float64{500000, 30, 0, 4200000, 0, -30}) {
		t.Errorf("metadata %+v from %s", m, s)
	}
	if _, _, err := ReadFile(in, `{"bogus": 1}`); StatusOf(err) != StatusOption {
		t.Errorf("unknown reader option: %v", err)
	}
	if _, _, err := ReadFile(filepath.Join(dir, "none.hdr"), ``); StatusOf(err) != StatusNotFound {
		t.Errorf("missing file: %v (status %d), want status %d", err, StatusOf(err), StatusNotFound)
	}

	out := filepath.Join(dir, "out.hdr")
	res, err := UpscaleFile(context.Background(), in, out, `{"scale": 2, "method": "bicubic", "type": "uint8"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	j := ResultOf(res, true)
	if j.Height != 18 || j.Width != 16 || j.File == nil || len(j.Warnings) == 0 {
		t.Errorf("result %+v: want 18 x 16 and the warning that NaN no-data does not fit uint8", j)
	}
	if _, err := os.Stat(out); err != nil {
		t.Error(err)
	}
	res, err = UpscaleFile(context.Background(), in, filepath.Join(dir, "sr_x{scale}.npy"), `{"scales": [2, 3], "method": "bicubic"}`, nil)
	if err != nil {
		t.Fatal(err)
	}
	j = ResultOf(res, true)
	if len(j.Files) != 2 || j.File == nil || j.File.Path != j.Files[0].Path || j.Files[1].Height != 27 || j.Files[1].Width != 24 {
		t.Errorf("scales: files %+v", j.Files)
	}
	for _, name := range []string{"sr_x2.npy", "sr_x3.npy"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	if _, err := UpscaleFile(context.Background(), in, filepath.Join(dir, "o.tif"), `{"scale": 2, "driver": "PNG"}`, nil); StatusOf(err) != StatusOption {
		t.Errorf("driver PNG: %v, want an option error", err)
	}
	if _, err := UpscaleFile(context.Background(), in, filepath.Join(dir, "o2.hdr"), `{"scale": 2, "nodata": 0}`, nil); StatusOf(err) != StatusOption {
		t.Errorf("nodata for a file: %v, want an option error", err)
	}
}

func TestNumJSON(t *testing.T) {
	b, err := Marshal([]num{1.5, num(math.NaN()), num(math.Inf(1)), num(math.Inf(-1)), 1e-300})
	if err != nil || b != "[1.5,NaN,Infinity,-Infinity,1e-300]" {
		t.Errorf("%s %v", b, err)
	}
	var v []num
	if err := json.Unmarshal([]byte(`[2, "nan", "-inf", " 3 "]`), &v); err != nil || v[0] != 2 || !math.IsNaN(float64(v[1])) || !math.IsInf(float64(v[2]), -1) || v[3] != 3 {
		t.Errorf("%v %v", v, err)
	}
	if err := json.Unmarshal([]byte(`["x"]`), &v); err == nil {
		t.Error(`"x" accepted as a number`)
	}
}

func TestCubeHandles(t *testing.T) {
	c := hsi.MustNew(1, 1, 1)
	h := KeepCube(c)
	if got, err := CubeOf(h); err != nil || got != c {
		t.Fatalf("%v %v", got, err)
	}
	DropCube(h)
	DropCube(h)
	if _, err := CubeOf(h); !errors.Is(err, ErrOption) {
		t.Errorf("freed handle: %v", err)
	}
	if _, err := CubeOf(uint64(0)); err == nil {
		t.Error("handle 0 accepted")
	}
}

func TestCancelContext(t *testing.T) {
	ctx, stop := CancelContext(nil)
	if ctx.Err() != nil {
		t.Fatal("nil flag: cancelled")
	}
	stop()
	stop()

	set := int32(1)
	ctx, stop = CancelContext(&set)
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Error("a flag set before the call: not cancelled at once")
	}
	stop()

	var flag int32
	ctx, stop = CancelContext(&flag)
	defer stop()
	time.Sleep(30 * time.Millisecond)
	if ctx.Err() != nil {
		t.Fatal("cancelled with the flag clear")
	}
	atomic.StoreInt32(&flag, 1)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("not cancelled 5 s after the flag was set")
	}
}

// TestProgressWork checks the "progress" option: "work" counts the whole
// call in WorkUnits, rising to WorkUnits, the model's encoding before the
// first row; "rows" (the default) counts the output rows; anything else is
// an option error.
func TestProgressWork(t *testing.T) {
	c := testrand.Uniform(testrand.New(4, 2), 16, 12, 5, 0.2, 0.8)
	dir := t.TempDir()
	in := filepath.Join(dir, "in.hdr")
	if err := envi.Write(in, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, opts string
		total      int
	}{
		{"array rows", `{"scale": 2}`, 32},
		{"array work", `{"scale": 2, "progress": "work"}`, WorkUnits},
		{"file work", `{"scale": 2, "progress": "work"}`, WorkUnits},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var calls [][2]int
			progress := func(done, total int) { calls = append(calls, [2]int{done, total}) }
			var err error
			if strings.HasPrefix(tc.name, "file") {
				_, err = UpscaleFile(context.Background(), in, filepath.Join(dir, "out.hdr"), tc.opts, progress)
			} else {
				_, _, err = UpscaleArray(context.Background(), c.Data, 16, 12, 5, tc.opts, progress)
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) == 0 || calls[len(calls)-1] != [2]int{tc.total, tc.total} {
				t.Fatalf("calls %v: want the last at %d of %d", calls, tc.total, tc.total)
			}
			for i, cl := range calls {
				if cl[1] != tc.total || cl[0] <= 0 || (i > 0 && cl[0] <= calls[i-1][0]) {
					t.Fatalf("call %d %v after %v: want a steady rise to %d", i, cl, calls[:i], tc.total)
				}
			}
		})
	}
	if _, _, err := UpscaleArray(context.Background(), c.Data, 16, 12, 5, `{"scale": 2, "progress": "percent"}`, nil); StatusOf(err) != StatusOption || !strings.Contains(err.Error(), `progress "percent"`) {
		t.Errorf("progress percent: %v, want an option error naming it", err)
	}
}
