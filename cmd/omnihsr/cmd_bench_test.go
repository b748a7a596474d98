package main

import (
	"strings"
	"testing"
)

func TestParseScene(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [3]int
		ok   bool
	}{
		{"512x512x102", [3]int{512, 512, 102}, true},
		{"1242X1280x285", [3]int{1242, 1280, 285}, true},
		{"512x512", [3]int{}, false},
		{"512x0x102", [3]int{}, false},
		{"axbxc", [3]int{}, false},
		{"1x2x3x4", [3]int{}, false},
	} {
		got, err := parseScene(c.in)
		if (err == nil) != c.ok || (c.ok && got != c.want) {
			t.Errorf("parseScene(%q) = %v, %v; want %v, ok %v", c.in, got, err, c.want, c.ok)
		}
	}
}

func TestBenchSceneUsage(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "-scene", "512x512"},
		{"bench", "-scene", "8x8x2", "-scene-factors", "0"},
	} {
		code, _, errs := runCmd(t, args...)
		if code != 2 || !strings.Contains(errs, "-scene") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error naming -scene", args, code, errs)
		}
	}
}
