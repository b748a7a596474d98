package tiff

import (
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/crs"
)

func TestGDALMetadataImagery(t *testing.T) {
	md := `<GDALMetadata>
  <Item name="CENTRAL_WAVELENGTH_UM" sample="0" domain="IMAGERY">0.45</Item>
  <Item name="FWHM_UM" sample="0" domain="IMAGERY">0.01</Item>
  <Item name="CENTRAL_WAVELENGTH_UM" sample="1" domain="IMAGERY">0.55</Item>
  <Item name="FWHM_UM" sample="1" domain="IMAGERY">0.02</Item>
  <Item name="DESCRIPTION" sample="1" role="description">green</Item>
</GDALMetadata>`
	var m hsi.Meta
	applyGDALMetadata(&m, md, 2)
	if !equalF(m.Wavelengths, []float64{0.45, 0.55}) || m.WavelengthUnits != "Micrometers" || !equalF(m.FWHM, []float64{0.01, 0.02}) {
		t.Errorf("meta %+v", m)
	}
	if m.BandNames != nil {
		t.Errorf("band names %q from one description of two", m.BandNames)
	}
	// Damaged XML is ignored.
	var m2 hsi.Meta
	applyGDALMetadata(&m2, "<GDALMetadata><Item", 2)
	if m2.Wavelengths != nil {
		t.Errorf("meta from damaged XML: %+v", m2)
	}
}

func TestGeoKeyHelpers(t *testing.T) {
	keys := setKeys(nil, map[uint16]uint16{keyGTRasterType: rasterPixelIsPoint, keyGTModelType: 2})
	if v, ok := geoKeyValue(keys, keyGTRasterType); !ok || v != rasterPixelIsPoint {
		t.Errorf("raster type %v %v in %v", v, ok, keys)
	}
	if keys[3] != 2 || keys[4] != keyGTModelType {
		t.Errorf("keys not sorted or counted: %v", keys)
	}
	g := &hsi.Geo{GeoKeys: keys, PixelIsPoint: false}
	w := geoKeysForWrite(g)
	if v, _ := geoKeyValue(w, keyGTRasterType); v != rasterPixelIsArea {
		t.Errorf("PixelIsArea not written back: %v", w)
	}
	for _, mi := range []string{"UTM, 1, 1, 0, 0, 30, 30, 33, South, WGS-84", "Geographic Lat/Lon, 1, 1, 10, 50, 0.1, 0.1, WGS-84"} {
		c, note := (&hsi.Geo{MapInfo: mi}).CRS()
		if note != "" {
			t.Fatalf("%s: %s", mi, note)
		}
		k, _, _ := crs.GeoKeys(c, false)
		if mi[0] == 'U' {
			if v, _ := geoKeyValue(k, keyProjectedCSType); v != 32733 {
				t.Errorf("%s: EPSG %d, want 32733", mi, v)
			}
		} else if v, _ := geoKeyValue(k, keyGeographicType); v != 4326 {
			t.Errorf("%s: EPSG %d, want 4326", mi, v)
		}
	}
}
