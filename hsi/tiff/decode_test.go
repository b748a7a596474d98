package tiff

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// TestDecodeMatchesRead checks that Decode of a file's bytes gives what
// Read of the file gives: the same samples, bit for bit, metadata and
// source description.
func TestDecodeMatchesRead(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.tif"))
	if len(paths) == 0 {
		t.Fatal("no test files")
	}
	for _, p := range paths {
		want, wantInfo, wantErr := Read(p, hsi.ReadOptions{})
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, gotInfo, gotErr := Decode(bytes.NewReader(b), int64(len(b)), hsi.ReadOptions{})
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("%s: Read error %v, Decode error %v", p, wantErr, gotErr)
			continue
		}
		var nf *hsi.NonFiniteError
		if wantErr != nil && !errors.As(wantErr, &nf) {
			continue // no cube either way
		}
		if (want == nil) != (got == nil) {
			t.Errorf("%s: Read cube %v, Decode cube %v", p, want != nil, got != nil)
			continue
		}
		if want == nil {
			continue
		}
		if got.H != want.H || got.W != want.W || got.B != want.B {
			t.Errorf("%s: Decode %dx%dx%d, Read %dx%dx%d", p, got.H, got.W, got.B, want.H, want.W, want.B)
			continue
		}
		for i := range want.Data {
			if math.Float32bits(got.Data[i]) != math.Float32bits(want.Data[i]) {
				t.Errorf("%s: sample %d: Decode %v, Read %v", p, i, got.Data[i], want.Data[i])
				break
			}
		}
		if !reflect.DeepEqual(got.Meta, want.Meta) {
			t.Errorf("%s: metadata differs:\nDecode %+v\nRead   %+v", p, got.Meta, want.Meta)
		}
		if gotInfo != wantInfo {
			t.Errorf("%s: source info differs:\nDecode %+v\nRead   %+v", p, gotInfo, wantInfo)
		}
	}
}

// failAt is an io.ReaderAt over b whose reads past offset at fail.
type failAt struct {
	b  []byte
	at int64
}

var errDevice = errors.New("device gone")

func (f failAt) ReadAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) > f.at {
		n := 0
		if off < f.at {
			n = copy(p, f.b[off:f.at])
		}
		return n, errDevice
	}
	return copy(p, f.b[off:]), nil
}

// TestDecodeTruncated cuts every test file at many lengths, and fails its
// reads past those lengths, and claims a size larger than the data: each
// must give an error or a valid cube, never a panic.
func TestDecodeTruncated(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.tif"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := len(b)
		step := max(1, n/48)
		for cut := 0; cut < n; cut += step {
			for _, r := range []struct {
				name string
				r    io.ReaderAt
				size int64
			}{
				{"cut", bytes.NewReader(b[:cut]), int64(cut)},
				{"failing reads", failAt{b, int64(cut)}, int64(n)},
				{"size beyond the data", bytes.NewReader(b[:cut]), int64(n)},
			} {
				c, _, err := Decode(r.r, r.size, hsi.ReadOptions{})
				var nf *hsi.NonFiniteError
				if err != nil && !errors.As(err, &nf) {
					continue
				}
				if c == nil {
					t.Fatalf("%s, %s at %d of %d bytes: no cube and no error", p, r.name, cut, n)
				}
				if verr := c.Validate(); verr != nil {
					t.Fatalf("%s, %s at %d of %d bytes: invalid cube: %v", p, r.name, cut, n, verr)
				}
			}
		}
		if _, _, err := Decode(bytes.NewReader(b), -1, hsi.ReadOptions{}); err == nil {
			t.Errorf("%s: a negative size gave no error", p)
		}
	}
}
