package formats

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/testfiles"
)

// fuzzExts are the single-file formats FuzzOpenMatchesRead writes its
// input as (ENVI needs two files).
var fuzzExts = []string{".tif", ".npy", ".png", ".h5", ".nc", ".he5", ".mat"}

// FuzzOpenMatchesRead: on any bytes, in any single-file format, Read,
// Open, ReadRows and Close never panic; what Read reads, Open reads the
// same, whole and a row at a time (as TestOpenMatchesRead asserts on the
// committed files); and what Read refuses, Open refuses or its rows fail,
// so that no window read (Python's, upscale's streaming) returns samples
// of a file the whole read calls bad.
func FuzzOpenMatchesRead(f *testing.F) {
	for _, p := range testfiles.Committed(filepath.Join("..", "..")) {
		ext := strings.ToLower(filepath.Ext(p))
		i := slices.Index(fuzzExts, ext)
		if fi, err := os.Stat(p); i < 0 || err != nil || fi.Size() > 1<<16 {
			continue
		}
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b, uint8(i))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, ext uint8) {
		p := filepath.Join(t.TempDir(), "f"+fuzzExts[int(ext)%len(fuzzExts)])
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		want, info, rerr := Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		readOK := rerr == nil || errors.As(rerr, &nf)
		src, err := Open(p, hsi.ReadOptions{})
		if err != nil {
			if readOK {
				t.Fatalf("Read reads it, Open: %v", err)
			}
			return
		}
		defer src.Close()
		hd := src.Header()
		if hd.H <= 0 || hd.W <= 0 || hd.B <= 0 {
			t.Fatalf("Open's header %dx%dx%d", hd.H, hd.W, hd.B)
		}
		if int64(hd.H)*int64(hd.W)*int64(hd.B) > 1<<18 {
			return // larger than the fuzzer's inputs need; the committed files' tests read those
		}
		got := make([]float32, hd.H*hd.W*hd.B)
		err = src.ReadRows(0, hd.H, got)
		if !readOK {
			if err == nil {
				t.Fatalf("Read: %v; Open reads every row without an error", rerr)
			}
			return
		}
		if hd.H != want.H || hd.W != want.W || hd.B != want.B || !reflect.DeepEqual(hd.Meta, want.Meta) || hd.Info != info {
			t.Fatalf("header %dx%dx%d %+v, Read %dx%dx%d %+v", hd.H, hd.W, hd.B, hd.Info, want.H, want.W, want.B, info)
		}
		if nf != nil {
			var g *hsi.NonFiniteError
			if !errors.As(err, &g) || *g != *nf {
				t.Fatalf("ReadRows error %v, Read's %v", err, nf)
			}
		} else if err != nil {
			t.Fatalf("ReadRows: %v", err)
		}
		if !same(got, want.Data) {
			t.Fatal("rows differ from Read's")
		}
		row := hd.W * hd.B
		for y := hd.H - 1; y >= 0; y -= max(1, hd.H/8) {
			if err := src.ReadRows(y, y+1, got[:row]); err != nil && nf == nil {
				t.Fatalf("row %d: %v", y, err)
			}
			if !same(got[:row], want.Data[y*row:(y+1)*row]) {
				t.Fatalf("row %d differs from Read's", y)
			}
		}
	})
}
