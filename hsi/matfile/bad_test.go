package matfile

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// Offsets in testdata/v5_double_3d_u.mat (one 3x4x5 double "x", uncompressed).
const (
	offClass   = 144 // array flags: class byte
	offDims    = 160 // first dimension
	offDataTyp = 184 // data sub-element type
)

func patched(t *testing.T, src string, patch func(b []byte) []byte) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", src))
	if err != nil {
		t.Fatal(err)
	}
	b = patch(append([]byte(nil), b...))
	p := filepath.Join(t.TempDir(), "bad.mat.golden")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func wantErr(t *testing.T, path string, opt hsi.ReadOptions, want string) {
	t.Helper()
	_, _, err := Read(path, opt)
	if err == nil {
		t.Fatalf("%s %+v: no error, want %q", path, opt, want)
	}
	if !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) {
		t.Fatalf("error %q should name %s and say %q", err, path, want)
	}
}

func TestBadInput(t *testing.T) {
	le := binary.LittleEndian
	t.Run("wrong magic", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { return []byte(strings.Repeat("hello world\n", 20)) })
		wantErr(t, p, hsi.ReadOptions{}, "not a MAT file")
	})
	t.Run("short", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { return b[:40] })
		wantErr(t, p, hsi.ReadOptions{}, "too short")
	})
	t.Run("unknown class", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { b[offClass] = 99; return b })
		wantErr(t, p, hsi.ReadOptions{}, "no non-empty real numeric array")
		wantErr(t, p, hsi.ReadOptions{Var: "x"}, "class-99")
	})
	t.Run("unknown data type", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { le.PutUint32(b[offDataTyp:], 8); return b })
		wantErr(t, p, hsi.ReadOptions{}, "unknown data type 8")
	})
	t.Run("zero dimension", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { le.PutUint32(b[offDims:], 0); return b })
		wantErr(t, p, hsi.ReadOptions{Var: "x"}, "0-size dimension")
		wantErr(t, p, hsi.ReadOptions{}, "no non-empty")
	})
	t.Run("huge dimensions", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte {
			le.PutUint32(b[offDims:], 100000)
			le.PutUint32(b[offDims+4:], 100000)
			le.PutUint32(b[offDims+8:], 1000)
			return b
		})
		before := allocated()
		wantErr(t, p, hsi.ReadOptions{}, "damaged")
		if a := allocated() - before; a > 16<<20 {
			t.Errorf("%d bytes allocated for a declared 10^13-value array", a)
		}
	})
	t.Run("size field lies", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte { le.PutUint32(b[132:], 1<<30); return b })
		wantErr(t, p, hsi.ReadOptions{}, "truncated")
	})
	t.Run("compressed bomb", func(t *testing.T) {
		p := patched(t, "v5_double_3d_u.mat.golden", func(b []byte) []byte {
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			var tag [8]byte
			le.PutUint32(tag[:], miMATRIX)
			le.PutUint32(tag[4:], 1<<31)
			zw.Write(tag[:])
			zw.Write(make([]byte, 64))
			zw.Close()
			out := append([]byte(nil), b[:128]...)
			le.PutUint32(tag[:], miCOMPRESSED)
			le.PutUint32(tag[4:], uint32(z.Len()))
			out = append(out, tag[:]...)
			return append(out, z.Bytes()...)
		})
		wantErr(t, p, hsi.ReadOptions{}, "damaged")
	})
	t.Run("v7.3 huge dimensions", func(t *testing.T) {
		p := patched(t, "v73_earliest.mat.golden", func(b []byte) []byte {
			old := make([]byte, 24)
			le.PutUint64(old, 4)
			le.PutUint64(old[8:], 6)
			le.PutUint64(old[16:], 5)
			huge := make([]byte, 24)
			le.PutUint64(huge, 4000000)
			le.PutUint64(huge[8:], 6000000)
			le.PutUint64(huge[16:], 5000000)
			if !bytes.Contains(b, old) {
				t.Fatal("dataspace of contig_f64 not found")
			}
			return bytes.ReplaceAll(b, old, huge)
		})
		before := allocated()
		_, _, err := Read(p, hsi.ReadOptions{Var: "contig_f64"})
		if err == nil || !strings.Contains(err.Error(), p) {
			t.Fatalf("err = %v", err)
		}
		if a := allocated() - before; a > 16<<20 {
			t.Errorf("%d bytes allocated for a declared huge array", a)
		}
	})
}

// TestTruncated cuts goldens at many lengths: every cut gives an error that
// names the file, never a panic; cuts inside the data always fail.
func TestTruncated(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"v5_double_3d_u.mat.golden", "v5_single_3d_z.mat.golden", "v5be_int16_3d_z.mat.golden", "v5_multi_z.mat.golden", "v73_earliest.mat.golden", "v73_latest.mat.golden"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		step := max(1, len(b)/97)
		for cut := 0; cut < len(b); cut += step {
			p := filepath.Join(dir, "cut.mat.golden")
			if err := os.WriteFile(p, b[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Read(p, hsi.ReadOptions{})
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Errorf("%s cut at %d: error %q does not name the file", name, cut, err)
			}
			single := name == "v5_double_3d_u.mat.golden" || name == "v5_single_3d_z.mat.golden" || name == "v5be_int16_3d_z.mat.golden"
			if single && err == nil {
				t.Errorf("%s cut at %d of %d: no error", name, cut, len(b))
			}
		}
	}
}

func allocated() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.TotalAlloc
}

func TestErrNotNumericWrapped(t *testing.T) {
	_, _, err := Read(filepath.Join("testdata", "v5_multi_u.mat.golden"), hsi.ReadOptions{Var: "cellv"})
	if !errors.Is(err, ErrNotNumeric) {
		t.Errorf("err = %v, want ErrNotNumeric", err)
	}
}
