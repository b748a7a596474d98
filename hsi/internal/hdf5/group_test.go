package hdf5

import (
	"path/filepath"
	"testing"
)

// TestNetCDF4 reads the EMIT miniature that netCDF-C wrote: nested groups,
// 39 global attributes in dense storage (fractal heap + B-tree v2),
// array attributes and DIMENSION_LIST references to dimension scales.
func TestNetCDF4(t *testing.T) {
	f := openFile(t, filepath.Join("..", "..", "products", "testdata", "EMIT_L2A_RFL_001_20230801T101112_2321307_002.nc"))
	root, err := f.Root()
	if err != nil {
		t.Fatal(err)
	}
	if len(root.Attrs) != 39 {
		t.Errorf("%d root attributes, want 39", len(root.Attrs))
	}
	if gt := root.AttrNums("geotransform"); len(gt) != 6 || gt[0] != -118.25 || gt[3] != 34.1 {
		t.Errorf("geotransform %v", gt)
	}
	if s := root.AttrString("time_coverage_start"); s != "2023-08-01T10:11:12+0000" {
		t.Errorf("time_coverage_start %q", s)
	}
	o, err := f.Open("/sensor_band_parameters/wavelengths")
	if err != nil {
		t.Fatal(err)
	}
	if o.Path != "/sensor_band_parameters/wavelengths" || o.Kind != KindDataset || len(o.Dims) != 1 || o.Dims[0] != 7 || o.AttrString("units") != "nm" {
		t.Errorf("wavelengths: %s %v %q", o.Path, o.Dims, o.AttrString("units"))
	}
	refl, err := f.Open("reflectance")
	if err != nil {
		t.Fatal(err)
	}
	byAddr := map[uint64]string{}
	if err := root.Walk(func(o *Object) error { byAddr[o.Addr] = o.Path; return nil }); err != nil {
		t.Fatal(err)
	}
	refs := refl.Attrs["DIMENSION_LIST"].Refs
	want := []string{"/downtrack", "/crosstrack", "/bands"}
	if len(refs) != 3 {
		t.Fatalf("DIMENSION_LIST %v", refs)
	}
	for i, r := range refs {
		if len(r) != 1 || byAddr[r[0]] != want[i] {
			t.Errorf("dimension %d -> %v (%s), want %s", i, r, byAddr[r[0]], want[i])
		}
	}
	if _, err := f.Open("/location/nothing"); err == nil {
		t.Error("missing member: no error")
	}
	if v, err := readAll(refl); err != nil || len(v) != 4*3*7 || float32(v[0]) != 0.05 {
		t.Errorf("reflectance: %v %v", err, v[:1])
	}
}
