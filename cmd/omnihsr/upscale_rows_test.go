package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/memlimit"
	"github.com/omnihsr/omnihsr/internal/testrand"
	"github.com/omnihsr/omnihsr/resample"
)

// upscale -method bicubic reads an ENVI input a band of rows at a time:
// in every interleave and at integer, fractional and per-axis sizes the
// output is Upsample's, bit for bit, and it runs under a memory limit that
// the whole input does not fit.
func TestUpscaleBicubicStreamsENVI(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(21, 4), 64, 48, 40)
	for _, il := range []string{"bsq", "bil", "bip"} {
		in := filepath.Join(dir, "lr_"+il+".hdr")
		if err := formats.Write(in, lr, hsi.WriteOptions{Interleave: hsi.Interleave(il)}); err != nil {
			t.Fatal(err)
		}
		for _, sz := range []struct {
			flag, val string
			h, w      int
		}{{"-scale", "3", 192, 144}, {"-scale", "2.5", 160, 120}, {"-size", "101x77", 101, 77}} {
			want, err := resample.Upsample(lr, sz.h, sz.w)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "sr.hdr")
			// The input is 480 KiB as float32: a 256 KiB limit refuses to
			// read it whole.
			t.Setenv(memlimit.Env, "256K")
			code, stderr := runRsCmd(t, "upscale", "-method", "bicubic", "-in", in, "-out", out, sz.flag, sz.val)
			os.Unsetenv(memlimit.Env)
			if code != 0 {
				t.Fatalf("%s %s %s: exit %d: %s", il, sz.flag, sz.val, code, stderr)
			}
			rsSameData(t, il+" "+sz.flag+" "+sz.val, rsReadBack(t, out), want)
		}
	}
}

// An ENVI input with a NaN sample is read whole (the no-data fill needs
// the whole image) and gives what the same cube from another format gives;
// an infinite sample is an error naming it, leaving no output.
func TestUpscaleBicubicRowsFallBack(t *testing.T) {
	dir := t.TempDir()
	lr := testrand.Cube(testrand.New(5, 6), 20, 16, 7)
	lr.Data[(13*16+5)*7+2] = float32(math.NaN())
	in := filepath.Join(dir, "lr.hdr")
	if err := formats.Write(in, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	npy := filepath.Join(dir, "lr.npy")
	if err := formats.Write(npy, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	outs := map[string]*hsi.Cube{}
	for _, src := range []string{in, npy} {
		out := filepath.Join(dir, filepath.Ext(src)[1:]+"_sr.npy")
		if code, stderr := runRsCmd(t, "upscale", "-method", "bicubic", "-in", src, "-out", out, "-scale", "2"); code != 0 {
			t.Fatalf("%s: exit %d: %s", src, code, stderr)
		}
		c, _, err := formats.Read(out, hsi.ReadOptions{}) // the no-data pixels hold NaN
		if err != nil {
			t.Fatal(err)
		}
		outs[src] = c
	}
	a, b := outs[in], outs[npy]
	for i := range a.Data {
		if math.Float32bits(a.Data[i]) != math.Float32bits(b.Data[i]) {
			t.Fatalf("value %d: ENVI input %v, NPY input %v", i, a.Data[i], b.Data[i])
		}
	}

	lr.Data[(13*16+5)*7+2] = 1
	bad := filepath.Join(dir, "inf.hdr")
	// Writers refuse infinite values: write a finite cube, then patch the
	// sample of band 6, row 17, column 3 in the BSQ data file.
	if err := formats.Write(bad, lr, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	data := filepath.Join(dir, "inf.img")
	raw, err := os.ReadFile(data)
	if err != nil {
		t.Fatal(err)
	}
	off := ((6*20+17)*16 + 3) * 4
	copy(raw[off:], []byte{0, 0, 0x80, 0xff}) // -Inf, little-endian
	if err := os.WriteFile(data, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "inf_sr.hdr")
	code, stderr := runRsCmd(t, "upscale", "-method", "bicubic", "-in", bad, "-out", out, "-scale", "2")
	if code == 0 || !strings.Contains(stderr, "-Inf, at row 17, column 3, band 6") {
		t.Fatalf("infinite sample: exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("an output was left: %v", err)
	}
}
