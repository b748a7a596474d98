package hdf5

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi/internal/fillgolden"
)

// TestFillValues: the elements of chunks never written (and of contiguous
// storage never allocated) read as the dataset's fill value, as h5py
// reads them (scripts/miniatures/fill_hdf5.py: an h5py fill value of
// -9999, netCDF-4's _FillValue and its default float fill 9.97e36, int16
// fill 7, the newest file format's version 3 message): Fill reports it,
// and the dataset read whole (Read), by rows (Slab.Read) and by windows
// of columns (Slab.ReadWindow) over a destination holding it gives h5py's
// values, element for element; the runs Slab.Run calls unwritten hold
// only the fill value.
func TestFillValues(t *testing.T) {
	dir := filepath.Join("..", "..", "products", "testdata", "fill")
	for _, g := range fillgolden.Load(t, dir) {
		t.Run(g.File, func(t *testing.T) {
			fh, err := os.Open(filepath.Join(dir, g.File))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			st, _ := fh.Stat()
			f, err := Open(fh, st.Size())
			if err != nil {
				t.Fatal(err)
			}
			o, err := f.Open(strings.TrimPrefix(g.Dataset, "/"))
			if err != nil {
				t.Fatal(err)
			}
			fill, err := o.Fill()
			if err != nil {
				t.Fatal(err)
			}
			if fill != g.Fill {
				t.Fatalf("Fill() = %v, h5py's fillvalue %v", fill, g.Fill)
			}
			n := len(g.Values)
			newDst := func() []float64 {
				d := make([]float64, n)
				for i := range d {
					d[i] = fill
				}
				return d
			}
			into := func(dst []float64) func(uint64, []byte) error {
				return func(start uint64, raw []byte) error {
					k := len(raw) / o.Type.Size
					o.Type.Decode(raw, dst[start:int(start)+k])
					return nil
				}
			}
			check := func(what string, got []float64) {
				t.Helper()
				for i := range got {
					if got[i] != g.Values[i] {
						t.Fatalf("%s: element %d = %v, h5py reads %v", what, i, got[i], g.Values[i])
					}
				}
			}
			whole := newDst()
			if err := o.Read(into(whole)); err != nil {
				t.Fatal(err)
			}
			check("Read", whole)

			s, err := o.Slab(0)
			if err != nil {
				t.Fatal(err)
			}
			rows := newDst()
			row := n / int(g.Shape[0])
			for lo := uint64(0); lo < g.Shape[0]; {
				hi, written := s.Run(lo)
				if !written {
					for i := int(lo) * row; i < int(hi)*row; i++ {
						if g.Values[i] != fill {
							t.Fatalf("run [%d, %d) unwritten, h5py reads %v at %d", lo, hi, g.Values[i], i)
						}
					}
				}
				if err := s.Read(lo, hi, into(rows)); err != nil {
					t.Fatal(err)
				}
				lo = hi
			}
			check("Slab.Read", rows)
			if s.Extent(1) > 0 { // chunked: windows of one chunk column
				win := newDst()
				for x := uint64(0); x < g.Shape[1]; x += s.Extent(1) {
					if err := s.ReadWindow(0, g.Shape[0], 1, x, min(g.Shape[1], x+s.Extent(1)), into(win)); err != nil {
						t.Fatal(err)
					}
				}
				check("Slab.ReadWindow", win)
			}
		})
	}
}

