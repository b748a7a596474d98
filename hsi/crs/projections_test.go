package crs

import (
	"fmt"
	"strings"
	"testing"
)

// Every row of the projection table is reached in both directions: its
// keys read as its PROJECTION with every PARAMETER it lists, and that WKT
// is written back as the row's transformation and parameter keys (no PE
// citation), which read as the same CRS.
func TestProjectionTableRoundTrip(t *testing.T) {
	for _, d := range projections {
		v := projValues{fe: 1000, fn: 2000, lon0: 10, lat0: 40, k: 0.9995, sp1: 30, sp2: 50, azimuth: 20, gamma: 20}
		switch d.esri {
		case "Polar_Stereographic":
			v.lat0 = 90
		case "Stereographic_North_Pole":
			v.sp1 = 71 // ProjNatOriginLatGeoKey holds the standard parallel
		case "Stereographic_South_Pole":
			v.sp1 = -71
		case "Rectified_Skew_Orthomorphic_Natural_Origin", "Rectified_Skew_Orthomorphic_Center":
			v.gamma = 25
		}
		floats := map[uint16]float64{}
		for _, kp := range d.keys {
			floats[kp.id] = v.get(kp.q)
		}
		shorts := map[uint16]uint16{KeyModelType: ModelProjected, KeyGeographicType: EPSGWGS84,
			KeyProjectedCSType: UserDefined, keyProjection: UserDefined, keyProjCoordTrans: d.ct}
		keys, doubles, ascii := keyDir(shorts, floats, "")
		c, ok := FromGeoKeys(keys, doubles, ascii)
		if !ok {
			t.Errorf("%s: keys not read", d.esri)
			continue
		}
		if !strings.Contains(c.WKT, fmt.Sprintf(`PROJECTION["%s"]`, d.esri)) {
			t.Errorf("%s: read as %s", d.esri, c.WKT)
		}
		for _, p := range d.wkt {
			if !strings.Contains(c.WKT, fmt.Sprintf(`PARAMETER["%s",`, p.name)) {
				t.Errorf("%s: %s lacks PARAMETER %s", d.esri, c.WKT, p.name)
			}
		}
		keys, doubles, ascii = GeoKeys(c, false)
		if s, ok := ASCII(keys, ascii, KeyPCSCitation); ok {
			t.Errorf("%s: written with the citation %q", d.esri, s)
		}
		if ct, _ := Short(keys, keyProjCoordTrans); ct != d.ct {
			t.Errorf("%s: written as transformation %d, want %d", d.esri, ct, d.ct)
		}
		if back, ok := FromGeoKeys(keys, doubles, ascii); !ok || !Equivalent(back, c) {
			t.Errorf("%s: written and read back as %s (ok %v)", d.esri, back.WKT, ok)
		}
	}
}
