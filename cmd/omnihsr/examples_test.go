package main

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

// Every command's help starts with its synopsis and ends with an Examples
// section; every example (a long one broken with " \" as a POSIX shell
// takes it) runs as printed from the repository's
// root and exits 0 (here with its paths under ../.., its outputs in a
// temporary out/, view stopped once it serves, train's ../shared a
// generated miniature of 26 small natural images, and upscale's sample its
// 64 x 64 top-left corner, georeferenced the same, to keep the test fast).
func TestHelpExamplesRun(t *testing.T) {
	shared := miniShared(t)
	corner := sampleCorner(t)
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			var help, errb strings.Builder
			if code := run([]string{"help", c.name}, &help, &errb); code != 0 {
				t.Fatalf("help %s: exit %d: %s", c.name, code, errb.String())
			}
			h := help.String()
			if first, _, _ := strings.Cut(h, "\n\n"); strings.Join(strings.Fields(first), " ") != "omnihsr "+c.name+": "+c.summary {
				t.Errorf("help %s starts with %q, want the synopsis", c.name, first)
			}
			i := strings.LastIndex(h, "\nExamples:\n")
			if i < 0 {
				t.Fatalf("help %s has no Examples section", c.name)
			}
			ran := 0
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
				t.Fatal(err)
			}
			// A command broken to the help's width continues after " \\".
			joined := strings.ReplaceAll(strings.TrimSpace(h[i+len("\nExamples:\n"):]), " \\\n", " ")
			for _, line := range strings.Split(joined, "\n") {
				line = strings.TrimSpace(line)
				if strings.HasPrefix(line, "#") {
					continue
				}
				f := strings.Fields(line)
				if len(f) < 2 || f[0] != "omnihsr" || f[1] != c.name {
					t.Fatalf("help %s: example %q is not an omnihsr %s command (the Examples section must end the help)", c.name, line, c.name)
				}
				args := exampleArgs(f[1:], dir, shared)
				if c.name == "upscale" {
					for k, a := range args {
						if a == filepath.Join("..", "..", "sample", "L7_ETMs.tif") {
							args[k] = corner
						}
					}
				}
				ctx, cancel := context.WithCancel(context.Background())
				var out, stderr syncBuffer
				done := make(chan int, 1)
				go func() { done <- runContext(ctx, args, &out, &stderr) }()
				if c.name == "view" {
					waitURL(t, &out, &stderr, cancel)
					cancel()
				}
				code := <-done
				cancel()
				if code != 0 {
					t.Errorf("%s: exit %d: %s", line, code, stderr.String())
				}
				ran++
			}
			if ran == 0 {
				t.Errorf("help %s: no example to run", c.name)
			}
		})
	}
}

// exampleArgs maps an example's arguments to the test's paths: the
// repository's files under ../.., out/ under dir, ../shared to shared, and
// view's fixed port to a free one.
func exampleArgs(f []string, dir, shared string) []string {
	args := make([]string, len(f))
	for i, a := range f {
		prefix := ""
		if k, v, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(a, "-") && strings.Contains(v, "/") {
			prefix, a = k+"=", v
		}
		switch {
		case a == "../shared":
			a = shared
		case strings.HasPrefix(a, "sample/"), strings.HasPrefix(a, "internal/"):
			a = filepath.Join("..", "..", a)
		case strings.HasPrefix(a, "out/"):
			a = filepath.Join(dir, a)
			if strings.HasSuffix(f[i], "/") {
				a += string(filepath.Separator)
			}
		case a == "127.0.0.1:8080":
			a = "127.0.0.1:0"
		}
		args[i] = prefix + a
	}
	return args
}

// sampleCorner writes the sample's top-left 64 x 64 pixels, all bands,
// as a GeoTIFF.
func sampleCorner(t *testing.T) string {
	t.Helper()
	c, _, err := formats.Read(filepath.Join("..", "..", "sample", "L7_ETMs.tif"), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	crop, err := c.Crop(0, 0, 64, 64)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "L7_ETMs.tif")
	if err := formats.Write(p, crop, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	return p
}

// miniShared writes a miniature of ../shared's natural images: 26 small
// PNGs (one held out for validation), enough for train -natural-only.
func miniShared(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "data", "rgb", "mini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for n := range 26 {
		img := image.NewRGBA(image.Rect(0, 0, 100, 100))
		for y := range 100 {
			for x := range 100 {
				img.Set(x, y, color.RGBA{uint8(x*2 + n), uint8(y*2 + x%7), uint8((x*y + n*13) % 251), 255})
			}
		}
		fh, err := os.Create(filepath.Join(dir, "img"+string(rune('a'+n))+".png"))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(fh, img); err != nil {
			t.Fatal(err)
		}
		if err := fh.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
