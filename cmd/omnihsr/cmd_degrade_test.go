package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// rsHole sets rows [y0,y1) x columns [x0,x1) of c to v in every band and
// declares v the no-data value.
func rsHole(c *hsi.Cube, y0, y1, x0, x1 int, v float32) {
	for y := y0; y < y1; y++ {
		for x := x0; x < x1; x++ {
			for k := 0; k < c.B; k++ {
				c.Data[(y*c.W+x)*c.B+k] = v
			}
		}
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = float64(v), true
}

// runRsCmd runs the omnihsr command line and returns the exit code and stderr.
func runRsCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, errb.String()
}

func rsReadBack(t *testing.T, path string) *hsi.Cube {
	t.Helper()
	c, _, err := formats.Read(path, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func rsSameData(t *testing.T, what string, got, want *hsi.Cube) {
	t.Helper()
	if got.H != want.H || got.W != want.W || got.B != want.B {
		t.Fatalf("%s: %dx%dx%d, want %dx%dx%d", what, got.H, got.W, got.B, want.H, want.W, want.B)
	}
	for i := range got.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("%s: value %d = %v, want %v", what, i, got.Data[i], want.Data[i])
		}
	}
}

func TestDegradeCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "hr.npy")
	hr := testrand.Cube(testrand.New(uint64(37), uint64(41)), 37, 41, 3)
	if err := formats.Write(in, hr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		opt  resample.DegradeOptions
	}{
		{[]string{"-scale", "2.5"}, resample.DegradeOptions{Scale: 2.5}},
		{[]string{"-scale", "4", "-area"}, resample.DegradeOptions{Scale: 4, Area: true}},
		{[]string{"-size", "10x13", "-blur", "0.4"}, resample.DegradeOptions{H: 10, W: 13, Blur: 0.4}},
		{[]string{"-scale", "3.7", "-blur", "0.25", "-band-blur", "0.5", "-noise", "0.02", "-seed", "9"},
			resample.DegradeOptions{Scale: 3.7, Blur: 0.25, BandKappa: 0.5, Noise: 0.02, Seed: 9}},
	}
	for i, tc := range tests {
		out := filepath.Join(dir, fmt.Sprintf("lr%d.npy", i))
		args := append([]string{"degrade", "-in", in, "-out", out}, tc.args...)
		if code, stderr := runRsCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		want, err := resample.Degrade(hr, tc.opt)
		if err != nil {
			t.Fatal(err)
		}
		rsSameData(t, strings.Join(tc.args, " "), rsReadBack(t, out), want)
	}
}

func TestUpscaleCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "lr.npy")
	lr := testrand.Cube(testrand.New(uint64(9), uint64(7)), 9, 7, 4)
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		h, w int
	}{
		{[]string{"-scale", "4", "-method", "bicubic"}, 36, 28},
		{[]string{"-scale", "2.5", "-method", "bicubic"}, 23, 18}, // 22.5 -> 23, 17.5 -> 18: half away from zero
		{[]string{"-size", "31x50", "-method", "bicubic"}, 31, 50},
	} {
		out := filepath.Join(dir, "sr.npy")
		args := append([]string{"upscale", "-in", in, "-out", out}, tc.args...)
		if code, stderr := runRsCmd(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", tc.args, code, stderr)
		}
		want, err := resample.Upsample(lr, tc.h, tc.w)
		if err != nil {
			t.Fatal(err)
		}
		rsSameData(t, strings.Join(tc.args, " "), rsReadBack(t, out), want)
	}
}

