package omnihsr

import (
	"bytes"
	"context"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// TestScanRows: the pass over the rows before the bicubic method streams
// an input lets it stream unless a band not flagged bad holds a no-data
// sample or a sample is infinite (every format, read through
// formats.Open), and finds the counts and band ranges the whole-image path
// takes from the cube (countNoData, bandRanges).
func TestScanRows(t *testing.T) {
	dir := t.TempDir()
	base := testCube(4, 7, 6, 4)
	for _, tc := range []struct {
		name    string
		ext     string
		edit    func(c *hsi.Cube)
		streams bool
	}{
		{"plain ENVI", ".hdr", func(c *hsi.Cube) {}, true},
		{"plain NPY", ".npy", func(c *hsi.Cube) {}, true},
		{"plain TIFF", ".tif", func(c *hsi.Cube) {}, true},
		{"NaN in a usable band", ".hdr", func(c *hsi.Cube) { c.Data[5*4+2] = float32(math.NaN()) }, false},
		{"NaN in a usable band, NPY", ".npy", func(c *hsi.Cube) { c.Data[len(c.Data)-1] = float32(math.NaN()) }, false},
		{"ignore value in a usable band", ".hdr", func(c *hsi.Cube) {
			c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
			c.Data[9*4+1] = -9999
		}, false},
		{"ignore value declared, absent", ".tif", func(c *hsi.Cube) { c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true }, true},
		{"infinite sample", ".hdr", func(c *hsi.Cube) { c.Data[3] = infMark }, false},
		{"bad band", ".hdr", func(c *hsi.Cube) { c.Meta.BadBands = []bool{false, true, false, false} }, true},
		{"bad band of NaN", ".hdr", func(c *hsi.Cube) {
			c.Meta.BadBands = []bool{false, true, false, false}
			for p := 0; p < c.H*c.W; p++ {
				c.Data[p*4+1] = float32(math.NaN())
			}
		}, true},
		{"every band bad", ".hdr", func(c *hsi.Cube) { c.Meta.BadBands = []bool{true, true, true, true} }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := base.Clone()
			tc.edit(c)
			in := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "_")+tc.ext)
			if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			markInf(t, in)
			src, err := formats.Open(in, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer src.Close()
			sc, err := scanRows(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			if sc.streams != tc.streams {
				t.Fatalf("streams = %v, want %v", sc.streams, tc.streams)
			}
			if !sc.streams {
				return
			}
			whole, _, err := formats.Read(in, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			nd, bad := countNoData(whole)
			lo, hi := bandRanges(whole)
			if sc.noData != nd || sc.bad != bad || !reflect.DeepEqual(sc.lo, lo) || !reflect.DeepEqual(sc.hi, hi) {
				t.Fatalf("scan %d no-data, %d bad, ranges %v %v; the cube's %d, %d, %v %v", sc.noData, sc.bad, sc.lo, sc.hi, nd, bad, lo, hi)
			}
		})
	}
}

// TestBicubicRowsEqualsWhole: every input the bicubic method streams
// (bands flagged bad, NaN in them, a declared ignore value, ClampInput,
// ENVI, NPY and TIFF) gives the values and the Result of the whole-image
// bicubic method (Upscale in memory), and an input it cannot stream (a
// no-data sample in a usable band) is read whole and gives them too.
func TestBicubicRowsEqualsWhole(t *testing.T) {
	dir := t.TempDir()
	base := testCube(5, 9, 8, 5)
	for _, tc := range []struct {
		name string
		ext  string
		edit func(c *hsi.Cube)
	}{
		{"plain", ".hdr", func(c *hsi.Cube) {}},
		{"NPY", ".npy", func(c *hsi.Cube) {}},
		{"TIFF", ".tif", func(c *hsi.Cube) {}},
		{"bad band", ".hdr", func(c *hsi.Cube) { c.Meta.BadBands = []bool{false, false, true, false, false} }},
		{"bad band of NaN", ".hdr", func(c *hsi.Cube) {
			c.Meta.BadBands = []bool{true, false, false, false, false}
			for p := 0; p < c.H*c.W; p += 3 {
				c.Data[p*5] = float32(math.NaN())
			}
		}},
		{"bad band at the ignore value", ".hdr", func(c *hsi.Cube) {
			c.Meta.DataIgnore, c.Meta.HasDataIgnore = -9999, true
			c.Meta.BadBands = []bool{false, false, false, false, true}
			for p := 0; p < c.H*c.W; p++ {
				c.Data[p*5+4] = -9999
			}
		}},
		{"NaN in a usable band (read whole)", ".hdr", func(c *hsi.Cube) { c.Data[17] = float32(math.NaN()) }},
	} {
		for _, clamp := range []Clamp{ClampNone, ClampInput} {
			t.Run(tc.name+"/"+clamp.String(), func(t *testing.T) {
				c := base.Clone()
				tc.edit(c)
				in := filepath.Join(dir, strings.NewReplacer(" ", "_", "(", "", ")", "").Replace(tc.name)+tc.ext)
				if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
					t.Fatal(err)
				}
				lr, _, err := formats.Read(in, hsi.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				opt := Options{Scale: 2.5, Method: MethodBicubic, Clamp: clamp}
				out := filepath.Join(dir, "out_"+filepath.Base(in)+"_"+clamp.String()+".hdr")
				fres, err := UpscaleFile(context.Background(), in, out, opt)
				if err != nil {
					t.Fatal(err)
				}
				sr, res, err := Upscale(context.Background(), lr, opt)
				if err != nil {
					t.Fatal(err)
				}
				got, _, err := formats.Read(out, hsi.ReadOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if got.H != sr.H || got.W != sr.W || got.B != sr.B {
					t.Fatalf("file %dx%dx%d, memory %dx%dx%d", got.H, got.W, got.B, sr.H, sr.W, sr.B)
				}
				for i := range sr.Data {
					if a, b := sr.Data[i], got.Data[i]; math.Float32bits(a) != math.Float32bits(b) && !(a != a && b != b) {
						t.Fatalf("sample %d: memory %v, file %v", i, a, b)
					}
				}
				if got.Meta.HasDataIgnore != sr.Meta.HasDataIgnore || (sr.Meta.HasDataIgnore && got.Meta.DataIgnore != sr.Meta.DataIgnore && !(math.IsNaN(got.Meta.DataIgnore) && math.IsNaN(sr.Meta.DataIgnore))) {
					t.Errorf("file declares no-data %v %v, memory %v %v", got.Meta.HasDataIgnore, got.Meta.DataIgnore, sr.Meta.HasDataIgnore, sr.Meta.DataIgnore)
				}
				if fres.NoData != res.NoData || fres.BadBands != res.BadBands || fres.InputClamped != res.InputClamped {
					t.Errorf("file's Result no-data %d, bad %d, clamped %d; memory's %d, %d, %d",
						fres.NoData, fres.BadBands, fres.InputClamped, res.NoData, res.BadBands, res.InputClamped)
				}
				if clamp == ClampInput && res.InputClamped == 0 {
					t.Errorf("ClampInput moved no sample: the case tests nothing")
				}
			})
		}
	}
}

// infMark is a value markInf turns into +Inf in an ENVI file's data, which
// no writer writes.
const infMark = 7777.5

// markInf replaces every float32 infMark of the ENVI image in (if it is
// one) by +Inf.
func markInf(t *testing.T, in string) {
	t.Helper()
	if filepath.Ext(in) != ".hdr" {
		return
	}
	img := strings.TrimSuffix(in, ".hdr") + ".img"
	b, err := os.ReadFile(img)
	if err != nil {
		t.Fatal(err)
	}
	var mark, inf [4]byte
	binary.LittleEndian.PutUint32(mark[:], math.Float32bits(infMark))
	binary.LittleEndian.PutUint32(inf[:], math.Float32bits(float32(math.Inf(1))))
	if err := os.WriteFile(img, bytes.ReplaceAll(b, mark[:], inf[:]), 0o644); err != nil {
		t.Fatal(err)
	}
}
