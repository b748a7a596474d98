package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
)

func TestConvertChain(t *testing.T) {
	dir := t.TempDir()
	src := "../../hsi/envi/testdata/spectral_meta.hdr"
	want, _, err := formats.Read(src, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct{ out, typ, il, compress string }{
		{"a.npy", "int16", "", ""},
		{"b.mat", "", "", "deflate"},
		{"c.hdr", "int32", "bip", ""},
		{"d.img", "float64", "bil", ""},
		{"e.tif", "int16", "", "lzw"},
		{"f.bsq", "", "", ""},
	}
	in := src
	for _, s := range steps {
		out := filepath.Join(dir, s.out)
		args := []string{"convert", "-in", in, "-out", out}
		if s.typ != "" {
			args = append(args, "-type", s.typ)
		}
		if s.il != "" {
			args = append(args, "-interleave", s.il)
		}
		if s.compress != "" {
			args = append(args, "-compress", s.compress)
		}
		code, rep, errs := runCmd(t, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		if !strings.Contains(rep, "wrote "+out) {
			t.Errorf("report %q", rep)
		}
		got, info, err := formats.Read(out, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if s.typ != "" && info.DataType != s.typ {
			t.Errorf("%s: data type %s, want %s", s.out, info.DataType, s.typ)
		}
		for i := range want.Data {
			if got.Data[i] != want.Data[i] {
				t.Fatalf("%s: value %d = %v, want %v", s.out, i, got.Data[i], want.Data[i])
			}
		}
		in = out
	}
	// A preview.
	if code, _, errs := runCmd(t, "convert", "-in", src, "-out", filepath.Join(dir, "p.png")); code != 0 {
		t.Fatal(errs)
	}
}

func TestConvertErrors(t *testing.T) {
	dir := t.TempDir()
	src := "../../hsi/envi/testdata/spectral_meta.hdr" // int16 values down to -32768
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"convert", "-in", src}, 2, "-in and -out are required"},
		{[]string{"convert", "-in", src, "-out", "x.npy", "extra"}, 2, "unexpected arguments"},
		{[]string{"convert", "-in", src, "-out", filepath.Join(dir, "o.npy"), "-interleave", "bsx"}, 2, "-interleave"},
		{[]string{"convert", "-in", src, "-out", filepath.Join(dir, "o.npy"), "-compress", "zip"}, 2, "-compress"},
		{[]string{"convert", "-in", src, "-out", filepath.Join(dir, "o.npy"), "-interleave", "bil"}, 1, "ENVI output only"},
		{[]string{"convert", "-in", src, "-out", filepath.Join(dir, "o.npy"), "-type", "complex64"}, 2, "unknown data type"},
		{[]string{"convert", "-in", src, "-out", filepath.Join(dir, "o.xyz")}, 1, "unknown file format"},
	} {
		code, _, errs := runCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want %d, %q", tc.args[1:], code, errs, tc.code, tc.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("left behind: %v", ents)
	}
}

