package main

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// -clamp input keeps every output band within its input band's range
// (no-data excluded, and no-data still no-data); without it the model goes
// past that range on the sample's corner, so the test can fail.
func TestUpscaleClampInput(t *testing.T) {
	dir := t.TempDir()
	c, _, err := formats.Read(sampleCorner(t), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const nd = -9999
	for _, i := range []int{0, 7, 6*64*10 + 3, len(c.Data) - 1} {
		c.Data[i] = nd
	}
	c.Meta.DataIgnore, c.Meta.HasDataIgnore = nd, true
	in := filepath.Join(dir, "in.hdr")
	if err := formats.Write(in, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	lo, hi := make([]float32, c.B), make([]float32, c.B)
	for b := range lo {
		lo[b], hi[b] = float32(math.Inf(1)), float32(math.Inf(-1))
	}
	for i, v := range c.Data {
		if v != nd {
			lo[i%c.B], hi[i%c.B] = min(lo[i%c.B], v), max(hi[i%c.B], v)
		}
	}
	outside := func(path string) (n, ndOut int) {
		o, _, err := formats.Read(path, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range o.Data {
			switch b := i % o.B; {
			case v == nd:
				ndOut++
			case v < lo[b] || v > hi[b]:
				n++
			}
		}
		return n, ndOut
	}
	for _, m := range []string{"omnihsr", "bicubic"} {
		free, clamped := filepath.Join(dir, m+"_free.hdr"), filepath.Join(dir, m+"_clamped.hdr")
		if code, _, stderr := runCmd(t, "upscale", "-in", in, "-out", free, "-scale", "4", "-method", m); code != 0 {
			t.Fatalf("%s: exit %d: %s", m, code, stderr)
		}
		code, _, stderr := runCmd(t, "upscale", "-in", in, "-out", clamped, "-scale", "4", "-method", m, "-clamp", "input")
		if code != 0 {
			t.Fatalf("%s -clamp input: exit %d: %s", m, code, stderr)
		}
		n0, nd0 := outside(free)
		n1, nd1 := outside(clamped)
		if n0 == 0 {
			t.Errorf("%s: no sample outside the input's band ranges without -clamp: the test cannot tell", m)
		}
		if n1 != 0 {
			t.Errorf("%s -clamp input: %d samples outside their band's input range", m, n1)
		}
		if nd1 != nd0 || nd0 == 0 {
			t.Errorf("%s: %d no-data samples with -clamp input, %d without (want the same, > 0)", m, nd1, nd0)
		}
		if !strings.Contains(stderr, "clamped to it") {
			t.Errorf("%s -clamp input: stderr does not count the clamped samples:\n%s", m, stderr)
		}
	}
	if code, _, stderr := runCmd(t, "upscale", "-in", in, "-out", filepath.Join(dir, "x.hdr"), "-scale", "2", "-clamp", "physical"); code != 2 || !strings.Contains(stderr, "-clamp") {
		t.Errorf("-clamp physical: exit %d, want 2 and a usage error:\n%s", code, stderr)
	}
}
