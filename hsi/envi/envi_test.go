package envi

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// testCube returns a cube whose values fit type t exactly, including the
// type's extremes where float32 holds them.
func testCube(h, w, b int, t sample.Type) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	lo, hi := t.Range()
	for i := range c.Data {
		var v float64
		switch {
		case t.IsFloat():
			v = math.Sin(float64(i)*1.37) * 1e4 / float64(i%7+1)
		default:
			v = lo + float64((i*7919)%1000)/999*(math.Min(hi, 1<<40)-lo)
			v = math.Round(v)
		}
		c.Data[i] = fit(v, hi)
	}
	if !t.IsFloat() {
		c.Data[0] = float32(lo)
		c.Data[len(c.Data)-1] = fit(hi, hi)
	}
	return c
}

// fit rounds v to float32, downwards when rounding would pass hi (2^31-1
// and similar round up to 2^31 in float32).
func fit(v, hi float64) float32 {
	f := float32(v)
	if float64(f) > hi || (hi >= 1<<63 && float64(f) >= hi) { // 64-bit bounds are rounded up
		f = math.Nextafter32(f, 0)
	}
	return f
}

func fullMeta(b int) hsi.Meta {
	m := hsi.Meta{WavelengthUnits: "Nanometers", Description: "round trip {test}", HasDataIgnore: true, DataIgnore: -9999}
	for i := 0; i < b; i++ {
		m.Wavelengths = append(m.Wavelengths, 400+float64(i)*10.125)
		m.FWHM = append(m.FWHM, 9.5+float64(i)/3)
		m.BadBands = append(m.BadBands, i%3 == 1)
		m.BandNames = append(m.BandNames, fmt.Sprintf("band %d", i+1))
	}
	m.Geo = &hsi.Geo{MapInfo: "UTM, 1, 1, 620000, 4200000, 30, 30, 33, North, WGS-84", CoordSys: `PROJCS["x",GEOGCS["y"]]`, ProjectionInfo: "3, 6378137.0, 6356752.3, 0, 0, WGS-84"}
	return m
}

func TestRoundTripEveryTypeAndInterleave(t *testing.T) {
	types := []sample.Type{sample.Uint8, sample.Int16, sample.Uint16, sample.Int32, sample.Uint32, sample.Int64, sample.Uint64, sample.Float32, sample.Float64}
	dir := t.TempDir()
	for _, typ := range types {
		for _, il := range []string{"bsq", "bil", "bip"} {
			c := testCube(9, 11, 5, typ)
			c.Meta = fullMeta(5)
			p := filepath.Join(dir, fmt.Sprintf("%s_%s.hdr", typ, il))
			if err := Write(p, c, hsi.WriteOptions{DataType: typ, Interleave: hsi.Interleave(il)}); err != nil {
				t.Fatalf("%s %s: %v", typ, il, err)
			}
			got, info, err := Read(p, hsi.ReadOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", typ, il, err)
			}
			if info.DataType != typ.String() || info.Layout != il {
				t.Errorf("info %+v", info)
			}
			sameCube(t, got, c)
		}
	}
}

func sameCube(t *testing.T, got, want *hsi.Cube) {
	t.Helper()
	if got.H != want.H || got.W != want.W || got.B != want.B {
		t.Fatalf("shape %dx%dx%d, want %dx%dx%d", got.H, got.W, got.B, want.H, want.W, want.B)
	}
	for i := range want.Data {
		if got.Data[i] != want.Data[i] {
			t.Fatalf("value %d = %v, want %v", i, got.Data[i], want.Data[i])
		}
	}
	gm, wm := got.Meta, want.Meta
	wm.Description = sanitize(wm.Description, false)
	if !equalF(gm.Wavelengths, wm.Wavelengths) || !equalF(gm.FWHM, wm.FWHM) || gm.WavelengthUnits != wm.WavelengthUnits ||
		fmt.Sprint(gm.BadBands) != fmt.Sprint(wm.BadBands) || strings.Join(gm.BandNames, "|") != strings.Join(wm.BandNames, "|") ||
		gm.HasDataIgnore != wm.HasDataIgnore || gm.DataIgnore != wm.DataIgnore || gm.Description != wm.Description {
		t.Fatalf("meta %+v, want %+v", gm, wm)
	}
	if (gm.Geo == nil) != (wm.Geo == nil) || (gm.Geo != nil && (gm.Geo.MapInfo != wm.Geo.MapInfo || gm.Geo.CoordSys != wm.Geo.CoordSys || gm.Geo.ProjectionInfo != wm.Geo.ProjectionInfo)) {
		t.Fatalf("geo %+v, want %+v", gm.Geo, wm.Geo)
	}
}

