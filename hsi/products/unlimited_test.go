package products

import (
	"path/filepath"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
)

// NetCDF-4 cubes whose band axis is unlimited read as any other: the
// layout from the dimension names, wavelengths from the band coordinate,
// the fill value as no-data, values as netCDF4-python reads them
// (scripts/miniatures/unlimited.py), whichever chunk index holds them.
func TestUnlimitedCubes(t *testing.T) {
	var g map[string]struct {
		Shape       []int     `json:"shape"`
		Values      []float64 `json:"values"`
		Wavelengths []float64 `json:"wavelengths"`
	}
	loadJSON(t, "unlimited_golden.json", &g)
	for _, tc := range []struct {
		file, v, layout, format string
	}{
		{"unlimited_nc4.nc", "reflectance", "BHW", "NetCDF-4"},
		// h5py's files: HDF5 with dimension scales, which netCDF-C reads too
		{"unlimited_ea.nc", "reflectance", "BHW", "HDF5"},
		{"unlimited_ea.nc", "reflectance_hwb", "HWB", "HDF5"},
		{"unlimited_bt2.nc", "reflectance", "BHW", "HDF5"},
		{"unlimited_bt2.nc", "reflectance_raw", "BHW", "HDF5"},
	} {
		t.Run(tc.file+":"+tc.v, func(t *testing.T) {
			want := g[tc.file+":"+tc.v]
			c, info, err := ReadHDF5(filepath.Join("testdata", tc.file), hsi.ReadOptions{Var: "/" + tc.v})
			if err != nil {
				t.Fatal(err)
			}
			if info.Layout != tc.layout || info.Format != tc.format {
				t.Errorf("%s layout %q, want %s %q (%s)", info.Format, info.Layout, tc.format, tc.layout, info.Detail)
			}
			if !c.Meta.HasDataIgnore || c.Meta.DataIgnore != -9999 {
				t.Errorf("no-data %v %v, want -9999", c.Meta.HasDataIgnore, c.Meta.DataIgnore)
			}
			if len(c.Meta.Wavelengths) != len(want.Wavelengths) || c.Meta.WavelengthUnits != "Nanometers" {
				t.Fatalf("wavelengths %v %q, want %v nm", c.Meta.Wavelengths, c.Meta.WavelengthUnits, want.Wavelengths)
			}
			for i, w := range want.Wavelengths {
				if c.Meta.Wavelengths[i] != w {
					t.Fatalf("wavelengths %v, want %v", c.Meta.Wavelengths, want.Wavelengths)
				}
			}
			s := want.Shape
			for i, v := range want.Values {
				a, b, k := i/(s[1]*s[2]), i/s[2]%s[1], i%s[2]
				var got float32
				if tc.layout == "BHW" {
					got = c.At(b, k, a)
				} else {
					got = c.At(a, b, k)
				}
				if got != float32(v) {
					t.Fatalf("stored element %d = %v, want %v", i, got, v)
				}
			}
		})
	}
}
