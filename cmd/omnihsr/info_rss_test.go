package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestInfoStreamsRSS describes a 768 x 768 x 128 float32 ENVI file (288
// MiB; 2048 x 2048 x 128, 2 GiB, with OMNIHSR_BIG=1) with the real binary:
// info reads its rows a band at a time through formats.Open into the
// statistics and the noise screen, so the child's peak resident memory
// stays under 160 MiB (the screen's residuals are at most 32 MiB), below
// the file's size, where reading it whole held all of it.
func TestInfoStreamsRSS(t *testing.T) {
	side, bound := 768, int64(160<<20)
	if os.Getenv("OMNIHSR_BIG") == "1" {
		side = 2048
	}
	const B = 128
	dir, bin := bigRunDir(t)
	writeBigENVI(t, dir, side, B, func(x, y, b int) float32 {
		return float32(0.5 + 0.001*float64((x*7+y*3+b)%97))
	})
	cmd := exec.Command(bin, "info", filepath.Join(dir, "big.hdr"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	peak, _, _, ok, err := runMeasured(cmd)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), fmt.Sprintf("%d x %d x %d", side, side, B)) || !strings.Contains(stdout.String(), "value range:    0.5 .. 0.596") {
		t.Fatalf("info:\n%s", stdout.String())
	}
	if !ok {
		t.Skip("no peak memory of a child process on this system")
	}
	size := int64(side) * int64(side) * B * 4
	t.Logf("info of a %d x %d x %d float32 ENVI file (%d MiB): peak RSS %.0f MiB", side, side, B, size>>20, float64(peak)/(1<<20))
	if peak > bound || peak > size {
		t.Errorf("peak RSS %.0f MiB, above %.0f MiB or the file's %d MiB: the rows were not streamed", float64(peak)/(1<<20), float64(bound)/(1<<20), size>>20)
	}
}
