package main

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// upscaleMemBound is the peak-memory bound of `omnihsr upscale` with the
// OmniHSR method, documented in docs/ARCHITECTURE.md: twice the input's
// float32 size (the cube and COFR's r_n) plus 1 KiB per low-res pixel
// (network input, feature maps, raw head output, primitives, garbage
// between collections) plus 512 MiB (two bands of output rows, buffers,
// the runtime).
func upscaleMemBound(h, w, b int) int64 {
	px := int64(h) * int64(w)
	return 2*px*int64(b)*4 + px*1024 + 512<<20 + int64(b)<<20
}

// TestUpscaleLargeRSS super-resolves a 2048 x 2048 x 128 float32 ENVI file
// by 4 (an 8192 x 8192 x 128 output, 32 GiB, streamed to disk) with the
// real binary and checks its peak resident memory against the bound. A
// measurement, not a timed test: it runs only with OMNIHSR_BIG=1 and needs
// about 40 GB of free disk in OMNIHSR_BIG_DIR (default a temporary dir).
// OMNIHSR_BIG_SIDE changes the input side, OMNIHSR_BIG_SCALE the factor
// (any S > 0: the output side is round(S*side)).
func TestUpscaleLargeRSS(t *testing.T) {
	if os.Getenv("OMNIHSR_BIG") != "1" {
		t.Skip("set OMNIHSR_BIG=1 to upscale a 2048x2048x128 cube x4 and measure peak memory")
	}
	side, scale := 2048, 4.0
	if s := os.Getenv("OMNIHSR_BIG_SIDE"); s != "" {
		fmt.Sscan(s, &side)
	}
	if s := os.Getenv("OMNIHSR_BIG_SCALE"); s != "" {
		fmt.Sscan(s, &scale)
	}
	oside := int(math.Round(float64(side) * scale))
	const B = 128
	dir, bin := bigRunDir(t)
	writeBigENVI(t, dir, side, B, func(x, y, b int) float32 {
		return float32(0.5 + 0.3*math.Sin(float64(x)*0.05+float64(b)*0.03)*math.Cos(float64(y)*0.07) + 0.1*math.Sin(float64(x*y)*0.001))
	})
	out := filepath.Join(dir, "out.hdr")
	cmd := exec.Command(bin, "upscale", "-in", filepath.Join(dir, "big.hdr"), "-out", out, "-scale", fmt.Sprint(scale))
	cmd.Stderr = os.Stderr
	start := time.Now()
	peak, user, sys, ok, err := runMeasured(cmd)
	if err != nil {
		t.Fatalf("upscale: %v", err)
	}
	wall := time.Since(start)
	if !ok {
		t.Skip("no peak memory of a child process on this system")
	}
	bound := upscaleMemBound(side, side, B)
	in := int64(side) * int64(side) * B * 4
	outBytes := int64(oside) * int64(oside) * B * 4
	t.Logf("%dx%dx%d float32 (%.2f GiB) x%g -> %dx%dx%d (%.1f GiB on disk): peak RSS %.2f GiB = %.2fx the input, bound %.2f GiB; wall %v, user %v, sys %v",
		side, side, B, float64(in)/(1<<30), scale, oside, oside, B, float64(outBytes)/(1<<30), float64(peak)/(1<<30), float64(peak)/float64(in),
		float64(bound)/(1<<30), wall.Round(time.Second), user.Round(time.Second), sys.Round(time.Second))
	if peak > bound {
		t.Errorf("peak RSS %.2f GiB above the bound %.2f GiB", float64(peak)/(1<<30), float64(bound)/(1<<30))
	}
	st, err := os.Stat(filepath.Join(dir, "out.img"))
	if err != nil || st.Size() != outBytes {
		t.Errorf("output data file: %v, size %v, want %d", err, st, outBytes)
	}
}

// bigRunDir returns the folder of an opt-in large-file measurement
// (OMNIHSR_BIG_DIR, or a temporary one; removed at the end either way) and
// the omnihsr binary built into it, run as a child so its peak RSS can be
// read.
func bigRunDir(t *testing.T) (dir, bin string) {
	t.Helper()
	dir = os.Getenv("OMNIHSR_BIG_DIR")
	if dir == "" {
		dir = t.TempDir()
	} else {
		d, err := os.MkdirTemp(dir, "omnihsr-big-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	bin = filepath.Join(dir, "omnihsr")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return dir, bin
}

// writeBigENVI writes dir/big.hdr and dir/big.img: a side x side x B
// float32 BIP image whose sample at column x, row y, band b is v(x, y, b),
// written a row at a time.
func writeBigENVI(t *testing.T, dir string, side, B int, v func(x, y, b int) float32) {
	t.Helper()
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = %d\nheader offset = 0\ndata type = 4\ninterleave = bip\nbyte order = 0\n", side, side, B)
	if err := os.WriteFile(filepath.Join(dir, "big.hdr"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(filepath.Join(dir, "big.img"))
	if err != nil {
		t.Fatal(err)
	}
	row := make([]byte, side*B*4)
	for y := 0; y < side; y++ {
		for x := 0; x < side; x++ {
			for b := 0; b < B; b++ {
				binary.LittleEndian.PutUint32(row[(x*B+b)*4:], math.Float32bits(v(x, y, b)))
			}
		}
		if _, err := f.Write(row); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