func TestResampleCommandsScaleGeoreferencing(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "hr.hdr")
	hr := testrand.Cube(testrand.New(uint64(40), uint64(60)), 40, 60, 2)
	hr.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 500000, 4000000, 30, 30, 13, North, WGS-84"}
	if err := formats.Write(in, hr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lrPath, srPath := filepath.Join(dir, "lr.hdr"), filepath.Join(dir, "sr.hdr")
	if code, stderr := runRsCmd(t, "degrade", "-in", in, "-out", lrPath, "-size", "10x20"); code != 0 {
		t.Fatalf("degrade: exit %d: %s", code, stderr)
	}
	lr := rsReadBack(t, lrPath)
	if lr.Meta.Geo == nil || !strings.Contains(lr.Meta.Geo.MapInfo, "90, 120") {
		t.Fatalf("degraded map info %+v, want pixel size 90 (x) by 120 (y)", lr.Meta.Geo)
	}
	if code, stderr := runRsCmd(t, "upscale", "-in", lrPath, "-out", srPath, "-size", "40x60"); code != 0 {
		t.Fatalf("upscale: exit %d: %s", code, stderr)
	}
	sr := rsReadBack(t, srPath)
	f := strings.Split(sr.Meta.Geo.MapInfo, ",")
	if len(f) < 7 || strings.TrimSpace(f[5]) != "30" || strings.TrimSpace(f[6]) != "30" || strings.TrimSpace(f[3]) != "500000" {
		t.Fatalf("map info after the round trip %q, want the original grid", sr.Meta.Geo.MapInfo)
	}
}

// rsWriteBadNpy writes a float32 .npy of shape (h, w, b) with one value
// bad (NaN or infinite) at (y, x, band), by hand (a writer may refuse it).
func rsWriteBadNpy(t *testing.T, path string, h, w, b, y, x, band int, bad float32) {
	t.Helper()
	hdr := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%d, %d, %d), }", h, w, b)
	for (10+len(hdr)+1)%64 != 0 {
		hdr += " "
	}
	hdr += "\n"
	var buf bytes.Buffer
	buf.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&buf, binary.LittleEndian, uint16(len(hdr)))
	buf.WriteString(hdr)
	for i := 0; i < h*w*b; i++ {
		v := float32(0.5)
		if i == (y*w+x)*b+band {
			v = bad
		}
		binary.Write(&buf, binary.LittleEndian, v)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResampleCommandsBadInput(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.npy")
	if err := formats.Write(good, testrand.Cube(testrand.New(uint64(12), uint64(10)), 12, 10, 2), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	nan := filepath.Join(dir, "nan.npy")
	rsWriteBadNpy(t, nan, 12, 10, 2, 7, 3, 1, float32(math.NaN()))
	inf := filepath.Join(dir, "inf.npy")
	rsWriteBadNpy(t, inf, 12, 10, 2, 7, 3, 1, float32(math.Inf(-1)))
	out := filepath.Join(dir, "out.npy")
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"degrade", "-out", out, "-scale", "2"}, 2, "-in and -out are required"},
		{[]string{"degrade", "-in", good, "-out", out}, 2, "give -scale or -size"},
		{[]string{"degrade", "-in", good, "-out", out, "-scale", "-2"}, 2, "-scale -2"},
		{[]string{"degrade", "-in", good, "-out", out, "-scale", "NaN"}, 2, "-scale NaN"},
		{[]string{"degrade", "-in", good, "-out", out, "-size", "0x5"}, 2, "-size \"0x5\""},
		{[]string{"degrade", "-in", good, "-out", out, "-size", "7"}, 2, "HEIGHTxWIDTH"},
		{[]string{"degrade", "-in", good, "-out", out, "-scale", "2", "-noise", "-1"}, 2, "-noise -1"},
		{[]string{"degrade", "-in", good, "-out", out, "-scale", "30"}, 1, "must be at least 1"},
		{[]string{"degrade", "-in", inf, "-out", out, "-scale", "2"}, 1, "row 7, column 3, band 1"},
		{[]string{"degrade", "-in", filepath.Join(dir, "missing.npy"), "-out", out, "-scale", "2"}, 1, "missing.npy"},
		{[]string{"upscale", "-in", good, "-out", out}, 2, "exactly one of -scale, -scales and -size"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "2", "-size", "3x3"}, 2, "exactly one of -scale, -scales and -size"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "0"}, 2, "-scale 0: want a finite number > 0"},
		{[]string{"degrade", "-in", good, "-out", out, "-scale", "0"}, 2, "-scale 0: want a finite number > 0"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "Inf"}, 2, "-scale +Inf"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "0.01"}, 1, "must be between 1 and 2^31"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "1e12"}, 1, "must be between 1 and 2^31"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "2", "-method", "nosuch"}, 2, "unknown"},
		{[]string{"upscale", "-in", inf, "-out", out, "-scale", "2"}, 1, "row 7, column 3, band 1"},
		{[]string{"upscale", "-in", inf, "-out", out, "-scale", "2", "-method", "bicubic"}, 1, "row 7, column 3, band 1"},
		{[]string{"upscale", "-in", good, "-out", filepath.Join(dir, "x.unknown"), "-scale", "2"}, 1, "x.unknown"},
		{[]string{"upscale", "-in", good, "-out", out, "-scale", "100000"}, 1, "disk space"},
		{[]string{"upscale", "-in", good, "-out", filepath.Join(dir, "big.tif"), "-scale", "100000"}, 1, "disk space"},
		{[]string{"upscale", "-in", good, "-out", filepath.Join(dir, "big.mat"), "-scale", "100000"}, 1, "memory"},
	}
	for _, tc := range tests {
		code, stderr := runRsCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d mentioning %q", tc.args, code, stderr, tc.code, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Fatalf("%v left %s behind", tc.args, out)
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 3 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("files left in the directory: %v", names)
	}
}

