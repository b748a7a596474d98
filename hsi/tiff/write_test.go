package tiff

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/image/tiff/lzw"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/testrand"
)

// smoothCube is compressible: a ramp plus a little noise.
func smoothCube(h, w, b int, integer bool) *hsi.Cube {
	c := hsi.MustNew(h, w, b)
	r := rand.New(rand.NewPCG(3, 4))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			for k := 0; k < b; k++ {
				v := float64(y+2*x+3*k) + r.Float64()*4
				if integer {
					v = math.Round(v)
				}
				c.Set(y, x, k, float32(v))
			}
		}
	}
	return c
}

// TestRoundTrip writes every sample type with every compression and reads
// the file back, metadata and georeferencing included.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	types := []struct {
		dt      sample.Type
		lo, hi  float64
		integer bool
	}{
		{sample.Invalid, -1e4, 1e4, false},
		{sample.Float32, -1, 1, false},
		{sample.Float64, -1e6, 1e6, false},
		{sample.Uint8, 0, 255, true},
		{sample.Int8, -128, 127, true},
		{sample.Uint16, 0, 65535, true},
		{sample.Int16, -32768, 32767, true},
		{sample.Uint32, 0, 1e9, true},
		{sample.Int32, -1e9, 1e9, true},
	}
	sizes := [][3]int{{1, 1, 1}, {7, 9, 5}, {3, 300, 2}, {130, 11, 3}, {4, 4, 40}}
	for _, tc := range types {
		for _, comp := range []string{"none", "deflate", "lzw"} {
			for si, sz := range sizes {
				gen := testrand.Uniform
				if tc.integer {
					gen = testrand.Integers
				}
				c := gen(testrand.New(uint64(si+1), 7), sz[0], sz[1], sz[2], tc.lo, tc.hi)
				if si == 3 && tc.hi >= 1000 {
					c = smoothCube(sz[0], sz[1], sz[2], tc.integer)
				}
				c.Meta.Wavelengths = make([]float64, c.B)
				c.Meta.FWHM = make([]float64, c.B)
				c.Meta.BandNames = make([]string, c.B)
				for i := 0; i < c.B; i++ {
					c.Meta.Wavelengths[i] = 0.4 + 0.01*float64(i)
					c.Meta.FWHM[i] = 0.005
					c.Meta.BandNames[i] = "b" + string(rune('A'+i%26))
				}
				c.Meta.WavelengthUnits = "Micrometers"
				c.Meta.DataIgnore, c.Meta.HasDataIgnore = -1, true
				c.Meta.Description = "round trip"
				c.Meta.Geo = &hsi.Geo{
					PixelScale: []float64{30, 30, 0},
					Tiepoints:  []float64{0, 0, 0, 500000, 4200000, 0},
					GeoKeys:    []uint16{1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32613},
				}
				path := filepath.Join(dir, "rt.tif")
				if err := Write(path, c, hsi.WriteOptions{DataType: tc.dt, Compression: hsi.Compression(comp)}); err != nil {
					t.Fatalf("%s %s %v: %v", tc.dt, comp, sz, err)
				}
				back, info, err := Read(path, hsi.ReadOptions{})
				if err != nil {
					t.Fatalf("%s %s %v: %v", tc.dt, comp, sz, err)
				}
				want := tc.dt
				if want == sample.Invalid {
					want = sample.Float32
				}
				if info.DataType != want.String() || info.Format != "GeoTIFF" {
					t.Errorf("%s: info %+v", tc.dt, info)
				}
				if back.H != c.H || back.W != c.W || back.B != c.B {
					t.Fatalf("read back %dx%dx%d, wrote %dx%dx%d", back.H, back.W, back.B, c.H, c.W, c.B)
				}
				for i := range c.Data {
					if back.Data[i] != c.Data[i] {
						t.Fatalf("%s %s %v: value %d = %v, wrote %v", tc.dt, comp, sz, i, back.Data[i], c.Data[i])
					}
				}
				m := back.Meta
				if !equalF(m.Wavelengths, c.Meta.Wavelengths) || m.WavelengthUnits != "Micrometers" ||
					!equalF(m.FWHM, c.Meta.FWHM) || strings.Join(m.BandNames, ",") != strings.Join(c.Meta.BandNames, ",") ||
					!m.HasDataIgnore || m.DataIgnore != -1 || m.Description != "round trip" {
					t.Fatalf("%s %s: metadata %+v", tc.dt, comp, m)
				}
				g := m.Geo
				if g == nil || !equalF(g.PixelScale, c.Meta.Geo.PixelScale) || !equalF(g.Tiepoints, c.Meta.Geo.Tiepoints) ||
					len(g.GeoKeys) != len(c.Meta.Geo.GeoKeys) || g.PixelIsPoint {
					t.Fatalf("geo %+v", g)
				}
			}
		}
	}
}

func TestCompressionShrinks(t *testing.T) {
	dir := t.TempDir()
	c := smoothCube(64, 64, 8, true)
	size := map[string]int64{}
	for _, comp := range []string{"none", "deflate", "lzw"} {
		p := filepath.Join(dir, comp+".tif")
		if err := Write(p, c, hsi.WriteOptions{DataType: sample.Uint16, Compression: hsi.Compression(comp)}); err != nil {
			t.Fatal(err)
		}
		st, _ := os.Stat(p)
		size[comp] = st.Size()
	}
	if size["deflate"] >= size["none"]/2 || size["lzw"] >= size["none"]/2 {
		t.Errorf("compressed sizes %v: predictor + compression should at least halve a smooth cube", size)
	}
}

