package tiff

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// combo is one way of writing a TIFF: a data type and creation options.
type combo struct {
	name string
	dt   string
	b    int
	opt  hsi.WriteOptions
}

// comboH and comboW give partial strips, tiles and overview edges.
const comboH, comboW = 37, 23

// writeCombos is every sample type with every compression, predictor,
// layout (default strips, strips of 5 rows, 16x32 tiles) and TIFF or
// BigTIFF, one or three bands, plus COGs (16x16 tiles, so that there are
// overviews).
func writeCombos() []combo {
	var out []combo
	types := []string{"uint8", "int16", "uint16", "int32", "uint32", "float32", "float64"}
	layouts := []struct {
		name string
		co   []string
	}{{"strips", nil}, {"strips5", []string{"BLOCKYSIZE=5"}}, {"tiled", []string{"TILED=YES", "BLOCKXSIZE=16", "BLOCKYSIZE=32"}}}
	for _, dt := range types {
		preds := []string{"1", "2"}
		if strings.HasPrefix(dt, "float") {
			preds = append(preds, "3")
		}
		for _, comp := range []string{"NONE", "DEFLATE", "LZW", "ZSTD"} {
			for _, pred := range preds {
				if comp == "NONE" && pred != "1" {
					continue
				}
				for li, l := range layouts {
					for _, big := range []string{"NO", "YES"} {
						co := append([]string{"COMPRESS=" + comp, "PREDICTOR=" + pred, "BIGTIFF=" + big}, l.co...)
						b := 3
						if li == 1 && big == "YES" {
							b = 1
						}
						name := fmt.Sprintf("%s_%s_p%s_%s_big%s_b%d.tif", dt, strings.ToLower(comp), pred, l.name, strings.ToLower(big), b)
						out = append(out, combo{name, dt, b, hsi.WriteOptions{DataType: parseType(dt), Creation: co}})
					}
				}
			}
		}
	}
	for _, dt := range []string{"uint16", "float32"} {
		for _, co := range [][]string{{}, {"COMPRESS=ZSTD", "PREDICTOR=YES"}, {"COMPRESS=NONE", "BIGTIFF=YES"}, {"COMPRESS=DEFLATE", "RESAMPLING=NEAREST"}} {
			co = append([]string{"BLOCKSIZE=16"}, co...)
			name := fmt.Sprintf("cog_%s_%s.tif", dt, strings.ToLower(strings.ReplaceAll(strings.Join(co, "_"), "=", "")))
			out = append(out, combo{name, dt, 3, hsi.WriteOptions{DataType: parseType(dt), Driver: hsi.COG, Creation: co}})
		}
	}
	return out
}

// parseType is the sample type of a combo's type name.
func parseType(dt string) sample.Type {
	t, _ := sample.ParseType(dt)
	return t
}

// comboCube is the cube of a combo: values over the whole range of an
// integer type, and normal values times 1000 with a -0 for floats.
func comboCube(dt string, b int) *hsi.Cube {
	c := hsi.MustNew(comboH, comboW, b)
	r := rand.New(rand.NewPCG(uint64(len(dt)), uint64(b)))
	st, _ := tiffType(parseType(dt))
	lo, hi := st.t.Range()
	for i := range c.Data {
		switch {
		case st.format == 3:
			c.Data[i] = float32(r.NormFloat64() * 1000)
		case i%7 == 0:
			// Random over the whole range, at most 2^24 in magnitude.
			lo, hi := max(lo, -(1<<24)), min(hi, 1<<24)
			c.Data[i] = float32(math.Round(lo + r.Float64()*(hi-lo)))
		default:
			// A smooth ramp that predictors shrink.
			p := i / b
			c.Data[i] = float32(math.Max(lo, math.Min(hi, float64(p/comboW+p%comboW+i%b*5))))
		}
	}
	if st.format == 3 {
		c.Data[1] = float32(math.Copysign(0, -1))
	}
	c.Meta.Wavelengths = make([]float64, b)
	for k := range c.Meta.Wavelengths {
		c.Meta.Wavelengths[k] = 400 + 10*float64(k)
	}
	c.Meta.WavelengthUnits = "Nanometers"
	c.Meta.Geo = &hsi.Geo{
		PixelScale: []float64{30, 30, 0},
		Tiepoints:  []float64{0, 0, 0, 500000, 4200000, 0},
		GeoKeys:    []uint16{1, 1, 0, 3, 1024, 0, 1, 1, 1025, 0, 1, 1, 3072, 0, 1, 32613},
	}
	return c
}

