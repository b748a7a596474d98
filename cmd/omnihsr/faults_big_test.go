package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// TestUpscaleExtremeFactorRSS upscales a 10 x 12 x 1 input to 16000 x
// 16000 (factors 1600 x 1333, a 1 GB ENVI output) with every method
// that streams, under OMNIHSR_MEM_LIMIT=1G, and checks the peak resident
// memory against the documented bound (upscaleMemBound, 512 MiB for this
// input). A measurement, not a timed test: it runs only with
// OMNIHSR_BIG=1 and needs 1 GB of free disk in OMNIHSR_BIG_DIR (default
// a temporary dir); about 2.5 minutes on 2 cores.
func TestUpscaleExtremeFactorRSS(t *testing.T) {
	if os.Getenv("OMNIHSR_BIG") != "1" {
		t.Skip("set OMNIHSR_BIG=1 to upscale 10x12x1 to 16000x16000 and measure peak memory")
	}
	dir, bin := bigRunDir(t)
	in := filepath.Join(dir, "small.npy")
	if err := formats.Write(in, testrand.Cube(testrand.New(uint64(10), uint64(12)), 10, 12, 1), hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	bound := upscaleMemBound(10, 12, 1)
	for _, method := range []string{"bicubic", "omnihsr"} {
		out := filepath.Join(dir, "out_"+method+".hdr")
		cmd := exec.Command(bin, "upscale", "-in", in, "-out", out, "-size", "16000x16000", "-method", method)
		cmd.Env = append(os.Environ(), "OMNIHSR_MEM_LIMIT=1G")
		cmd.Stderr = os.Stderr
		start := time.Now()
		peak, _, _, ok, err := runMeasured(cmd)
		if err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if !ok {
			t.Skip("no peak memory of a child process on this system")
		}
		t.Logf("%s: 10x12x1 -> 16000x16000 (1 GB ENVI): peak RSS %.0f MiB, bound %.0f MiB, wall %v",
			method, float64(peak)/(1<<20), float64(bound)/(1<<20), time.Since(start).Round(time.Second))
		if peak > bound {
			t.Errorf("%s: peak RSS %.0f MiB above the bound %.0f MiB", method, float64(peak)/(1<<20), float64(bound)/(1<<20))
		}
		st, err := os.Stat(filepath.Join(dir, "out_"+method+".img"))
		if err != nil || st.Size() != 16000*16000*4 {
			t.Errorf("%s: output data file %v, %v", method, st, err)
		}
		os.Remove(out)
		os.Remove(filepath.Join(dir, "out_"+method+".img"))
	}
}
