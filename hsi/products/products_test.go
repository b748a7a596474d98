package products

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// The miniatures and their goldens are written by
// scripts/miniatures/*.py (see each script for the sources of its structure).

type emitGolden struct {
	File        string        `json:"file"`
	Swath       [][][]float64 `json:"swath"`
	Ortho       [][][]float64 `json:"ortho"`
	Wavelengths []float64     `json:"wavelengths"`
	FWHM        []float64     `json:"fwhm"`
	Good        []int         `json:"good_wavelengths"`
	GT          []float64     `json:"geotransform"`
	Fill        float64       `json:"fill"`
}

func loadJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// sameCube compares a cube with an (H, W, B) golden, value for value.
func sameCube(t *testing.T, c *hsi.Cube, want [][][]float64) {
	t.Helper()
	if c.H != len(want) || c.W != len(want[0]) || c.B != len(want[0][0]) {
		t.Fatalf("shape %dx%dx%d, want %dx%dx%d", c.H, c.W, c.B, len(want), len(want[0]), len(want[0][0]))
	}
	for y := range want {
		for x := range want[y] {
			for b, v := range want[y][x] {
				if got := c.At(y, x, b); got != float32(v) {
					t.Fatalf("(%d, %d, %d) = %v, want %v", y, x, b, got, v)
				}
			}
		}
	}
}

// emitRead is one way of reading an EMIT granule: the swath, the same
// cube named by -var, or the GLT grid with -ortho.
type emitRead struct {
	name  string
	opt   hsi.ReadOptions
	want  [][][]float64
	ortho bool
}

// emitReads are the three reads of a granule whose cube is the variable
// named v, with the swath and ortho goldens.
func emitReads(v string, swath, ortho [][][]float64) []emitRead {
	return []emitRead{
		{"swath", hsi.ReadOptions{}, swath, false},
		{"swath by -var", hsi.ReadOptions{Var: v}, swath, false},
		{"ortho", hsi.ReadOptions{Ortho: true}, ortho, true},
	}
}

// checkEMITGeo checks that a swath read has no georeferencing and that an
// ortho read has the GLT grid's geotransform gt.
func checkEMITGeo(t *testing.T, m hsi.Meta, ortho bool, gt []float64) {
	t.Helper()
	if !ortho {
		if m.Geo != nil {
			t.Errorf("swath has georeferencing %+v", m.Geo)
		}
		return
	}
	got, ok := m.Geo.Transform()
	if !ok {
		t.Fatal("ortho cube has no geotransform")
	}
	for i := range got {
		if math.Abs(got[i]-gt[i]) > 1e-12 {
			t.Fatalf("geotransform %v, want %v", got, gt)
		}
	}
}