// streamRows writes c through Create in row chunks of the given sizes.
func streamRows(path string, c *hsi.Cube, opt hsi.WriteOptions, chunks []int) error {
	s, err := Create(path, c.H, c.W, c.B, c.Meta, opt)
	if err != nil {
		return err
	}
	defer s.Abort()
	row := c.W * c.B
	for y, i := 0, 0; y < c.H; i++ {
		n := min(chunks[i%len(chunks)], c.H-y)
		if err := s.WriteRows(c.Data[y*row : (y+n)*row]); err != nil {
			return err
		}
		y += n
	}
	return s.Commit()
}

// TestCreationCombos writes every combination with Write and, in uneven
// row chunks, with Create: the files are the same bytes, and read back
// bit for bit with the layout the options ask for.
func TestCreationCombos(t *testing.T) {
	dir := t.TempDir()
	for _, cb := range writeCombos() {
		c := comboCube(cb.dt, cb.b)
		a, b := filepath.Join(dir, "a.tif"), filepath.Join(dir, "b.tif")
		if err := Write(a, c, cb.opt); err != nil {
			t.Fatalf("%s: %v", cb.name, err)
		}
		if err := streamRows(b, c, cb.opt, []int{3, 1, 0, 8}); err != nil {
			t.Fatalf("%s: %v", cb.name, err)
		}
		ab, _ := os.ReadFile(a)
		bb, _ := os.ReadFile(b)
		if !bytes.Equal(ab, bb) {
			t.Fatalf("%s: Create wrote %d bytes, Write %d, or other bytes", cb.name, len(bb), len(ab))
		}
		back, info, err := Read(a, hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", cb.name, err)
		}
		for i := range c.Data {
			if math.Float32bits(back.Data[i]) != math.Float32bits(c.Data[i]) {
				t.Fatalf("%s: value %d = %v, wrote %v", cb.name, i, back.Data[i], c.Data[i])
			}
		}
		if info.DataType != cb.dt || back.Meta.Geo == nil || len(back.Meta.Wavelengths) != cb.b {
			t.Fatalf("%s: info %+v, meta %+v", cb.name, info, back.Meta)
		}
		o, _ := ParseOptions(cb.opt)
		wantDetail := []string{map[int]string{cNone: "uncompressed", cDeflate: "deflate", cLZW: "LZW", cZSTD: "ZSTD"}[o.Compression]}
		switch {
		case o.COG:
			wantDetail = append(wantDetail, "tiles 16x16")
		case o.Tiled:
			wantDetail = append(wantDetail, "tiles 16x32")
		case o.BlockH == 5:
			wantDetail = append(wantDetail, "strips of 5 rows")
		}
		if o.Predictor > 1 {
			wantDetail = append(wantDetail, fmt.Sprintf("predictor %d", o.Predictor))
		}
		if o.BigTIFF == "YES" {
			wantDetail = append(wantDetail, "BigTIFF")
		}
		if o.COG {
			wantDetail = append(wantDetail, "other pages skipped")
		}
		for _, w := range wantDetail {
			if !strings.Contains(info.Detail, w) {
				t.Errorf("%s: detail %q lacks %q", cb.name, info.Detail, w)
			}
		}
		if o.Predictor == 1 && strings.Contains(info.Detail, "predictor") {
			t.Errorf("%s: detail %q names a predictor", cb.name, info.Detail)
		}
	}
}

