package scenes

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/matfile"
)

func sharedList(t *testing.T) string {
	t.Helper()
	p, ok := DefaultList()
	if !ok {
		t.Skip("shared data not found (../shared beside the module root, or $OMNIHSR_SHARED): skipping the real-scene test")
	}
	return p
}

type checksum struct {
	h, w, b        int
	sum            float64
	wlFirst, wlLst float64
	hasWL          bool
}

// checksums reads testdata/checksums.tsv, written by testdata/gen_checksums.py
// from scipy/h5py loads of the same files.
func checksums(t *testing.T) map[string]checksum {
	f, err := os.Open(filepath.Join("testdata", "checksums.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]checksum{}
	sc := bufio.NewScanner(f)
	sc.Scan()
	for sc.Scan() {
		fs := strings.Split(sc.Text(), "\t")
		if len(fs) < 7 {
			t.Fatalf("bad checksum line %q", sc.Text())
		}
		var c checksum
		c.h, _ = strconv.Atoi(fs[1])
		c.w, _ = strconv.Atoi(fs[2])
		c.b, _ = strconv.Atoi(fs[3])
		c.sum, _ = strconv.ParseFloat(fs[4], 64)
		if fs[5] != "" {
			c.hasWL = true
			c.wlFirst, _ = strconv.ParseFloat(fs[5], 64)
			c.wlLst, _ = strconv.ParseFloat(fs[6], 64)
		}
		out[fs[0]] = c
	}
	return out
}

func weightedSum(c *hsi.Cube) float64 {
	var s float64
	for i, v := range c.Data {
		s += float64(v) * float64(i%97+1)
	}
	return s
}

// TestSharedScenes loads every scene of ../shared/data/hsi/scenes.tsv (train
// and eval), checks the shape against the list and every value against the
// scipy/h5py checksum.
func TestSharedScenes(t *testing.T) {
	list := sharedList(t)
	all, err := Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(Filter(all, "train")) == 0 || len(Filter(all, "eval")) == 0 {
		t.Fatalf("scene list has %d train and %d eval scenes", len(Filter(all, "train")), len(Filter(all, "eval")))
	}
	sums := checksums(t)
	root := filepath.Dir(list)
	for _, s := range all {
		rel, _ := filepath.Rel(root, s.File)
		t.Run(rel, func(t *testing.T) {
			c, err := Load(s)
			if err != nil {
				t.Fatal(err)
			}
			if c.H != s.Height || c.W != s.Width || c.B != s.Bands {
				t.Fatalf("shape %dx%dx%d, list says %dx%dx%d", c.H, c.W, c.B, s.Height, s.Width, s.Bands)
			}
			want, ok := sums[filepath.ToSlash(rel)]
			if !ok {
				t.Fatalf("no checksum for %s: rerun testdata/gen_checksums.py", rel)
			}
			got := weightedSum(c)
			if d := got - want.sum; d > 1e-9*max(1, want.sum) || d < -1e-9*max(1, want.sum) {
				t.Errorf("weighted sum %v, scipy/h5py say %v", got, want.sum)
			}
			if strings.HasPrefix(filepath.Base(s.File), "an_hsi_") && !want.hasWL {
				t.Fatalf("checksums list no wavelengths for %s", rel)
			}
			if want.hasWL {
				wl := c.Meta.Wavelengths
				if len(wl) != c.B || float32(wl[0]) != float32(want.wlFirst) || float32(wl[len(wl)-1]) != float32(want.wlLst) {
					t.Errorf("wavelengths %v, want %d from %v to %v", wl, c.B, want.wlFirst, want.wlLst)
				}
				if c.Meta.WavelengthUnits != "Nanometers" {
					t.Errorf("wavelength units %q", c.Meta.WavelengthUnits)
				}
			}
		})
	}
}

func TestLoadShapeMismatch(t *testing.T) {
	list := sharedList(t)
	all, err := Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	s := all[0]
	s.Bands++
	if _, err := Load(s); err == nil || !strings.Contains(err.Error(), "scene list") || !strings.Contains(err.Error(), s.File) {
		t.Errorf("wrong band count: err = %v", err)
	}
}

func TestParse(t *testing.T) {
	dir := t.TempDir()
	// A small cube in a subdirectory, listed with a relative path.
	c := hsi.MustNew(3, 4, 2)
	for i := range c.Data {
		c.Data[i] = float32(i)
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := matfile.Write(filepath.Join(dir, "sub", "a.mat"), c, hsi.WriteOptions{Var: "data"}); err != nil {
		t.Fatal(err)
	}
	list := filepath.Join(dir, "list.tsv")
	text := "split\tfile\tvariable\tlayout\theight\twidth\tbands\tsensor\tnotes\n" +
		"# a comment\n\n" +
		"eval\tsub/a.mat\tdata\tHWB\t3\t4\t2\ttoy\tnotes here\n"
	if err := os.WriteFile(list, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	all, err := Parse(list)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 {
		t.Fatalf("%d scenes", len(all))
	}
	s := all[0]
	if s.File != filepath.Join(dir, "sub", "a.mat") || s.Split != "eval" || s.Sensor != "toy" || s.Notes != "notes here" || s.Name() != "a" {
		t.Errorf("scene %+v", s)
	}
	got, err := Load(s)
	if err != nil {
		t.Fatal(err)
	}
	for i := range c.Data {
		if got.Data[i] != c.Data[i] {
			t.Fatalf("value %d: %v, want %v", i, got.Data[i], c.Data[i])
		}
	}

	for _, bad := range []string{
		"split\tfile\n",
		"split\tfile\tvariable\tlayout\theight\twidth\tbands\neval\ta.mat\tx\tHWB\t0\t4\t2\n",
		"split\tfile\tvariable\tlayout\theight\twidth\tbands\neval\ta.mat\tx\tHWB\tten\t4\t2\n",
		"",
	} {
		if err := os.WriteFile(list, []byte(bad), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(list); err == nil || !strings.Contains(err.Error(), list) {
			t.Errorf("list %q: err = %v", bad, err)
		}
	}
}

func TestSharedDirEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("OMNIHSR_SHARED", dir)
	if d, ok := SharedDir(); !ok || d != dir {
		t.Errorf("SharedDir() = %q, %v with OMNIHSR_SHARED=%s", d, ok, dir)
	}
	t.Setenv("OMNIHSR_SHARED", filepath.Join(dir, "missing"))
	if _, ok := SharedDir(); ok {
		t.Error("a missing OMNIHSR_SHARED reported as present")
	}
}

func TestModuleRoot(t *testing.T) {
	root, ok := ModuleRoot()
	if !ok {
		t.Fatal("no go.mod above the test directory")
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(filepath.ToSlash(mustWd(t)), filepath.ToSlash(root)+"/internal/scenes") {
		t.Errorf("module root %s is not two levels above %s", root, mustWd(t))
	}
}

func mustWd(t *testing.T) string {
	d, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return d
}