func TestDefaultsAndPaths(t *testing.T) {
	dir := t.TempDir()
	c := testCube(3, 4, 2, sample.Float32)
	for _, tc := range []struct{ arg, hdr, data string }{
		{"a.hdr", "a.hdr", "a.img"},
		{"b.img", "b.hdr", "b.img"},
		{"c.dat", "c.hdr", "c.dat"},
		{"d", "d.hdr", "d"},
	} {
		if err := Write(filepath.Join(dir, tc.arg), c, hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{tc.hdr, tc.data} {
			if !isFile(filepath.Join(dir, f)) {
				t.Errorf("Write(%s) did not create %s", tc.arg, f)
			}
		}
		got, info, err := Read(filepath.Join(dir, tc.arg), hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if info.DataType != "float32" || info.Layout != "bsq" {
			t.Errorf("defaults: %+v, want float32 bsq", info)
		}
		sameCube(t, got, c)
	}
	hdr, _ := os.ReadFile(filepath.Join(dir, "a.hdr"))
	if !strings.Contains(string(hdr), "byte order = 0") || !strings.Contains(string(hdr), "data type = 4") {
		t.Errorf("header:\n%s", hdr)
	}
}

// writeRaw writes a header and data file for error tests.
func writeRaw(t *testing.T, hdr string, data []byte) string {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, "x.hdr")
	if err := os.WriteFile(p, []byte(hdr), 0o644); err != nil {
		t.Fatal(err)
	}
	if data != nil {
		if err := os.WriteFile(filepath.Join(dir, "x.img"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

const okHeader = "ENVI\nsamples = 2\nlines = 3\nbands = 4\ndata type = 2\ninterleave = bip\nbyte order = 0\n"

func TestReadErrors(t *testing.T) {
	good := make([]byte, 2*3*4*2)
	nanData := make([]byte, 2*3*4*4)
	// float32 NaN at pixel (row 1, col 0), band 2 in bip: index (1*2+0)*4+2 = 10.
	copy(nanData[40:], []byte{0, 0, 0xc0, 0x7f})
	copy(nanData[60:], []byte{0, 0, 0x80, 0x7f}) // +Inf at index 15
	for _, tc := range []struct {
		name, hdr string
		data      []byte
		want      string
	}{
		{"truncated", okHeader, good[:47], "holds 47 bytes, but header "},
		{"offset lies", okHeader + "header offset = 10\n", good, "promises 58"},
		{"no samples", strings.Replace(okHeader, "samples = 2\n", "", 1), good, `required field "samples" is missing`},
		{"no lines", strings.Replace(okHeader, "lines = 3\n", "", 1), good, `required field "lines" is missing`},
		{"no bands", strings.Replace(okHeader, "bands = 4\n", "", 1), good, `required field "bands" is missing`},
		{"no data type", strings.Replace(okHeader, "data type = 2\n", "", 1), good, `required field "data type" is missing`},
		{"zero bands", strings.Replace(okHeader, "bands = 4", "bands = 0", 1), good, "bands = 0"},
		{"negative lines", strings.Replace(okHeader, "lines = 3", "lines = -3", 1), good, "lines = -3"},
		{"unknown type", strings.Replace(okHeader, "data type = 2", "data type = 7", 1), good, "unknown data type = 7"},
		{"complex type", strings.Replace(okHeader, "data type = 2", "data type = 6", 1), good, "complex"},
		{"bad number", strings.Replace(okHeader, "samples = 2", "samples = two", 1), good, `"samples" = "two" is not an integer`},
		{"bad byte order", strings.Replace(okHeader, "byte order = 0", "byte order = 2", 1), good, "byte order = 2"},
		{"bad interleave", strings.Replace(okHeader, "bip", "bpi", 1), good, `interleave = "bpi"`},
		{"not envi", "NOTENVI\n" + okHeader[5:], good, "not an ENVI header"},
		{"open brace", okHeader + "wavelength = {1, 2,\n3, 4\n", good, "never closed"},
		{"wavelength count", okHeader + "wavelength = {1, 2, 3}\n", good, `"wavelength" has 3 values for 4 bands`},
		{"bbl count", okHeader + "bbl = {1, 1}\n", good, `"bbl" has 2 values for 4 bands`},
		{"names count", okHeader + "band names = {a, b, c, d, e}\n", good, "5 names for 4 bands"},
		{"bad wavelength", okHeader + "wavelength = {1, x, 3, 4}\n", good, `"wavelength" value 2 = "x"`},
		{"no data file", okHeader, nil, "no data file beside the header"},
		{"nan", strings.Replace(okHeader, "data type = 2", "data type = 4", 1), nanData, "2 non-finite value(s) (NaN, infinite or beyond the float32 range); the first, NaN, at row 1, column 0, band 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := writeRaw(t, tc.hdr, tc.data)
			c, _, err := Read(p, hsi.ReadOptions{})
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q does not contain %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), filepath.Dir(p)) {
				t.Fatalf("error %q does not name the file", err)
			}
			var nf *hsi.NonFiniteError
			if errors.As(err, &nf) {
				if c == nil || nf.Count != 2 || nf.Row != 1 || nf.Col != 0 || nf.Band != 2 {
					t.Fatalf("NonFiniteError %+v, cube %v", nf, c != nil)
				}
			} else if c != nil {
				t.Fatal("a cube came back with a non-NaN error")
			}
		})
	}
}

// TestNaNPositionEveryInterleave puts one NaN at a known position and
// checks that every interleave reports it there.
func TestNaNPositionEveryInterleave(t *testing.T) {
	for _, il := range []string{"bsq", "bil", "bip"} {
		c := testCube(4, 5, 3, sample.Float32)
		dir := t.TempDir()
		p := filepath.Join(dir, "n.hdr")
		if err := Write(p, c, hsi.WriteOptions{Interleave: hsi.Interleave(il)}); err != nil {
			t.Fatal(err)
		}
		// Patch the data file: row 2, col 3, band 1 and row 3, col 0, band 0.
		data, _ := os.ReadFile(filepath.Join(dir, "n.img"))
		idx := func(y, x, b int) int {
			switch il {
			case "bip":
				return (y*5+x)*3 + b
			case "bil":
				return (y*3+b)*5 + x
			}
			return (b*4+y)*5 + x
		}
		for _, i := range []int{idx(3, 0, 0), idx(2, 3, 1)} {
			copy(data[4*i:], []byte{0, 0, 0xc0, 0x7f})
		}
		os.WriteFile(filepath.Join(dir, "n.img"), data, 0o644)
		_, _, err := Read(p, hsi.ReadOptions{})
		var nf *hsi.NonFiniteError
		if !errors.As(err, &nf) || nf.Row != 2 || nf.Col != 3 || nf.Band != 1 || nf.Count != 2 {
			t.Fatalf("%s: %v", il, err)
		}
	}
}

func TestReadNoHeader(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "lonely.img")
	os.WriteFile(p, make([]byte, 8), 0o644)
	if _, _, err := Read(p, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "no header") {
		t.Fatalf("err = %v", err)
	}
}

// TestTooLargeForMemory checks that a header promising more than the
// memory available is refused before allocation. The data file is sparse.
func TestTooLargeForMemory(t *testing.T) {
	hdr := "ENVI\nsamples = 4096\nlines = 4096\nbands = 64\ndata type = 1\n"
	p := writeRaw(t, hdr, nil)
	data := filepath.Join(filepath.Dir(p), "x.img")
	f, err := os.Create(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(4096 * 4096 * 64); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	t.Setenv("OMNIHSR_MEM_LIMIT", "256M")
	_, _, err = Read(p, hsi.ReadOptions{})
	if !errors.Is(err, memlimit.ErrTooLarge) || !strings.Contains(err.Error(), data) {
		t.Fatalf("err = %v", err)
	}
}

func TestWriteErrorsLeaveNothing(t *testing.T) {
	nanCube := testCube(3, 4, 2, sample.Float32)
	nanCube.Data[13] = float32(math.NaN())
	infCube := testCube(3, 4, 2, sample.Float32)
	infCube.Data[13] = float32(math.Inf(1))
	big := hsi.MustNew(3, 4, 2)
	big.Data[5] = 300
	for _, tc := range []struct {
		name string
		c    *hsi.Cube
		opt  hsi.WriteOptions
		want string
	}{
		{"inf", infCube, hsi.WriteOptions{}, "+Inf at row 1, column 2, band 1"},
		{"nan int", nanCube, hsi.WriteOptions{DataType: sample.Int16, Interleave: "bil"}, "NaN at row 1, column 2, band 1"},
		{"too big", big, hsi.WriteOptions{DataType: sample.Uint8, Interleave: "bip"}, "value 300 at row 0, column 2, band 1 (0-based) does not fit uint8"},
		{"bad type", big, hsi.WriteOptions{DataType: sample.Type(99)}, `unknown data type Type(99)`},
		{"int8", big, hsi.WriteOptions{DataType: sample.Int8}, "cannot be stored in ENVI"},
		{"bad interleave", big, hsi.WriteOptions{Interleave: "bxx"}, `interleave "bxx"`},
		{"empty", &hsi.Cube{H: 2, W: 2, B: 0}, hsi.WriteOptions{}, "zero dimension"},
		{"short data", &hsi.Cube{H: 2, W: 2, B: 1, Data: make([]float32, 3)}, hsi.WriteOptions{}, "holds 3 values"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := Write(filepath.Join(dir, "out.hdr"), tc.c, tc.opt)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), "out.") {
				t.Fatalf("error %q does not name the file", err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Fatalf("files left behind: %v", ents)
			}
		})
	}
}