func TestCreationErrors(t *testing.T) {
	dir := t.TempDir()
	c := comboCube("uint16", 3)
	for _, tc := range []struct {
		opt  hsi.WriteOptions
		want string
	}{
		{hsi.WriteOptions{DataType: sample.Uint16, Creation: []string{"COMPRESS=LZW", "PREDICTOR=3"}}, "PREDICTOR=3 (floating point) does not apply to uint16"},
		{hsi.WriteOptions{DataType: sample.Uint8}, "at row 0, column 0, band 0 (0-based) does not fit uint8"},
		{hsi.WriteOptions{Driver: "JPEG"}, `output format "JPEG"`},
		{hsi.WriteOptions{Creation: []string{"NUM_THREADS=4"}}, "NUM_THREADS is not known"},
	} {
		p := filepath.Join(dir, "e.tif")
		err := Write(p, c, tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("%+v: %v, want %q naming the file", tc.opt, err, tc.want)
		}
	}
	// BIGTIFF=NO on a file that needs BigTIFF.
	defer func(v uint64) { bigTIFFAbove = v }(bigTIFFAbove)
	bigTIFFAbove = 1000
	for _, drv := range []string{"GTiff", "COG"} {
		err := Write(filepath.Join(dir, "n.tif"), c, hsi.WriteOptions{Driver: hsi.Driver(drv), Creation: []string{"BIGTIFF=NO"}})
		if err == nil || !strings.Contains(err.Error(), "needs BigTIFF, but BIGTIFF=NO") {
			t.Errorf("%s BIGTIFF=NO: %v", drv, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left behind: %v", ents)
	}
}

// TestBigTIFFChoice: IF_NEEDED and IF_SAFER go by the final size.
func TestBigTIFFChoice(t *testing.T) {
	defer func(a, b uint64) { bigTIFFAbove, ifSaferAbove = a, b }(bigTIFFAbove, ifSaferAbove)
	dir := t.TempDir()
	c := comboCube("float32", 3) // 37x23x3 float32: about 10 KB
	for _, tc := range []struct {
		above, safer uint64
		big          string
		want         byte
	}{
		{1 << 20, 1 << 19, "IF_NEEDED", 42},
		{1000, 1 << 19, "IF_NEEDED", 43},
		{1 << 20, 1 << 19, "IF_SAFER", 42},
		{1 << 20, 1000, "IF_SAFER", 43},
		{1 << 20, 1 << 19, "YES", 43},
	} {
		bigTIFFAbove, ifSaferAbove = tc.above, tc.safer
		for _, drv := range []string{"GTiff", "COG"} {
			p := filepath.Join(dir, "b.tif")
			if err := Write(p, c, hsi.WriteOptions{Driver: hsi.Driver(drv), Creation: []string{"BIGTIFF=" + tc.big}}); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(p)
			if b[2] != tc.want {
				t.Errorf("%s BIGTIFF=%s, limits %d/%d: version %d, want %d", drv, tc.big, tc.above, tc.safer, b[2], tc.want)
			}
		}
	}
}

// TestCreateMemory streams images of two heights, whose rows are made as
// they are written, and checks how the bytes allocated grow with the
// image's float32 size: not at all for strips and tiles (one block of rows
// is held), by about 0.4 for a COG (its overviews, a third of the image as
// float32, and their compressed tiles).
func TestCreateMemory(t *testing.T) {
	const w, b = 320, 24
	rows := make([]float32, 8*w*b)
	alloc := func(h int, opt hsi.WriteOptions) uint64 {
		p := filepath.Join(t.TempDir(), "m.tif")
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		s, err := Create(p, h, w, b, hsi.Meta{}, opt)
		if err != nil {
			t.Fatal(err)
		}
		for y := 0; y < h; y += 8 {
			for i := range rows {
				rows[i] = float32((y*len(rows) + i) % 1000)
			}
			if err := s.WriteRows(rows); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.Commit(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	for _, tc := range []struct {
		opt  hsi.WriteOptions
		most float64 // growth of the bytes allocated / growth of the image
	}{
		{hsi.WriteOptions{Creation: []string{"COMPRESS=DEFLATE"}}, 0.05},
		{hsi.WriteOptions{Creation: []string{"COMPRESS=DEFLATE", "TILED=YES", "BLOCKXSIZE=64", "BLOCKYSIZE=64"}}, 0.05},
		{hsi.WriteOptions{Driver: "COG", Creation: []string{"COMPRESS=DEFLATE", "BLOCKSIZE=64"}}, 0.5},
	} {
		small, large := alloc(128, tc.opt), alloc(1024, tc.opt)
		grow := float64(int64(large)-int64(small)) / float64((1024-128)*w*b*4)
		if grow > tc.most {
			t.Errorf("%v %v: allocations grow by %.3f x the image (%d to %d bytes), want at most %.2f", tc.opt.Driver, tc.opt.Creation, grow, small, large, tc.most)
		}
	}
}

// TestConstantCube: a constant image, which ZSTD stores more than
// 4096-fold smaller, reads back with every compression.
func TestConstantCube(t *testing.T) {
	c := hsi.MustNew(1024, 1024, 4)
	p := filepath.Join(t.TempDir(), "z.tif")
	for _, co := range [][]string{{"COMPRESS=ZSTD"}, {"COMPRESS=DEFLATE"}, {"COMPRESS=LZW"}, {"COMPRESS=ZSTD", "TILED=YES", "BLOCKXSIZE=512", "BLOCKYSIZE=512"}} {
		if err := Write(p, c, hsi.WriteOptions{Creation: co}); err != nil {
			t.Fatal(err)
		}
		back, _, err := Read(p, hsi.ReadOptions{})
		if err != nil {
			t.Fatalf("%v: %v", co, err)
		}
		if back.H != c.H || back.W != c.W || back.B != c.B {
			t.Fatalf("%v: read %dx%dx%d", co, back.H, back.W, back.B)
		}
	}
}