func TestPixelIsPointWritten(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(1, 7), 3, 4, 2, 0, 1)
	c.Meta.Geo = &hsi.Geo{PixelScale: []float64{1, 1, 0}, Tiepoints: []float64{0, 0, 0, 10, 20, 0}, PixelIsPoint: true}
	p := filepath.Join(dir, "p.tif")
	if err := Write(p, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, _, err := Read(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if back.Meta.Geo == nil || !back.Meta.Geo.PixelIsPoint {
		t.Fatalf("PixelIsPoint lost: %+v", back.Meta.Geo)
	}
	// Upscaled geo (hsi.Geo.Scale) survives the trip.
	g := back.Meta.Geo
	if err := g.Scale(2, 2); err != nil {
		t.Fatal(err)
	}
	if g.PixelScale[0] != 0.5 {
		t.Errorf("scaled pixel %v", g.PixelScale)
	}
}

func TestMapInfoToGeoKeys(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(1, 7), 3, 4, 2, 0, 1)
	c.Meta.Geo = &hsi.Geo{MapInfo: "UTM, 1.000, 1.000, 620000.0, 4200000.0, 30.0, 30.0, 13, North, WGS-84"}
	p := filepath.Join(dir, "m.tif")
	if err := Write(p, c, hsi.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	back, _, err := Read(p, hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g := back.Meta.Geo
	if g == nil || !equalF(g.PixelScale, []float64{30, 30, 0}) || !equalF(g.Tiepoints, []float64{0, 0, 0, 620000, 4200000, 0}) {
		t.Fatalf("geo %+v", g)
	}
	if v, ok := geoKeyValue(g.GeoKeys, keyProjectedCSType); !ok || v != 32613 {
		t.Errorf("ProjectedCSTypeGeoKey %v %v, want 32613", v, ok)
	}
}

func TestWriteErrors(t *testing.T) {
	dir := t.TempDir()
	c := testrand.Uniform(testrand.New(1, 7), 3, 3, 2, -5, 300)
	for _, tc := range []struct {
		opt  hsi.WriteOptions
		want string
	}{
		{hsi.WriteOptions{DataType: sample.Uint8}, "does not fit uint8"},
		{hsi.WriteOptions{DataType: sample.Float16}, "not supported"},
		{hsi.WriteOptions{Compression: "jpeg"}, "not supported"},
	} {
		path := filepath.Join(dir, "bad.tif")
		err := Write(path, c, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%+v: err = %v, want %q naming the file", tc.opt, err, tc.want)
		}
	}
	nan := c.Clone()
	nan.Data[0] = float32(math.NaN())
	if err := Write(filepath.Join(dir, "nan.tif"), nan, hsi.WriteOptions{DataType: sample.Int16}); err == nil {
		t.Error("NaN written as int16")
	}
	if err := Write(filepath.Join(dir, "empty.tif"), &hsi.Cube{}, hsi.WriteOptions{}); err == nil {
		t.Error("empty cube written")
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left behind: %v", ents)
	}
}

// TestLZWEncoder checks the encoder against x/image's TIFF LZW decoder on
// data that fills the code table several times.
func TestLZWEncoder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var e lzwEncoder
	for _, n := range []int{0, 1, 2, 255, 256, 511, 512, 4096, 100000} {
		for _, kind := range []string{"random", "runs", "text"} {
			src := make([]byte, n)
			for i := range src {
				switch kind {
				case "random":
					src[i] = byte(r.IntN(256))
				case "runs":
					src[i] = byte(i / 300)
				default:
					src[i] = "the quick brown fox "[i%20] + byte(i/5000)
				}
			}
			enc := e.encode(nil, src)
			got, err := io.ReadAll(lzw.NewReader(bytes.NewReader(enc), lzw.MSB, 8))
			if err != nil {
				t.Fatalf("%s %d: %v", kind, n, err)
			}
			if !bytes.Equal(got, src) {
				t.Fatalf("%s %d: decoded %d bytes differ", kind, n, len(got))
			}
		}
	}
}

func TestBigTIFFWrite(t *testing.T) {
	defer func(v uint64) { bigTIFFAbove = v }(bigTIFFAbove)
	bigTIFFAbove = 0
	dir := t.TempDir()
	c := smoothCube(20, 30, 4, false)
	c.Meta.Geo = &hsi.Geo{PixelScale: []float64{2, 2, 0}, Tiepoints: []float64{0, 0, 0, 1, 2, 0}}
	for _, comp := range []string{"none", "lzw"} {
		p := filepath.Join(dir, "big.tif")
		if err := Write(p, c, hsi.WriteOptions{Compression: hsi.Compression(comp)}); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(p)
		if b[2] != 43 {
			t.Fatalf("version %d, want 43 (BigTIFF)", b[2])
		}
		back, info, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(info.Detail, "BigTIFF") {
			t.Errorf("detail %q", info.Detail)
		}
		for i := range c.Data {
			if back.Data[i] != c.Data[i] {
				t.Fatalf("value %d differs", i)
			}
		}
		if back.Meta.Geo == nil || back.Meta.Geo.PixelScale[0] != 2 {
			t.Errorf("geo %+v", back.Meta.Geo)
		}
	}
}