func TestHeaderParsing(t *testing.T) {
	text := "\xef\xbb\xbf\n  ENVI\r\n; comment = not a field\r\nSamples=3\r\n  lines   =   2 \r\nbands = 1\r\n" +
		"data type = 4.0\r\ndescription = {a {nested} value\r\n ; not a comment inside braces\r\n}\r\n" +
		"wavelength = {\r\n1.5,\r\n}\r\nstray line without equals\r\nbbl = {1.0}\r\nheader offset = 0\r\n"
	h, err := parseHeader([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	if h.samples != 3 || h.lines != 2 || h.bands != 1 || h.typ != sample.Float32 || h.interleave != "bsq" || h.bigEndian {
		t.Fatalf("header %+v", h)
	}
	if d := h.fields["description"]; d != "a {nested} value\n ; not a comment inside braces" {
		t.Fatalf("description %q", d)
	}
	if _, ok := h.fields["comment"]; ok {
		t.Fatal("a comment line was parsed as a field")
	}
	m, err := h.meta()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Wavelengths) != 1 || m.Wavelengths[0] != 1.5 || m.BadBands[0] {
		t.Fatalf("meta %+v", m)
	}
}

func TestReadHeaderOnly(t *testing.T) {
	h, w, b, m, info, err := ReadHeader("testdata/spectral_meta.img")
	if err != nil {
		t.Fatal(err)
	}
	if h != 5 || w != 7 || b != 4 || len(m.Wavelengths) != 4 || info.DataType != "int16" {
		t.Fatalf("%d %d %d %+v %+v", h, w, b, m, info)
	}
}

// A BSQ file of several blocks of pixels (read on several cores) comes
// back whole, and its non-finite samples are counted in every block, the
// first named in raster order.
func TestReadBSQBlocks(t *testing.T) {
	const H, W, B = 260, 300, 3 // 78,000 pixels: two blocks
	c := testCube(H, W, B, sample.Float32)
	dir := t.TempDir()
	p := filepath.Join(dir, "b.hdr")
	if err := Write(p, c, hsi.WriteOptions{Interleave: "bsq"}); err != nil {
		t.Fatal(err)
	}
	got, _, err := Read(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range c.Data {
		if got.Data[i] != v {
			t.Fatalf("value %d is %v, want %v", i, got.Data[i], v)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "b.img"))
	for _, q := range [][3]int{{259, 299, 0}, {250, 0, 2}, {200, 5, 1}} {
		i := (q[2]*H+q[0])*W + q[1]
		copy(data[4*i:], []byte{0, 0, 0xc0, 0x7f})
	}
	os.WriteFile(filepath.Join(dir, "b.img"), data, 0o644)
	_, _, err = Read(p, hsi.ReadOptions{})
	var nf *hsi.NonFiniteError
	if !errors.As(err, &nf) || nf.Row != 200 || nf.Col != 5 || nf.Band != 1 || nf.Count != 3 {
		t.Fatalf("%v (%+v)", err, nf)
	}
}
