package formats

import (
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
)

// fullCube is a cube with every piece of metadata the package reads: a
// rotated grid in a CRS known only by its WKT, wavelengths and FWHM, a bad
// band list, band scale and offset with a reflectance scale factor, a
// no-data value, band names, a description and other ENVI header fields.
func fullCube() *hsi.Cube {
	c := hsi.MustNew(4, 5, 3)
	for i := range c.Data {
		c.Data[i] = float32(i%97)*1.5 - 3
	}
	m := &c.Meta
	m.Wavelengths, m.WavelengthUnits, m.FWHM = []float64{450, 550.5, 650}, "Nanometers", []float64{10, 11, 12.5}
	m.BadBands = []bool{false, true, false}
	m.BandNames = []string{"blue", "green", "red"}
	m.DataIgnore, m.HasDataIgnore = -9999, true
	m.Scale, m.Offset, m.ReflectanceScale = []float64{1e-4, 2e-4, 1e-4}, []float64{0, 0.5, 0}, 10000
	m.Description = "test scene"
	m.Extra = []hsi.Field{{Key: "acquisition time", Value: "2021-06-01T10:30:00Z"}, {Key: "default bands", Value: "3, 2, 1", Braced: true}, {Key: "sensor type", Value: "AVIRIS"}}
	m.Geo = &hsi.Geo{
		MapInfo:  "Albers Conical Equal Area, 1, 1, -1000000, 2000000, 30, 30, WGS-84, rotation=15",
		CoordSys: `PROJCS["unknown",GEOGCS["GCS_unknown",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Albers"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-96.0],PARAMETER["Standard_Parallel_1",29.5],PARAMETER["Standard_Parallel_2",45.5],PARAMETER["Latitude_Of_Origin",23.0],UNIT["Meter",1.0]]`,
	}
	return c
}

// property is one column of the table in docs/FORMATS.md: how to compare
// it, and the Dropped text that warns when an output cannot hold it.
type property struct {
	name, warning string
	same          func(a, b *hsi.Meta) bool
}

var properties = []property{
	{"georeferencing", "georeferencing", func(a, b *hsi.Meta) bool {
		ga, oka := a.Geo.Transform()
		gb, okb := b.Geo.Transform()
		if oka != okb {
			return false
		}
		for i := range ga {
			if math.Abs(ga[i]-gb[i]) > 1e-9*math.Max(1, math.Abs(ga[i])) {
				return false
			}
		}
		return true
	}},
	{"CRS", "georeferencing", func(a, b *hsi.Meta) bool {
		ca, _ := a.Geo.CRS()
		cb, _ := b.Geo.CRS()
		return crs.Equivalent(ca, cb)
	}},
	{"wavelengths", "wavelengths", func(a, b *hsi.Meta) bool {
		return slices.Equal(a.Wavelengths, b.Wavelengths) && a.WavelengthUnits == b.WavelengthUnits && slices.Equal(a.FWHM, b.FWHM)
	}},
	{"bbl", "bad band list", func(a, b *hsi.Meta) bool { return slices.Equal(a.BadBands, b.BadBands) }},
	{"scale/offset", "radiometric scale/offset", func(a, b *hsi.Meta) bool {
		for i := range 3 {
			sa, oa, _ := a.PhysicalScale(i)
			sb, ob, _ := b.PhysicalScale(i)
			if sa != sb || oa != ob {
				return false
			}
		}
		return a.ReflectanceScale == b.ReflectanceScale
	}},
	{"no-data", "no-data value", func(a, b *hsi.Meta) bool {
		return a.HasDataIgnore == b.HasDataIgnore && a.DataIgnore == b.DataIgnore
	}},
	{"band names", "band names", func(a, b *hsi.Meta) bool { return slices.Equal(a.BandNames, b.BandNames) }},
	{"other header fields", "other header fields", func(a, b *hsi.Meta) bool { return reflect.DeepEqual(a.Extra, b.Extra) }},
	{"description", "description", func(a, b *hsi.Meta) bool { return a.Description == b.Description }},
}

// keeps is the table of docs/FORMATS.md: for an ENVI or TIFF source with
// every property, which properties each output format keeps; every other
// property is warned about.
var keeps = map[string][]string{
	"ENVI": {"georeferencing", "CRS", "wavelengths", "bbl", "scale/offset", "no-data", "band names", "other header fields", "description"},
	"TIFF": {"georeferencing", "CRS", "wavelengths", "bbl", "scale/offset", "no-data", "band names", "other header fields", "description"},
	"MAT":  {"wavelengths"},
	"NPY":  {},
}

// TestKeepTable writes a cube with every property to ENVI or TIFF, reads it
// back, writes that to each output format and reads it back: the values
// are always kept bit for bit; each property is kept where the table says
// so, and otherwise is absent from the output and named by Dropped.
func TestKeepTable(t *testing.T) {
	dir := t.TempDir()
	ext := map[string]string{"ENVI": ".hdr", "TIFF": ".tif", "MAT": ".mat", "NPY": ".npy"}
	for _, src := range []string{"ENVI", "TIFF"} {
		srcPath := filepath.Join(dir, "src"+ext[src])
		if err := Write(srcPath, fullCube(), hsi.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		in, _, err := Read(srcPath, hsi.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range properties {
			if !p.same(&in.Meta, &fullCube().Meta) {
				t.Errorf("%s source: %s not read back", src, p.name)
			}
		}
		for _, dst := range []string{"ENVI", "TIFF", "MAT", "NPY"} {
			name := fmt.Sprintf("%s -> %s", src, dst)
			path := filepath.Join(dir, src+"_to"+ext[dst])
			if err := Write(path, in, hsi.WriteOptions{}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			dropped := Dropped(path, &in.Meta)
			out, _, err := Read(path, hsi.ReadOptions{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(out.Data, in.Data) {
				t.Errorf("%s: values differ", name)
			}
			for _, p := range properties {
				kept := p.same(&in.Meta, &out.Meta)
				want := slices.Contains(keeps[dst], p.name)
				warned := slices.Contains(dropped, p.warning)
				switch {
				case want && !kept:
					t.Errorf("%s: %s not kept", name, p.name)
				case want && warned:
					t.Errorf("%s: %s kept but warned about", name, p.name)
				case !want && kept:
					t.Errorf("%s: %s kept; the table says it cannot be held", name, p.name)
				case !want && !warned:
					t.Errorf("%s: %s dropped without a warning (dropped %q)", name, p.name, dropped)
				}
			}
		}
	}
}
