package envi

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// Errors whose message must name the real problem.
func TestReadFaultMessages(t *testing.T) {
	good := make([]byte, 2*3*4*2)
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string) string // returns the path to read
		want  string
	}{
		{"data of another type", func(t *testing.T, dir string) string {
			// A float32 header beside float64 data: a torn pair.
			return writeRawIn(t, dir, strings.Replace(okHeader, "data type = 2", "data type = 4", 1), make([]byte, 2*3*4*8))
		}, "holds 192 bytes, but header"},
		{"data longer", func(t *testing.T, dir string) string {
			return writeRawIn(t, dir, okHeader, make([]byte, 49))
		}, "does not describe this data file"},
		{"missing header", func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "x.img"), good, 0o644)
			return filepath.Join(dir, "x.hdr")
		}, "no such file"},
		{"directory named x.hdr", func(t *testing.T, dir string) string {
			os.WriteFile(filepath.Join(dir, "x.img"), good, 0o644)
			os.Mkdir(filepath.Join(dir, "x.hdr"), 0o755)
			return filepath.Join(dir, "x.hdr")
		}, "is not a header file but a directory"},
		{"FIFO named x.hdr", func(t *testing.T, dir string) string {
			if err := mkfifo(filepath.Join(dir, "x.hdr")); err != nil {
				t.Skip(err)
			}
			return filepath.Join(dir, "x.hdr")
		}, "a named pipe (FIFO)"},
		{"huge header offset", func(t *testing.T, dir string) string {
			return writeRawIn(t, dir, okHeader+"header offset = 9223372036854775807\n", good)
		}, "header offset = 9223372036854775807, beyond the end of the data file (48 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := tc.setup(t, dir)
			_, _, err := Read(p, hsi.ReadOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), dir) {
				t.Fatalf("error %v, want one naming the file and containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "no data file beside") || strings.Contains(err.Error(), "too large") {
				t.Fatalf("misleading error %v", err)
			}
		})
	}
}

func writeRawIn(t *testing.T, dir, hdr string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, "x.hdr")
	if err := os.WriteFile(p, []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "x.img"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Writers of different data types racing on one path leave a pair that
// reads back whole: header and data of the same write.
func TestConcurrentWritesLeaveOnePair(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "x.hdr")
	c := hsi.MustNew(16, 16, 8)
	for i := range c.Data {
		c.Data[i] = float32(i % 100)
	}
	for round := 0; round < 20; round++ {
		var wg sync.WaitGroup
		for _, typ := range []sample.Type{sample.Float32, sample.Float64, sample.Int16, sample.Uint8} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s, err := Create(p, c.H, c.W, c.B, c.Meta, hsi.WriteOptions{DataType: typ})
				if err != nil {
					t.Error(err)
					return
				}
				defer s.Abort()
				for y := 0; y < c.H; y++ {
					if err := s.WriteRows(c.Data[y*c.W*c.B : (y+1)*c.W*c.B]); err != nil {
						t.Error(err)
						return
					}
				}
				if err := s.Commit(); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		got, _, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		for i := range c.Data {
			if got.Data[i] != c.Data[i] {
				t.Fatalf("round %d: value %d = %v, want %v", round, i, got.Data[i], c.Data[i])
			}
		}
	}
}

// A map info with a NaN, an infinity or a zero pixel size is refused when
// read, naming the field, rather than copied into every output.
func TestMapInfoChecked(t *testing.T) {
	good := make([]byte, 2*3*4*2)
	for _, tc := range []struct{ mapInfo, want string }{
		{"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84", ""},
		{"UTM, 1, 1, 500000, 4000000, NaN, 30, 33, North, WGS-84", "field 6 (pixel size x) = \"NaN\" is not a finite number"},
		{"UTM, 1, 1, inf, 4000000, 30, 30, 33, North", "field 4 (easting) = \"inf\" is not a finite number"},
		{"UTM, 1, 1, 500000, 4000000, 30, 0, 33, North", "field 7 (pixel size y) is 0"},
		{"Arbitrary, 1, x, 0, 0, 1, 1", "field 3 (reference pixel y) = \"x\""},
		// issue 29: the rotation, and the transform the fields make, too
		{"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=15", ""},
		{"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=nan", "rotation \"nan\" is not an angle"},
		{"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=inf", "rotation \"inf\" is not an angle"},
		{"UTM, 1, 1, 500000, 4000000, 30, 30, 33, North, WGS-84, rotation=1e308", "rotation \"1e308\" is not an angle"},
		{"UTM, 1, 1, 500000, 1e300, 30, 30, 33, North", "field 5 (northing) = \"1e300\" is beyond 1e+15"},
	} {
		dir := t.TempDir()
		p := writeRawIn(t, dir, okHeader+"map info = {"+tc.mapInfo+"}\n", good)
		c, _, err := Read(p, hsi.ReadOptions{})
		if tc.want == "" {
			if err != nil || c.Meta.Geo == nil {
				t.Errorf("%s: %v", tc.mapInfo, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: %v, want %q naming the header", tc.mapInfo, err, tc.want)
		}
	}
}