// TestParseFill: every version of the Fill Value message and the old one,
// defined, undefined, default (size 0) and never written, and malformed
// messages (truncated, a size past the message, unknown flags or version,
// shared), which are errors (Fill then reports them), never a panic.
func TestParseFill(t *testing.T) {
	f32 := []byte{0x00, 0x3c, 0x1c, 0xc6} // -9999 float32 little-endian
	sized := func(b []byte) []byte {
		return append([]byte{byte(len(b)), 0, 0, 0}, b...)
	}
	cat := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		typ   uint16
		flags uint8
		b     []byte
		want  []byte
		err   string
	}{
		{"v1 defined", msgFill, 0, cat([]byte{1, 2, 2, 1}, sized(f32)), f32, ""},
		{"v1 undefined", msgFill, 0, cat([]byte{1, 2, 2, 0}, sized(nil)), nil, ""},
		{"v2 defined", msgFill, 0, cat([]byte{2, 3, 2, 1}, sized(f32)), f32, ""},
		{"v2 default", msgFill, 0, cat([]byte{2, 3, 2, 1}, sized(nil)), nil, ""},
		{"v2 undefined", msgFill, 0, []byte{2, 3, 2, 0}, nil, ""},
		{"v2 never written", msgFill, 0, cat([]byte{2, 3, 1, 1}, sized(f32)), nil, ""},
		{"v3 value", msgFill, 0, cat([]byte{3, 0x20 | 2<<2 | 2}, sized(f32)), f32, ""},
		{"v3 default", msgFill, 0, []byte{3, 2<<2 | 2}, nil, ""},
		{"v3 undefined", msgFill, 0, []byte{3, 0x10 | 2}, nil, ""},
		{"v3 never written", msgFill, 0, cat([]byte{3, 0x20 | 1<<2 | 2}, sized(f32)), nil, ""},
		{"old", msgFillOld, 0, sized(f32), f32, ""},
		{"old empty", msgFillOld, 0, sized(nil), nil, ""},
		{"empty", msgFill, 0, nil, nil, "truncated"},
		{"v2 truncated", msgFill, 0, []byte{2, 3, 2, 1, 4, 0}, nil, "truncated"},
		{"v3 size past the message", msgFill, 0, cat([]byte{3, 0x20}, []byte{0xff, 0xff, 0xff, 0xff}, f32), nil, "truncated"},
		{"old size past the message", msgFillOld, 0, []byte{9, 0, 0, 0, 1}, nil, "truncated"},
		{"v3 unknown flags", msgFill, 0, []byte{3, 0x40}, nil, "flags"},
		{"v3 undefined and a value", msgFill, 0, cat([]byte{3, 0x30}, sized(f32)), nil, "flags"},
		{"v2 write time 3", msgFill, 0, cat([]byte{2, 3, 3, 1}, sized(f32)), nil, "write time"},
		{"version 4", msgFill, 0, []byte{4, 0}, nil, "version 4"},
		{"shared", msgFill, 2, cat([]byte{3, 0x20}, sized(f32)), nil, "shared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseFill(tc.typ, tc.flags, tc.b)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want one saying %q", err, tc.err)
				}
				o := &Object{Name: "d", Type: Datatype{Class: ClassFloat, Size: 4}, fillErr: err}
				if _, err := o.Fill(); err == nil || !strings.Contains(err.Error(), "dataset d") {
					t.Fatalf("Fill() err = %v, want the message's error naming the dataset", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(tc.want) {
				t.Fatalf("fill bytes % x, want % x", got, tc.want)
			}
		})
	}
	// a fill value of another size than the element
	o := &Object{Name: "d", Type: Datatype{Class: ClassFixed, Size: 2, Signed: true}, fill: f32}
	if _, err := o.Fill(); err == nil || !strings.Contains(err.Error(), "4 bytes for elements of 2") {
		t.Fatalf("Fill() err = %v, want a size mismatch", err)
	}
	o.Type = Datatype{Class: ClassFloat, Size: 4}
	if v, err := o.Fill(); err != nil || v != -9999 {
		t.Fatalf("Fill() = %v, %v, want -9999", v, err)
	}
	o.fill = nil
	if v, err := o.Fill(); err != nil || v != 0 || math.Signbit(v) {
		t.Fatalf("Fill() with none defined = %v, %v, want 0", v, err)
	}
}

// TestHostileFill: explicit_fill.h5 (an h5py file: the Fill Value message
// version 2 and the old one beside it, both -9999) with its messages
// altered. Without the new message the old one gives the fill value;
// without both, 0. A size past the message, a size that is not the
// element's, an unknown version: the file opens (another dataset may be
// read), and Fill, which every read of the dataset asks first, is an
// error naming the dataset and the problem.
func TestHostileFill(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "products", "testdata", "fill", "explicit_fill.h5"))
	if err != nil {
		t.Fatal(err)
	}
	v := []byte{0x00, 0x3c, 0x1c, 0xc6} // -9999 float32 little-endian
	newAt := bytes.Index(b, append([]byte{2, 3, 0, 1, 4, 0, 0, 0}, v...))
	oldAt := bytes.Index(b, append([]byte{4, 0, 8, 0, 1, 0, 0, 0, 4, 0, 0, 0}, v...))
	if newAt < 8 || oldAt < 0 || b[newAt-8] != msgFill {
		t.Fatalf("fill value messages not found (%d, %d)", newAt, oldAt)
	}
	newType, oldType := newAt-8, oldAt // header message types (version 1 headers)
	for _, tc := range []struct {
		name  string
		patch map[int]byte
		want  float64
		err   string
	}{
		{"as written", nil, -9999, ""},
		{"new message dropped", map[int]byte{newType: msgNil}, -9999, ""},
		{"both dropped", map[int]byte{newType: msgNil, oldType: msgNil}, 0, ""},
		{"size past the message", map[int]byte{newAt + 4: 0xff, newAt + 5: 0xff, newAt + 6: 0xff, newAt + 7: 0xff}, 0, "truncated"},
		{"size of 2 bytes", map[int]byte{newAt + 4: 2}, 0, "a fill value of 2 bytes for elements of 4"},
		{"version 9", map[int]byte{newAt: 9}, 0, "version 9"},
		{"old message, size past it", map[int]byte{newType: msgNil, oldAt + 8: 0xff}, 0, "truncated"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := bytes.Clone(b)
			for at, x := range tc.patch {
				h[at] = x
			}
			o := member(t, openBytes(t, h), "cube")
			fill, err := o.Fill()
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "dataset cube") {
					t.Fatalf("Fill() = %v, %v; want an error naming the dataset and saying %q", fill, err, tc.err)
				}
				return
			}
			if err != nil || fill != tc.want {
				t.Fatalf("Fill() = %v, %v; want %v", fill, err, tc.want)
			}
		})
	}
}
