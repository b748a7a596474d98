package decodetest

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// ReadFunc is a format's Read.
type ReadFunc func(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error)

// DecodeFunc is a format's Decode.
type DecodeFunc func(r io.ReaderAt, size int64, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error)

// MatchesRead checks that decode of each file's bytes gives what read of
// the file gives: the same error or none, the same samples bit for bit,
// metadata and source description.
func MatchesRead(t *testing.T, paths []string, read ReadFunc, decode DecodeFunc) {
	t.Helper()
	if len(paths) == 0 {
		t.Fatal("no test files")
	}
	for _, p := range paths {
		want, wantInfo, wantErr := read(p, hsi.ReadOptions{})
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, gotInfo, gotErr := decode(bytes.NewReader(b), int64(len(b)), hsi.ReadOptions{})
		if (wantErr == nil) != (gotErr == nil) || (want == nil) != (got == nil) {
			t.Errorf("%s: Read gives a cube %v and error %v, Decode a cube %v and error %v", p, want != nil, wantErr, got != nil, gotErr)
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

// Cuts is how many lengths Truncated cuts each file at.
const Cuts = 48

// Truncated cuts each file at Cuts lengths and decodes the rest, with the
// size it has, with the size of the whole file (a reader that ends early),
// and the whole file through a reader whose reads past the cut fail: each
// must give an error or a valid cube (a NaN sample's *hsi.NonFiniteError
// comes with one), never a panic. A negative size must be an error.
func Truncated(t *testing.T, paths []string, decode DecodeFunc) {
	t.Helper()
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := len(b)
		for cut := 0; cut < n; cut += max(1, n/Cuts) {
			for _, r := range []struct {
				name string
				r    io.ReaderAt
				size int64
			}{
				{"cut", bytes.NewReader(b[:cut]), int64(cut)},
				{"failing reads", failAt{b, int64(cut)}, int64(n)},
				{"size beyond the data", bytes.NewReader(b[:cut]), int64(n)},
			} {
				c, _, err := decode(r.r, r.size, hsi.ReadOptions{})
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
		if _, _, err := decode(bytes.NewReader(b), -1, hsi.ReadOptions{}); err == nil {
			t.Errorf("%s: a negative size gave no error", p)
		}
	}
}