// degrade keeps no-data pixels out of its filters and writes them back.
func TestDegradeNoData(t *testing.T) {
	dir := t.TempDir()
	hr := testrand.Cube(testrand.New(uint64(24), uint64(20)), 24, 20, 3)
	rsHole(hr, 0, 8, 12, 20, -9999)
	in := filepath.Join(dir, "hr.hdr")
	if err := formats.Write(in, hr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "lr.hdr")
	if code, stderr := runRsCmd(t, "degrade", "-in", in, "-out", out, "-scale", "2", "-blur", "0.4"); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lr := rsReadBack(t, out)
	if !lr.Meta.HasDataIgnore || lr.Meta.DataIgnore != -9999 {
		t.Error("output header lost the data ignore value")
	}
	for i := 0; i < 12; i++ {
		for j := 0; j < 10; j++ {
			hole := i < 4 && j >= 6
			for k := 0; k < 3; k++ {
				v := lr.Data[(i*10+j)*3+k]
				if hole && v != -9999 {
					t.Fatalf("(%d,%d): %v, want -9999", i, j, v)
				}
				if !hole && (v < -100 || v > 100) {
					t.Fatalf("(%d,%d): %v: the no-data value bled into a valid pixel", i, j, v)
				}
			}
		}
	}
}

// TestDegradeCreationOptions: degrade takes upscale's and convert's TIFF
// flags: -co COMPRESS=DEFLATE -co PREDICTOR=2 writes the same samples as
// the uncompressed TIFF in fewer bytes, -of COG a COG; -co with an output
// that is no TIFF is a usage error, as on the other commands.
func TestDegradeCreationOptions(t *testing.T) {
	dir := t.TempDir()
	in := "../../sample/L7_ETMs.tif"
	plain, packed, cog := filepath.Join(dir, "p.tif"), filepath.Join(dir, "d.tif"), filepath.Join(dir, "c.tif")
	base := []string{"degrade", "-in", in, "-scale", "2", "-area", "-type", "same"}
	for _, c := range []struct {
		out   string
		extra []string
	}{{plain, nil}, {packed, []string{"-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"}}, {cog, []string{"-of", "COG"}}} {
		if code, stderr := runRsCmd(t, append(append(base, "-out", c.out), c.extra...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s", c.extra, code, stderr)
		}
	}
	rsSameData(t, "DEFLATE", rsReadBack(t, packed), rsReadBack(t, plain))
	rsSameData(t, "COG", rsReadBack(t, cog), rsReadBack(t, plain))
	ps, err1 := os.Stat(plain)
	ds, err2 := os.Stat(packed)
	if err1 != nil || err2 != nil || ds.Size() >= ps.Size() {
		t.Fatalf("DEFLATE output not smaller than the uncompressed one: %v %v %v %v", ds, ps, err1, err2)
	}
	code, stderr := runRsCmd(t, append(base, "-out", filepath.Join(dir, "x.npy"), "-co", "COMPRESS=LZW")...)
	if code != 2 || !strings.Contains(stderr, "-of and -co apply to TIFF output") {
		t.Fatalf("-co with an .npy output: exit %d: %s", code, stderr)
	}
}
