package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/childtest"
	"github.com/omnihsr/omnihsr/internal/model"
)

func TestWriteScene(t *testing.T) {
	dir := t.TempDir()
	read := func(name string, seed uint64) *hsi.Cube {
		t.Helper()
		p := filepath.Join(dir, name+".hdr")
		if err := WriteScene(p, 9, 7, 5, seed); err != nil {
			t.Fatal(err)
		}
		c, _, err := formats.Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.H != 9 || c.W != 7 || c.B != 5 {
			t.Fatalf("%s: %dx%dx%d, want 9x7x5", name, c.H, c.W, c.B)
		}
		return c
	}
	a, a2, b := read("a", 1), read("a2", 1), read("b", 2)
	same, diff := true, false
	for i := range a.Data {
		same = same && a.Data[i] == a2.Data[i]
		diff = diff || a.Data[i] != b.Data[i]
		if v := a.Data[i]; v < 0 || v > 1.1 {
			t.Fatalf("value %v at %d outside [0, 1.1]", v, i)
		}
	}
	if !same {
		t.Error("the same seed gave different scenes")
	}
	if !diff {
		t.Error("different seeds gave the same scene")
	}
	if err := WriteScene(filepath.Join(dir, "bad.hdr"), 0, 7, 5, 1); err == nil {
		t.Error("a 0-row scene was written")
	}
}

