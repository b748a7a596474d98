package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestUpscalePNGBombStreams upscales a small PNG that declares 3000 x
// 30000 pixels (30000 x 30000 with OMNIHSR_BIG=1: 0.9 MB on disk, 13.7 GiB
// as image/png decodes it) with the bicubic method, which reads a PNG a
// band of rows at a time (formats.Open): the peak resident memory of the
// child process stays under 256 MiB (1 GiB at 30000 x 30000), where
// reading the image whole took 521 MiB (13.7 GiB). The output is written
// at x1 as uint8 (90 MB; 900 MB at 30000 x 30000) so that the disk has room
// for it: the input rows held depend on the output's width, not on its
// size on disk.
func TestUpscalePNGBombStreams(t *testing.T) {
	h, bound := 6000, int64(512<<20)
	if os.Getenv("OMNIHSR_BIG") == "1" {
		h, bound = 30000, 1<<30
	}
	dir, bin := bigRunDir(t)
	in := filepath.Join(dir, "bomb.png")
	if err := testrand.WritePNGBomb(in, h, 30000); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.hdr")
	cmd := exec.Command(bin, "upscale", "-in", in, "-out", out, "-scale", "1", "-type", "uint8", "-method", "bicubic")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	peak, _, _, ok, err := runMeasured(cmd)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !ok {
		t.Skip("no peak memory of a child process on this system")
	}
	t.Logf("%d x 30000 PNG bomb, bicubic at x1 to uint8 ENVI: peak RSS %.0f MiB", h, float64(peak)/(1<<20))
	if peak > bound {
		t.Errorf("peak RSS %.0f MiB, above %.0f MiB: the PNG was not streamed", float64(peak)/(1<<20), float64(bound)/(1<<20))
	}
	if st, err := os.Stat(filepath.Join(dir, "out.img")); err != nil || st.Size() != int64(h*30000) {
		t.Errorf("output data file %v, %v", st, err)
	}
}