func TestEMIT(t *testing.T) {
	var g emitGolden
	loadJSON(t, "emit_golden.json", &g)
	path := filepath.Join("testdata", g.File)
	for _, tc := range emitReads("/reflectance", g.Swath, g.Ortho) {
		t.Run(tc.name, func(t *testing.T) {
			c, info, err := ReadHDF5(path, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			sameCube(t, c, tc.want)
			m := c.Meta
			if !m.HasDataIgnore || m.DataIgnore != g.Fill {
				t.Errorf("no-data %v %v, want %v", m.HasDataIgnore, m.DataIgnore, g.Fill)
			}
			for b := range g.Wavelengths {
				if float32(m.Wavelengths[b]) != float32(g.Wavelengths[b]) || float32(m.FWHM[b]) != float32(g.FWHM[b]) {
					t.Fatalf("band %d: wavelength %v fwhm %v, want %v %v", b, m.Wavelengths[b], m.FWHM[b], g.Wavelengths[b], g.FWHM[b])
				}
				if m.BadBands[b] != (g.Good[b] == 0) {
					t.Fatalf("band %d: bad %v, good_wavelengths %d", b, m.BadBands[b], g.Good[b])
				}
			}
			if m.WavelengthUnits != "Nanometers" {
				t.Errorf("units %q", m.WavelengthUnits)
			}
			if !strings.Contains(info.Product, "EMIT L2A") || !strings.Contains(info.Product, "2023-08-01T10:11:12") || !strings.Contains(info.Product, "ISS") {
				t.Errorf("product %q", info.Product)
			}
			if info.Layout != "HWB" || info.Variable != "/reflectance" {
				t.Errorf("layout %q variable %q", info.Layout, info.Variable)
			}
			checkEMITGeo(t, m, tc.ortho, g.GT)
			if !tc.ortho {
				return
			}
			if cr, note := m.Geo.CRS(); cr.EPSG != 4326 || note != "" {
				t.Errorf("CRS %+v %q, want EPSG:4326", cr, note)
			}
		})
	}
}

type genericGolden struct {
	Cube        [][][]float64 `json:"cube"`
	Wavelengths []float64     `json:"wavelengths"`
	Fill        float64       `json:"fill"`
}

func TestGeneric(t *testing.T) {
	var g map[string]genericGolden
	loadJSON(t, "generic_golden.json", &g)
	for _, tc := range []struct {
		file, layout, units string
		opt                 hsi.ReadOptions
	}{
		{"generic_bhw.h5", "BHW", "Nanometers", hsi.ReadOptions{}},
		{"generic_bhw.h5", "BHW", "Nanometers", hsi.ReadOptions{Var: "data/cube", Layout: "bhw"}},
		{"generic_hwb.nc", "HWB", "Micrometers", hsi.ReadOptions{}},
		// float32 stored in an order other than the cube's
		{"generic_hwb.nc", "WHB", "Micrometers", hsi.ReadOptions{Layout: "WHB"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			want := g[tc.file]
			c, info, err := ReadHDF5(filepath.Join("testdata", tc.file), tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if info.Layout != tc.layout {
				t.Errorf("layout %q, want %q (%s)", info.Layout, tc.layout, info.Detail)
			}
			if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != want.Fill {
				t.Errorf("no-data %v, want %v", c.Meta.DataIgnore, want.Fill)
			}
			if tc.layout == "WHB" {
				// the golden is (line, sample, band): swap its first two axes
				sw := make([][][]float64, len(want.Cube[0]))
				for x := range sw {
					for y := range want.Cube {
						sw[x] = append(sw[x], want.Cube[y][x])
					}
				}
				want.Cube = sw
			}
			if len(c.Meta.Wavelengths) != len(want.Wavelengths) || c.Meta.WavelengthUnits != tc.units {
				t.Fatalf("wavelengths %v %s, want %v %s", c.Meta.Wavelengths, c.Meta.WavelengthUnits, want.Wavelengths, tc.units)
			}
			for i, w := range want.Wavelengths {
				if c.Meta.Wavelengths[i] != w {
					t.Fatalf("wavelengths %v, want %v", c.Meta.Wavelengths, want.Wavelengths)
				}
			}
			sameCube(t, c, want.Cube)
		})
	}
}

func TestBadInput(t *testing.T) {
	dir := t.TempDir()
	emit := filepath.Join("testdata", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc")
	b, err := os.ReadFile(emit)
	if err != nil {
		t.Fatal(err)
	}
	truncated := filepath.Join(dir, "truncated.nc")
	if err := os.WriteFile(truncated, b[:len(b)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		opt  hsi.ReadOptions
		want string
	}{
		{filepath.Join("testdata", "nan_scale.h5"), hsi.ReadOptions{}, "scale_factor NaN"},
		{filepath.Join("testdata", "emit_bad_glt.nc"), hsi.ReadOptions{Ortho: true}, "outside the 4 x 3 swath"},
		{filepath.Join("testdata", "emit_no_wavelengths.nc"), hsi.ReadOptions{}, "without /sensor_band_parameters/wavelengths"},
		{truncated, hsi.ReadOptions{}, "truncated"},
		{filepath.Join("testdata", "bad_chunk.h5"), hsi.ReadOptions{}, "dataset cube: deflate"},
		{filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{Var: "/data/nothing"}, `no dataset "/data/nothing"`},
		{filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{Layout: "HWX"}, "permutation of H, W and B"},
		{filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{Ortho: true}, "-ortho applies to EMIT"},
		// A wrong layout makes the per-band lists disagree with the cube.
		{filepath.Join("testdata", "generic_bhw.h5"), hsi.ReadOptions{Layout: "HWB"}, "/data/wavelength holds [5] values for 6 bands"},
		{filepath.Join("testdata", "generic_golden.json"), hsi.ReadOptions{}, "no HDF5 superblock"},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			c, _, err := ReadHDF5(tc.path, tc.opt)
			if err == nil || c != nil {
				t.Fatalf("no error (cube %v)", c != nil)
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
				t.Errorf("error %q: want it to name %s and say %q", err, tc.path, tc.want)
			}
		})
	}
}

type prismaGolden struct {
	File        string        `json:"file"`
	Cube        [][][]float64 `json:"cube"`
	Wavelengths []float64     `json:"wavelengths"`
	FWHM        []float64     `json:"fwhm"`
	GT          []float64     `json:"geotransform"`
	EPSG        int           `json:"epsg"`
}

func TestPRISMA(t *testing.T) {
	var g prismaGolden
	loadJSON(t, "prisma_golden.json", &g)
	c, info, err := ReadHDF5(filepath.Join("testdata", g.File), hsi.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sameCube(t, c, g.Cube)
	for i := range g.Wavelengths {
		if c.Meta.Wavelengths[i] != g.Wavelengths[i] || c.Meta.FWHM[i] != g.FWHM[i] {
			t.Fatalf("wavelengths %v fwhm %v, want %v %v", c.Meta.Wavelengths, c.Meta.FWHM, g.Wavelengths, g.FWHM)
		}
	}
	if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != -9999 {
		t.Errorf("no-data %v", c.Meta.DataIgnore)
	}
	if info.Product != "PRISMA L2D, acquired 2021-06-15T10:20:30.123456" {
		t.Errorf("product %q", info.Product)
	}
	gt, ok := c.Meta.Geo.Transform()
	if !ok || gt != [6]float64(g.GT) {
		t.Errorf("geotransform %v, want prismaread's %v", gt, g.GT)
	}
	if cr, _ := c.Meta.Geo.CRS(); cr.EPSG != g.EPSG {
		t.Errorf("CRS %+v, want EPSG:%d", cr, g.EPSG)
	}
	// -var reads one cube as stored, without the product's scaling.
	c, info, err = ReadHDF5(filepath.Join("testdata", g.File), hsi.ReadOptions{Var: "/HDFEOS/SWATHS/PRS_L2D_HCO/Data Fields/SWIR_Cube", Layout: "HBW"})
	if err != nil || c.H != 4 || c.W != 5 || c.B != 6 || info.Product != "" {
		t.Errorf("SWIR cube by -var: %v %+v", err, info)
	}
	for _, tc := range []struct{ file, want string }{
		{"prisma_short_list.he5", "List_Cw_Vnir has 7 wavelengths for the 8 bands"},
		{"prisma_nan_scale.he5", "L2ScaleVnirMin 0 / Max NaN is not a finite number"},
	} {
		path := filepath.Join("testdata", tc.file)
		if _, _, err := ReadHDF5(path, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v, want %q", tc.file, err, tc.want)
		}
	}
}

// productGolden is what the miniature scripts record of a calibrated
// EnMAP or DESIS product.
type productGolden struct {
	Cube        [][][]float64 `json:"cube"`
	Wavelengths []float64     `json:"wavelengths"`
	FWHM        []float64     `json:"fwhm"`
	Bad         []bool        `json:"bad"`
	GT          []float64     `json:"geotransform"`
	EPSG        int           `json:"epsg"`
}

// check compares a product read with the golden: values, band metadata,
// geotransform and CRS.
func (g productGolden) check(t *testing.T, c *hsi.Cube) {
	t.Helper()
	sameCube(t, c, g.Cube)
	for i := range g.Wavelengths {
		if c.Meta.Wavelengths[i] != g.Wavelengths[i] || c.Meta.FWHM[i] != g.FWHM[i] || c.Meta.BadBands[i] != g.Bad[i] {
			t.Fatalf("band %d: %v %v %v, want %v %v %v", i, c.Meta.Wavelengths[i], c.Meta.FWHM[i], c.Meta.BadBands[i], g.Wavelengths[i], g.FWHM[i], g.Bad[i])
		}
	}
	gt, ok := c.Meta.Geo.Transform()
	if !ok || gt != [6]float64(g.GT) {
		t.Errorf("geotransform %v, want %v", gt, g.GT)
	}
	if cr, _ := c.Meta.Geo.CRS(); cr.EPSG != g.EPSG {
		t.Errorf("CRS %+v, want EPSG:%d", cr, g.EPSG)
	}
}

type enmapGolden struct {
	TIF, XML string
	productGolden
}

func TestEnMAP(t *testing.T) {
	var g enmapGolden
	loadJSON(t, "enmap_golden.json", &g)
	for _, name := range []string{g.TIF, g.XML} {
		t.Run(name[len(name)-12:], func(t *testing.T) {
			path := filepath.Join("testdata", name)
			if !IsProductFile(path) {
				t.Fatal("not recognised as a product file")
			}
			c, info, err := ReadProduct(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			g.check(t, c)
			if c.Meta.Scale != nil || c.Meta.DataIgnore != -32768 {
				t.Errorf("scale %v no-data %v", c.Meta.Scale, c.Meta.DataIgnore)
			}
			if info.Product != "EnMAP L2A, acquired 2022-11-03T10:23:16.000000Z" {
				t.Errorf("product %q", info.Product)
			}
		})
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join("testdata", "enmap_short_xml", g.XML), "lists 5 bands"},
		{filepath.Join("testdata", "enmap_no_xml", g.TIF), "without its METADATA.XML"},
	} {
		if _, _, err := ReadProduct(tc.path, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
	if IsProductFile(filepath.Join("testdata", "generic_bhw.h5")) {
		t.Error("an HDF5 file taken for an EnMAP product")
	}
}

// DESIS L2A from the TIF or the XML, with the band characterisation from
// the METADATA.xml (bands out of order, a <band> outside it) or from the
// SPECTRAL_IMAGE.hdr of the second delivery; against the values GDAL reads
// times gain plus offset (scripts/miniatures/desis_l2a.py).
func TestDESIS(t *testing.T) {
	var g map[string]productGolden
	loadJSON(t, "desis_golden.json", &g)
	const name = "DESIS-HSI-L2A-DT0865788448_017-20230607T153935-V0220"
	for _, tc := range []struct{ dir, file, golden, source string }{
		{"desis_xml", name + "-SPECTRAL_IMAGE.tif", "xml", "METADATA.xml"},
		{"desis_xml", name + "-METADATA.xml", "xml", "METADATA.xml"},
		{"desis_hdr", name + "-SPECTRAL_IMAGE.tif", "hdr", "SPECTRAL_IMAGE.hdr"},
		// no GDAL nodata tag: the XML's backgroundValue gives the no-data value
		{"desis_background", name + "-SPECTRAL_IMAGE.tif", "background", "METADATA.xml"},
	} {
		t.Run(tc.dir+"/"+tc.file[len(tc.file)-12:], func(t *testing.T) {
			path := filepath.Join("testdata", tc.dir, tc.file)
			if !IsProductFile(path) {
				t.Fatal("not recognised as a product file")
			}
			c, info, err := ReadProduct(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			g[tc.golden].check(t, c)
			if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != 0 {
				t.Errorf("no-data %v %v, want 0", c.Meta.HasDataIgnore, c.Meta.DataIgnore)
			}
			if info.Product != "DESIS L2A, acquired 20230607T153935" || !strings.Contains(info.Detail, tc.source) {
				t.Errorf("product %q, detail %q", info.Product, info.Detail)
			}
		})
	}
	for _, tc := range []struct{ path, want string }{
		{filepath.Join("testdata", "desis_short_xml", name+"-METADATA.xml"), "lists 4 bands"},
		{filepath.Join("testdata", "desis_no_xml", name+"-SPECTRAL_IMAGE.tif"), "without its METADATA.xml"},
	} {
		if _, _, err := ReadProduct(tc.path, hsi.ReadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: %v, want %q", tc.path, err, tc.want)
		}
	}
}

// The XML's backgroundValue: a value that is not a number is an error
// naming the file; without it (and without a GDAL nodata tag) the product
// declares no no-data value.
func TestDESISBackground(t *testing.T) {
	const name = "DESIS-HSI-L2A-DT0865788448_017-20230607T153935-V0220"
	src := filepath.Join("testdata", "desis_background")
	tif, err := os.ReadFile(filepath.Join(src, name+"-SPECTRAL_IMAGE.tif"))
	if err != nil {
		t.Fatal(err)
	}
	xml, err := os.ReadFile(filepath.Join(src, name+"-METADATA.xml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		background, err string
		has             bool
	}{
		{"<backgroundValue>-1</backgroundValue>", "", true},
		{"<backgroundValue>NaN</backgroundValue>", "backgroundValue \"NaN\": not a finite number", false},
		{"", "", false},
	} {
		dir := t.TempDir()
		x := strings.Replace(string(xml), "<backgroundValue>0</backgroundValue>", tc.background, 1)
		if x == string(xml) {
			t.Fatal("the miniature has no <backgroundValue>0</backgroundValue>")
		}
		xmlPath := filepath.Join(dir, name+"-METADATA.xml")
		if err := os.WriteFile(xmlPath, []byte(x), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+"-SPECTRAL_IMAGE.tif"), tif, 0o644); err != nil {
			t.Fatal(err)
		}
		c, _, err := ReadProduct(xmlPath, hsi.ReadOptions{})
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), xmlPath) {
				t.Errorf("%q: %v, want %q naming the file", tc.background, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.Meta.HasDataIgnore != tc.has || (tc.has && c.Meta.DataIgnore != -1) {
			t.Errorf("%q: no-data %v %v", tc.background, c.Meta.HasDataIgnore, c.Meta.DataIgnore)
		}
	}
}