// TestSceneStages checks that the staged pipeline writes what the model's
// Upscale returns.
func TestSceneStages(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.hdr"), filepath.Join(dir, "out.hdr")
	if err := WriteScene(in, 12, 10, 6, 3); err != nil {
		t.Fatal(err)
	}
	st, err := SceneStages(m, in, out, 3, hsi.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := formats.Read(out, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lr, _, err := formats.Read(in, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := m.Upscale(lr, 36, 30)
	if err != nil {
		t.Fatal(err)
	}
	if got.H != 36 || got.W != 30 || got.B != 6 {
		t.Fatalf("output %dx%dx%d, want 36x30x6", got.H, got.W, got.B)
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("sample %d: %v, Upscale gives %v", i, got.Data[i], want.Data[i])
		}
	}
	if st.OutBytes != 36*30*6*4 {
		t.Errorf("OutBytes %d, want %d", st.OutBytes, 36*30*6*4)
	}
	if st.Encoder <= 0 || st.Render <= 0 || st.Us <= 0 || st.Total() < st.Encoder+st.Render {
		t.Errorf("stage times %+v", st)
	}
	if want := EncoderFLOPs(m, 12, 10); st.EncoderFLOPs != want || want <= 0 {
		t.Errorf("EncoderFLOPs %v, want %v > 0", st.EncoderFLOPs, want)
	}
	if _, err := SceneStages(m, filepath.Join(dir, "missing.hdr"), out, 2, hsi.WriteOptions{}); err == nil {
		t.Error("a missing input gave no error")
	}
}

// TestEncoderFLOPs checks the count against the default encoder's layers
// at C = 32, FFN ratio 4: per pixel, the stem (3x3, M -> C), per block the
// QKV and Out layers (C -> 3C, C -> C) and the two FFN convolutions
// (3x3, C -> 4C -> C), and the tail (3x3, C -> C).
func TestEncoderFLOPs(t *testing.T) {
	m, err := model.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg := m.Enc.Config
	c, r := cfg.C, cfg.FFNRatio
	var in int
	for _, p := range m.Enc.Params() {
		if p.Name == "stem.weight" {
			in = p.T.C
		}
	}
	perPixel := 9*in*c + len(m.Enc.Blocks)*(3*c*c+c*c+2*9*c*r*c) + 9*c*c
	if got, want := EncoderFLOPs(m, 4, 5), 2*float64(perPixel)*20; got != want {
		t.Errorf("EncoderFLOPs(4x5) = %v, want %v", got, want)
	}
}

// TestHelperChild is the child process of TestRunChild.
func TestHelperChild(t *testing.T) {
	if os.Getenv("BENCH_HELPER_CHILD") != "1" {
		t.Skip("only as TestRunChild's child")
	}
	buf := make([]byte, 64<<20)
	for i := range buf {
		buf[i] = byte(i)
	}
	if os.Getenv("BENCH_HELPER_FAIL") == "1" {
		os.Stderr.WriteString("child failed on purpose\n")
		os.Exit(3)
	}
	runtime.KeepAlive(buf)
}

func TestRunChild(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("BENCH_HELPER_CHILD", "1")
	c, err := RunChild(context.Background(), "child", exe, "-test.run=^TestHelperChild$")
	childtest.SkipNoExec(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if c.Wall <= 0 || c.CPU <= 0 {
		t.Errorf("wall %v, CPU %v: want both positive (the child writes 64 MiB)", c.Wall, c.CPU)
	}
	if runtime.GOOS == "linux" && c.MaxRSS < 64<<20 {
		t.Errorf("peak RSS %d bytes, want at least the child's 64 MiB buffer", c.MaxRSS)
	}
	t.Setenv("BENCH_HELPER_FAIL", "1")
	if _, err := RunChild(context.Background(), "child", exe, "-test.run=^TestHelperChild$"); err == nil || !strings.Contains(err.Error(), "child failed on purpose") {
		t.Errorf("a failing child: error %v, want one with its stderr", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunChild(ctx, "child", exe, "-test.run=^TestHelperChild$"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: error %v, want context.Canceled", err)
	}
}

// TestRunChildPeakIsTheChilds checks that a child's peak RSS is its own:
// this process touches 512 MiB and drops it before starting the 64 MiB
// child, whose figure must not carry this process's peak.
func TestRunChildPeakIsTheChilds(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the peak reset is Linux's /proc/self/clear_refs")
	}
	if _, err := os.Stat("/proc/self/clear_refs"); err != nil {
		t.Skipf("no /proc/self/clear_refs: %v", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 512<<20)
	for i := 0; i < len(big); i += 4096 {
		big[i] = 1
	}
	runtime.KeepAlive(big)
	big = nil
	t.Setenv("BENCH_HELPER_CHILD", "1")
	c, err := RunChild(context.Background(), "child", exe, "-test.run=^TestHelperChild$")
	childtest.SkipNoExec(t, err)
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRSS < 64<<20 || c.MaxRSS > 256<<20 {
		t.Errorf("child's peak RSS %d MiB, want its own 64 MiB buffer and the test binary (under 256 MiB), not this process's 512 MiB peak", c.MaxRSS>>20)
	}
}

func TestSyncFiles(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := SyncFiles(p); err != nil {
		t.Error(err)
	}
	if _, err := SyncFiles(p + ".missing"); err == nil {
		t.Error("a missing file synced without error")
	}
}

func TestSceneMarkdown(t *testing.T) {
	rows := []SceneRow{{Factor: 4, OutH: 8, OutW: 8, Children: []Child{
		{Name: "gdal", Wall: 2 * time.Second, MaxRSS: 1 << 30, CPU: 1500 * time.Millisecond},
		{Name: "ours", Wall: 3 * time.Second, MaxRSS: 1 << 29, CPU: 5 * time.Second}}}}
	md := SceneMarkdown(2, 2, 3, "ENVI", rows)
	for _, want := range []string{"| x4 | 8 x 8 | `gdal` | 2.00 | 1.00 | 1.50 | 1.00 |", "| x4 | 8 x 8 | `ours` | 3.00 | 1.50 | 5.00 | 0.50 |"} {
		if !strings.Contains(md, want) {
			t.Errorf("table lacks %q:\n%s", want, md)
		}
	}
}

func TestMedianDur(t *testing.T) {
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{{[]time.Duration{3}, 3}, {[]time.Duration{5, 1, 3}, 3}, {[]time.Duration{4, 1}, 4}} {
		if got := medianDur(c.in); got != c.want {
			t.Errorf("medianDur(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

// The commands of a comparison write the chosen format with the same
// creation options on both sides: gdal_translate -of/-co and omnihsr
// -of/-co with a .tif output; ENVI needs neither.
func TestSceneJobs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "scene.hdr")
	cfg := SceneConfig{Exe: "/x/omnihsr", GDAL: "/x/gdal_translate", Dir: dir, Format: "GTiff", Creation: []string{"TILED=YES", "COMPRESS=DEFLATE"}}
	jobs := cfg.jobs(in, "4", 40, 32)
	if len(jobs) != 4 || !jobs[1].sync || jobs[0].sync {
		t.Fatalf("jobs %+v: want GDAL, GDAL then fsync, bicubic, model", jobs)
	}
	argv := func(j sceneJob) string { return strings.Join(j.argv, " ") }
	if got, want := argv(jobs[0]), "/x/gdal_translate -q -of GTiff -co TILED=YES -co COMPRESS=DEFLATE -r cubic -outsize 32 40 "+filepath.Join(dir, "scene.img")+" "+filepath.Join(dir, "gdal.tif"); got != want {
		t.Errorf("GDAL: %s\nwant %s", got, want)
	}
	for _, j := range jobs[2:] {
		if a := argv(j); !strings.HasSuffix(a, ".tif -of GTiff -co TILED=YES -co COMPRESS=DEFLATE") || !strings.HasPrefix(a, "/x/omnihsr upscale") {
			t.Errorf("%s: %s", j.name, a)
		}
		if len(j.files) != 1 || filepath.Ext(j.files[0]) != ".tif" {
			t.Errorf("%s: files %v", j.name, j.files)
		}
	}
	if wo := cfg.WriteOptions(); wo.Driver != "GTiff" || len(wo.Creation) != 2 {
		t.Errorf("write options %+v", wo)
	}

	env := SceneConfig{Exe: "/x/omnihsr", Dir: dir}.jobs(in, "2", 20, 16)
	if len(env) != 2 {
		t.Fatalf("without GDAL: %d jobs, want 2", len(env))
	}
	for _, j := range env {
		if a := argv(j); strings.Contains(a, "-of") || !strings.Contains(a, ".hdr") || len(j.files) != 2 {
			t.Errorf("ENVI %s: %s, files %v", j.name, a, j.files)
		}
	}
}