// -type clamps values outside the type's range as gdal_translate -ot does
// and counts them; -type same keeps the input's type.
func TestConvertClamps(t *testing.T) {
	dir := t.TempDir()
	src := "../../hsi/envi/testdata/spectral_meta.hdr" // int16 values down to -32768
	in, _, err := formats.Read(src, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "o.npy")
	code, _, errs := runCmd(t, "convert", "-in", src, "-out", out, "-type", "uint16")
	if code != 0 || !strings.Contains(errs, "sample(s) outside the uint16 range clamped") {
		t.Fatalf("-type uint16: exit %d: %s", code, errs)
	}
	got, info, err := formats.Read(out, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if info.DataType != "uint16" {
		t.Fatalf("written as %s", info.DataType)
	}
	var clamped int
	for i, v := range in.Data {
		want := min(max(v, 0), 65535)
		if in.Meta.HasDataIgnore && float64(v) == in.Meta.DataIgnore {
			want = 0 // the no-data value, clamped as GDAL does
		} else if v != want {
			clamped++
		}
		if got.Data[i] != want {
			t.Fatalf("sample %d: %v written as %v, want %v", i, v, got.Data[i], want)
		}
	}
	if !strings.Contains(errs, fmt.Sprintf("%d sample(s)", clamped)) {
		t.Errorf("stderr does not give the count %d: %s", clamped, errs)
	}
	code, _, errs = runCmd(t, "convert", "-in", src, "-out", filepath.Join(dir, "s.npy"), "-type", "same")
	if _, info, err := formats.Read(filepath.Join(dir, "s.npy"), hsi.ReadOptions{}); code != 0 || err != nil || info.DataType != "int16" {
		t.Fatalf("-type same: exit %d (%s), %v, %s", code, errs, err, info.DataType)
	}
}

// TestConvertLargeRSS converts a large ENVI file with the real binary and
// reports its peak resident memory against the cube's float32 size. It is
// a measurement, not a timed test: it runs only with OMNIHSR_BIG=1.
// OMNIHSR_BIG_MB sets the input size in MiB (default 2048, int16 samples),
// OMNIHSR_BIG_DIR the directory (default a temporary one; it needs about
// 3x the input size free).
func TestConvertLargeRSS(t *testing.T) {
	if os.Getenv("OMNIHSR_BIG") != "1" {
		t.Skip("set OMNIHSR_BIG=1 to build a ~2 GB ENVI file and measure the peak memory of omnihsr convert")
	}
	mb := 2048
	if s := os.Getenv("OMNIHSR_BIG_MB"); s != "" {
		v, err := strconv.Atoi(s)
		if err != nil || v <= 0 {
			t.Fatalf("OMNIHSR_BIG_MB=%q", s)
		}
		mb = v
	}
	dir, bin := bigRunDir(t)
	// int16, 224 bands (AVIRIS-like), square image of about mb MiB.
	const B = 224
	side := 1
	for int64(side+1)*int64(side+1)*B*2 <= int64(mb)<<20 {
		side++
	}
	H, W := side, side
	in := filepath.Join(dir, "big.img")
	hdr := fmt.Sprintf("ENVI\nsamples = %d\nlines = %d\nbands = %d\nheader offset = 0\ndata type = 2\ninterleave = bsq\nbyte order = 0\n", W, H, B)
	if err := os.WriteFile(filepath.Join(dir, "big.hdr"), []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(in)
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 4<<20)
	for i := range buf {
		buf[i] = byte(i*7 + i>>11)
	}
	total := int64(H) * int64(W) * B * 2
	for n := int64(0); n < total; n += int64(len(buf)) {
		if _, err := f.Write(buf[:min(int64(len(buf)), total-n)]); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cubeBytes := int64(H) * int64(W) * B * 4
	for _, out := range []string{"out.hdr", "out.npy"} {
		cmd := exec.Command(bin, "convert", "-in", filepath.Join(dir, "big.hdr"), "-out", filepath.Join(dir, out))
		cmd.Stderr = os.Stderr
		start := time.Now()
		peak, user, sys, ok, err := runMeasured(cmd)
		if err != nil {
			t.Fatalf("convert to %s: %v", out, err)
		}
		wall := time.Since(start)
		if !ok {
			t.Skip("no peak memory of a child process on this system")
		}
		ratio := float64(peak) / float64(cubeBytes)
		t.Logf("%dx%dx%d int16 ENVI (%.2f GiB) -> %s: float32 cube %.2f GiB, peak RSS %.2f GiB = %.3fx the cube; wall %v, user %v, sys %v",
			H, W, B, float64(total)/(1<<30), out, float64(cubeBytes)/(1<<30), float64(peak)/(1<<30), ratio,
			wall.Round(time.Millisecond), user.Round(time.Millisecond), sys.Round(time.Millisecond))
		if ratio >= 1.3 {
			t.Errorf("peak memory %.3fx the float32 cube, want below 1.3x", ratio)
		}
		os.Remove(filepath.Join(dir, out))
		os.Remove(filepath.Join(dir, "out.img"))
	}
}
