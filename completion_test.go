package omnihsr

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// TestCompletion checks Options.Completion for every path of the front
// door: the fraction rises steadily, ends at 1, moves while the model
// encodes (before the first output row) and leaves the outputs as they are
// without it, byte for byte.
func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	lr := testCube(3, 24, 20, 5)
	npy, hdr, nan := filepath.Join(dir, "in.npy"), filepath.Join(dir, "in.hdr"), filepath.Join(dir, "nan.hdr")
	for _, p := range []string{npy, hdr} {
		if err := formats.Write(p, lr, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	withNaN := lr.Clone()
	withNaN.Data[len(withNaN.Data)-3] = float32(math.NaN()) // the row scan finds it: the input is read whole
	if err := formats.Write(nan, withNaN, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		in     string // "" for Upscale in memory
		out    string
		opt    Options
		encode bool // the model encodes: the fraction moves before the first row
	}{
		{"model", npy, "m.npy", Options{Scale: 2}, true},
		{"scales", npy, "s_x{scale}.npy", Options{Scales: []float64{2, 3}}, true},
		{"self-ensemble", npy, "e.npy", Options{Scale: 2, Method: MethodOmniHSRSE}, true},
		{"bicubic rows", hdr, "b.hdr", Options{Scale: 3, Method: MethodBicubic}, false},
		{"bicubic with no-data, read whole", nan, "f.hdr", Options{Scale: 3, Method: MethodBicubic}, false},
		{"in memory", "", "", Options{Scale: 2}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fs []float64
			rowsAt := -1 // the number of fractions reported before the first row
			opt := tc.opt
			opt.Overwrite = tc.in != ""
			opt.Progress = func(done, total int) {
				if rowsAt < 0 {
					rowsAt = len(fs)
				}
			}
			opt.Completion = func(f float64) { fs = append(fs, f) }
			var got, want []byte
			if tc.in == "" {
				a, _, err := Upscale(context.Background(), lr, opt)
				if err != nil {
					t.Fatal(err)
				}
				b, _, err := Upscale(context.Background(), lr, tc.opt)
				if err != nil {
					t.Fatal(err)
				}
				got, want = floatBytes(a.Data), floatBytes(b.Data)
			} else {
				res, err := UpscaleFile(context.Background(), tc.in, filepath.Join(dir, "with_"+tc.out), opt)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := UpscaleFile(context.Background(), tc.in, filepath.Join(dir, "without_"+tc.out), tc.opt); err != nil {
					t.Fatal(err)
				}
				for _, f := range res.Files {
					for _, p := range formats.WriteFiles(f.Path) { // an ENVI output's header and data
						a, err := os.ReadFile(p)
						if err != nil {
							t.Fatal(err)
						}
						b, err := os.ReadFile(filepath.Join(dir, "without_"+filepath.Base(p)[len("with_"):]))
						if err != nil {
							t.Fatal(err)
						}
						got, want = append(got, a...), append(want, b...)
					}
				}
				if len(res.Files) != max(1, len(tc.opt.Scales)) {
					t.Fatalf("%d outputs", len(res.Files))
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatal("the output with Completion differs from the one without")
			}
			if len(fs) == 0 || fs[len(fs)-1] != 1 {
				t.Fatalf("fractions %v: want a last call of 1", fs)
			}
			for i, f := range fs {
				if !(f > 0 && f <= 1) || (i > 0 && f <= fs[i-1]) {
					t.Fatalf("fraction %d is %v after %v: want a steady rise in (0, 1]", i, f, fs[:i])
				}
			}
			if tc.encode && !(rowsAt > 0 && fs[rowsAt-1] > 0.01) {
				t.Fatalf("%d fractions before the first row (the last %v): want the encoding to move it", rowsAt, fs[:max(rowsAt, 0)])
			}
			if !tc.encode && rowsAt != 0 && tc.name != "bicubic with no-data, read whole" {
				t.Fatalf("%d fractions before the first row of bicubic: want none", rowsAt)
			}
		})
	}
}

// floatBytes returns the little-endian bytes of v.
func floatBytes(v []float32) []byte {
	b := make([]byte, 0, 4*len(v))
	for _, x := range v {
		u := math.Float32bits(x)
		b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
	}
	return b
}
