package crs

import (
	"sort"
	"strings"
	"testing"
)

const albersESRI = `PROJCS["unknown",GEOGCS["GCS_unknown",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Albers"],PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0],PARAMETER["Central_Meridian",-96.0],PARAMETER["Standard_Parallel_1",29.5],PARAMETER["Standard_Parallel_2",45.5],PARAMETER["Latitude_Of_Origin",23.0],UNIT["Meter",1.0]]`

func TestFromWKT(t *testing.T) {
	for _, tc := range []struct {
		name, wkt string
		epsg      int
		geog      bool
		envi      string
	}{
		{"ESRI UTM name", UTMWKT(33, true), 32633, false, ""},
		{"ESRI UTM south", UTMWKT(59, false), 32759, false, ""},
		{"UTM by parameters", `PROJCS["unnamed",GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",-75],PARAMETER["scale_factor",0.9996],PARAMETER["false_easting",500000],PARAMETER["false_northing",10000000],UNIT["metre",1]]`, 32718, false, "Transverse Mercator"},
		{"authority", `PROJCS["ETRS89 / LAEA Europe",GEOGCS["ETRS89",DATUM["European_Terrestrial_Reference_System_1989",SPHEROID["GRS 1980",6378137,298.257222101]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]],PROJECTION["Lambert_Azimuthal_Equal_Area"],PARAMETER["latitude_of_center",52],PARAMETER["longitude_of_center",10],PARAMETER["false_easting",4321000],PARAMETER["false_northing",3210000],UNIT["metre",1],AUTHORITY["EPSG","3035"]]`, 3035, false, "Lambert Azimuthal Equal Area"},
		{"geographic WGS 84", wgs84GeogCS, 4326, true, ""},
		{"custom Albers", albersESRI, 0, false, "Albers Conical Equal Area"},
		{"custom geographic", `GEOGCS["GCS_Custom",DATUM["D_Custom",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`, 0, true, ""},
		{"TM not UTM", strings.Replace(UTMWKT(33, true), "0.9996", "0.9999", 1), 32633, false, ""}, // the name still says UTM
	} {
		c, err := FromWKT(tc.wkt)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if c.EPSG != tc.epsg || c.Geographic() != tc.geog {
			t.Errorf("%s: EPSG %d geographic %v, want %d %v", tc.name, c.EPSG, c.Geographic(), tc.epsg, tc.geog)
		}
		if tc.envi != "" && c.ENVIProjection() != tc.envi {
			t.Errorf("%s: ENVI projection %q, want %q", tc.name, c.ENVIProjection(), tc.envi)
		}
	}
	// UTM parameters under another name and with another scale are not UTM.
	w := strings.Replace(strings.Replace(UTMWKT(33, true), "WGS_1984_UTM_Zone_33N", "custom", 1), "0.9996", "0.9999", 1)
	if c, _ := FromWKT(w); c.EPSG != 0 {
		t.Errorf("TM with k=0.9999 identified as EPSG:%d", c.EPSG)
	}
	for _, bad := range []string{"", "PROJCS", `PROJCS["a"`, `PROJCS["a"]]`, `PROJCS["a",["b"]]`, `PROJCS["a]`} {
		if _, err := FromWKT(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseQuotes(t *testing.T) {
	n, err := Parse(`LOCAL_CS["a ""quoted"" name", UNIT ( "m", 1 ) ]`)
	if err != nil {
		t.Fatal(err)
	}
	if n.Name() != `a "quoted" name` {
		t.Errorf("name %q", n.Name())
	}
	if v, ok := n.Child("UNIT").Num(0); !ok || v != 1 {
		t.Errorf("unit %v %v", v, ok)
	}
}

func TestGeoKeysRoundTrip(t *testing.T) {
	albers, _ := FromWKT(albersESRI)
	for _, c := range []CRS{FromEPSG(32633), FromEPSG(32701), FromEPSG(4326), FromEPSG(3035), albers} {
		for _, point := range []bool{false, true} {
			keys, doubles, ascii := GeoKeys(c, point)
			got, ok := FromGeoKeys(keys, doubles, ascii)
			if !ok || !Equivalent(got, c) {
				t.Errorf("%+v: read back %+v (ok %v) from %v %q", c, got, ok, keys, ascii)
			}
			want := uint16(RasterIsArea)
			if point {
				want = RasterIsPoint
			}
			if v, _ := Short(keys, KeyRasterType); v != want {
				t.Errorf("%+v: raster type %d, want %d", c, v, want)
			}
		}
	}
	if _, ok := FromGeoKeys([]uint16{1, 1, 0, 1, KeyModelType, 0, 1, ModelProjected}, nil, ""); ok {
		t.Error("a model type alone gave a CRS")
	}
	if _, ok := FromGeoKeys([]uint16{1, 1, 0, 1, KeyPCSCitation, tagGeoASCII, 200, 0}, nil, "short"); ok {
		t.Error("a citation past the end of the text gave a CRS")
	}
}

// The embedded table gives the ESRI WKT of every EPSG geographic 2D and
// projected CRS; each text parses, is known by a code again whose text is
// the same, and the WGS 84 texts this package writes itself are GDAL's.
func TestEPSGTable(t *testing.T) {
	tab := table()
	if len(tab.wkt) < 6000 || len(tab.order) != len(tab.wkt) {
		t.Fatalf("%d codes (%d in order) in epsg_esri.txt.gz", len(tab.wkt), len(tab.order))
	}
	for zone := 1; zone <= 60; zone++ {
		for _, north := range []bool{true, false} {
			code := epsgUTMS + zone
			if north {
				code = epsgUTMN + zone
			}
			if got := UTMWKT(zone, north); got != tab.wkt[code] {
				t.Errorf("EPSG:%d: UTMWKT %s\nGDAL %s", code, got, tab.wkt[code])
			}
		}
	}
	if tab.wkt[EPSGWGS84] != wgs84GeogCS {
		t.Errorf("EPSG:4326: GDAL %s", tab.wkt[EPSGWGS84])
	}
	norm := func(s string) string { return strings.Join(strings.Fields(s), "") }
	var geog int
	for _, code := range tab.order {
		c := FromEPSG(code)
		n, err := Parse(c.WKT)
		if err != nil {
			t.Errorf("EPSG:%d: %v", code, err)
			continue
		}
		if n.Key != "GEOGCS" && n.Key != "PROJCS" {
			t.Errorf("EPSG:%d: a %s", code, n.Key)
		}
		if c.Geographic() {
			geog++
		}
		back, err := FromWKT(c.WKT)
		if err != nil || back.EPSG == 0 || norm(FromEPSG(back.EPSG).WKT) != norm(c.WKT) {
			t.Errorf("EPSG:%d read back as EPSG:%d (%v)", code, back.EPSG, err)
		}
	}
	if geog < 500 || geog > len(tab.order)-5000 {
		t.Errorf("%d geographic codes of %d", geog, len(tab.order))
	}
	for kind, m := range map[string]map[int]int{"datum": tab.datum, "ellipsoid": tab.ellps, "prime meridian": tab.primem} {
		if len(m) < 10 {
			t.Errorf("%d %ss", len(m), kind)
		}
		for c, g := range m {
			if !FromEPSG(g).Geographic() {
				t.Errorf("%s %d: EPSG:%d is not a geographic CRS of the table", kind, c, g)
			}
		}
	}
	for _, code := range []int{3035, 3857, 5070, 2154, 27700, 25832, 26910, 28355, 7855, 3413, 4258, 2227, 21781, 4807, 32661} {
		if FromEPSG(code).WKT == "" {
			t.Errorf("EPSG:%d: no WKT", code)
		}
	}
	for _, code := range []int{0, 5703, 4978, 999999} { // none, vertical, geocentric, unknown
		if FromEPSG(code).WKT != "" {
			t.Errorf("EPSG:%d got a WKT", code)
		}
	}
}

// BenchmarkEPSGTableDecode is the one-off cost of the first FromEPSG call.
func BenchmarkEPSGTableDecode(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if len(decodeTable(epsgESRI).wkt) == 0 {
			b.Fatal("empty table")
		}
	}
}

// BenchmarkEPSGReverse is the one-off cost of the first FromWKT call that
// looks a text up in the table (the table decoded already).
func BenchmarkEPSGReverse(b *testing.B) {
	t := table()
	for i := 0; i < b.N; i++ {
		if len(reverse(t)) == 0 {
			b.Fatal("empty map")
		}
	}
}

// BenchmarkFromEPSG is a lookup once the table is decoded.
func BenchmarkFromEPSG(b *testing.B) {
	table()
	for i := 0; i < b.N; i++ {
		if FromEPSG(2154).WKT == "" {
			b.Fatal("no WKT")
		}
	}
}

// BenchmarkFromWKT identifies the code of a table text (the reverse map is
// built on first use, before the timer).
func BenchmarkFromWKT(b *testing.B) {
	w := FromEPSG(2154).WKT
	FromWKT(w)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if c, _ := FromWKT(w); c.EPSG != 2154 {
			b.Fatal(c.EPSG)
		}
	}
}

// keyDir builds a GeoTIFF key directory: short keys as given, float keys
// in GeoDoubleParams, the citation in GeoAsciiParams.
func keyDir(shorts map[uint16]uint16, floats map[uint16]float64, geogCitation string) ([]uint16, []float64, string) {
	type ent struct{ id, loc, count, val uint16 }
	var ents []ent
	for id, v := range shorts {
		ents = append(ents, ent{id, 0, 1, v})
	}
	var doubles []float64
	for id, v := range floats {
		ents = append(ents, ent{id, tagGeoDoubles, 1, uint16(len(doubles))})
		doubles = append(doubles, v)
	}
	ascii := ""
	if geogCitation != "" {
		ascii = geogCitation + "|"
		ents = append(ents, ent{KeyGeogCitation, tagGeoASCII, uint16(len(ascii)), 0})
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].id < ents[j].id })
	keys := []uint16{1, 1, 0, uint16(len(ents))}
	for _, e := range ents {
		keys = append(keys, e.id, e.loc, e.count, e.val)
	}
	return keys, doubles, ascii
}

// User-defined keys GDAL's goldens do not reach: what is refused, and the
// parts (sphere, semi-minor axis, EPSG ellipsoid, datum and meridian
// codes, UTM conversion codes) read on their own.
func TestUserDefinedKeys(t *testing.T) {
	proj := map[uint16]uint16{KeyModelType: ModelProjected, KeyGeographicType: UserDefined, KeyProjectedCSType: UserDefined, keyProjCoordTrans: ctSinusoidal}
	with := func(m map[uint16]uint16, k, v uint16) map[uint16]uint16 {
		out := map[uint16]uint16{k: v}
		for a, b := range m {
			if a != k {
				out[a] = b
			}
		}
		return out
	}
	sphere := map[uint16]float64{keyGeogSemiMajorAxis: 6371007.181, keyGeogSemiMinorAxis: 6371007.181}
	for _, tc := range []struct {
		name   string
		shorts map[uint16]uint16
		floats map[uint16]float64
		cite   string
		want   []string // substrings of the WKT; nil: no CRS
	}{
		{"sphere by semi-minor axis", proj, sphere, "", []string{`SPHEROID["unknown",6371007.181,0.0]`, `PROJECTION["Sinusoidal"]`, `DATUM["D_unknown"`}},
		{"ellipsoid by semi-minor axis", proj, map[uint16]float64{keyGeogSemiMajorAxis: 6378000, keyGeogSemiMinorAxis: 6357000}, "GCS Name = g|Datum = My Datum (1)|Ellipsoid = E. 1|Primem = Greenwich",
			[]string{`GEOGCS["GCS_g",DATUM["D_My_Datum_1",SPHEROID["E_1",6378000.0,303.714285714286]]`}},
		{"EPSG ellipsoid", with(proj, keyGeogEllipsoid, 7019), nil, "", []string{`SPHEROID["GRS_1980",6378137.0,298.257222101]`}},
		{"EPSG datum", with(proj, keyGeogGeodeticDatum, 6230), nil, "", []string{`DATUM["D_European_1950",SPHEROID["International_1924",6378388.0,297.0]]`}},
		{"EPSG prime meridian", with(with(proj, keyGeogGeodeticDatum, 6807), keyGeogPrimeMeridian, 8903), nil, "", []string{`PRIMEM["Paris",2.33722917]`, `DATUM["D_NTF"`}},
		{"prime meridian by longitude", proj, map[uint16]float64{keyGeogSemiMajorAxis: 6378137, keyGeogInvFlattening: 298.257223563, keyGeogPrimeMeridianLon: 2.5}, "", []string{`PRIMEM["unknown",2.5]`}},
		{"UTM conversion south", map[uint16]uint16{KeyModelType: ModelProjected, KeyGeographicType: 4230, KeyProjectedCSType: UserDefined, keyProjection: convUTMS + 33}, nil, "",
			[]string{`GEOGCS["GCS_European_1950"`, `PARAMETER["False_Northing",10000000.0],PARAMETER["Central_Meridian",15.0],PARAMETER["Scale_Factor",0.9996]`}},
		{"geographic model", map[uint16]uint16{KeyModelType: ModelGeographic, KeyGeographicType: UserDefined, keyGeogEllipsoid: 7022}, nil, "GCS Name = Mine", []string{`GEOGCS["GCS_Mine",DATUM["D_unknown",SPHEROID["International_1924"`}},
		{"US feet", with(proj, keyProjLinearUnits, unitUSFoot), sphere, "", []string{`UNIT["US survey foot",0.304800609601219]]`}},
		{"Mercator 1SP on a sphere", with(proj, keyProjCoordTrans, ctMercator), map[uint16]float64{keyGeogSemiMajorAxis: 6371000, keyGeogSemiMinorAxis: 6371000, keyScaleAtNatOrigin: 0.5}, "", []string{`PARAMETER["Standard_Parallel_1",60.0]`}},
		{"no coordinate transformation", with(proj, keyProjCoordTrans, 0), sphere, "", nil},
		{"unknown coordinate transformation", with(proj, keyProjCoordTrans, 2), sphere, "", nil}, // TM modified Alaska
		{"unknown conversion code", map[uint16]uint16{KeyModelType: ModelProjected, KeyGeographicType: 4326, keyProjection: 10101}, nil, "", nil},
		{"radians", with(proj, keyGeogAngularUnits, 9101), sphere, "", nil},
		{"linear unit not metre or foot", with(proj, keyProjLinearUnits, 9036), sphere, "", nil},
		{"no semi-major axis", proj, map[uint16]float64{keyGeogInvFlattening: 298}, "", nil},
		{"semi-minor axis over semi-major", proj, map[uint16]float64{keyGeogSemiMajorAxis: 1, keyGeogSemiMinorAxis: 2}, "", nil},
		{"unknown datum code", with(proj, keyGeogGeodeticDatum, 6999), sphere, "", nil},
		{"unknown ellipsoid code", with(proj, keyGeogEllipsoid, 7999), nil, "", nil},
		{"geographic code that is projected", with(proj, KeyGeographicType, 3035), nil, "", nil},
		{"Mercator scale over 1", with(proj, keyProjCoordTrans, ctMercator), map[uint16]float64{keyGeogSemiMajorAxis: 6371000, keyGeogSemiMinorAxis: 6371000, keyScaleAtNatOrigin: 1.5}, "", nil},
	} {
		keys, doubles, ascii := keyDir(tc.shorts, tc.floats, tc.cite)
		c, ok := FromGeoKeys(keys, doubles, ascii)
		if tc.want == nil {
			if ok {
				t.Errorf("%s: read as %s", tc.name, c.WKT)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no CRS", tc.name)
			continue
		}
		if _, err := Parse(c.WKT); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
		for _, w := range tc.want {
			if !strings.Contains(c.WKT, w) {
				t.Errorf("%s: %s lacks %s", tc.name, c.WKT, w)
			}
		}
		// The writer gives the CRS standard keys that read back the same.
		keys, doubles, ascii = GeoKeys(c, false)
		if s, ok := ASCII(keys, ascii, KeyPCSCitation); ok {
			t.Errorf("%s: written with the citation %q", tc.name, s)
		}
		if back, ok := FromGeoKeys(keys, doubles, ascii); !ok || !Equivalent(back, c) {
			t.Errorf("%s: written and read back as %s (ok %v)", tc.name, back.WKT, ok)
		}
	}
}

// GeoKeys writes a WKT the standard keys cannot hold, or would not read
// back as the same CRS, as GDAL's ESRI PE citation of a user-defined
// model, and reads that back as the text itself.
func TestGeoKeysPEFallback(t *testing.T) {
	geog := `GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`
	proj := func(p, params, unit string) string {
		return `PROJCS["custom",` + geog + `,PROJECTION["` + p + `"],` + params + `,UNIT[` + unit + `]]`
	}
	en := `PARAMETER["False_Easting",0.0],PARAMETER["False_Northing",0.0]`
	for _, tc := range []struct {
		name, wkt string
		standard  bool
	}{
		{"sinusoidal in metres", proj("Sinusoidal", en+`,PARAMETER["Central_Meridian",10.0]`, `"Meter",1.0`), true},
		{"Mollweide", proj("Mollweide", en+`,PARAMETER["Central_Meridian",10.0]`, `"Meter",1.0`), false},
		{"kilometres", proj("Sinusoidal", en+`,PARAMETER["Central_Meridian",10.0]`, `"Kilometer",1000.0`), false},
		{"polar stereographic off the pole", proj("Polar_Stereographic", `PARAMETER["latitude_of_origin",60.0],PARAMETER["central_meridian",0.0],PARAMETER["scale_factor",1.0],PARAMETER["false_easting",0.0],PARAMETER["false_northing",0.0]`, `"Meter",1.0`), false},
		{"local with an azimuth", proj("Local", en+`,PARAMETER["Scale_Factor",1.0],PARAMETER["Azimuth",10.0],PARAMETER["Longitude_Of_Center",10.0],PARAMETER["Latitude_Of_Center",40.0]`, `"Meter",1.0`), false},
		{"OGC parameter names", proj("Sinusoidal", `PARAMETER["false_easting",0],PARAMETER["false_northing",0],PARAMETER["central_meridian",10]`, `"metre",1`), false},
		{"geographic in grads", `GEOGCS["GCS_mine",DATUM["D_mine",SPHEROID["S",6378000.0,300.0]],PRIMEM["Greenwich",0.0],UNIT["Grad",0.0157079632679489]]`, false},
		{"geographic in degrees", `GEOGCS["GCS_mine",DATUM["D_mine",SPHEROID["S",6378000.0,300.0]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]`, true},
	} {
		c, err := FromWKT(tc.wkt)
		if err != nil || c.EPSG != 0 {
			t.Fatalf("%s: %v, EPSG %d", tc.name, err, c.EPSG)
		}
		keys, doubles, ascii := GeoKeys(c, false)
		model, _ := Short(keys, KeyModelType)
		cite, pe := ASCII(keys, ascii, KeyPCSCitation)
		if pe == tc.standard || model == UserDefined == tc.standard {
			t.Errorf("%s: model type %d, PCS citation %q", tc.name, model, cite)
		}
		if !tc.standard && cite != esriPE+tc.wkt {
			t.Errorf("%s: citation %q", tc.name, cite)
		}
		back, ok := FromGeoKeys(keys, doubles, ascii)
		if !ok || !Equivalent(back, c) || !tc.standard && back.WKT != c.WKT {
			t.Errorf("%s: read back %s (ok %v)", tc.name, back.WKT, ok)
		}
	}
}

func TestEquivalent(t *testing.T) {
	a, _ := FromWKT(albersESRI)
	for _, tc := range []struct {
		name string
		b    string
		same bool
	}{
		{"itself", albersESRI, true},
		{"another geographic CRS name", strings.Replace(albersESRI, "GCS_unknown", "GCS_WGS_1984", 1), true},
		{"numbers written otherwise", strings.Replace(albersESRI, "29.5", "29.50000000000001", 1), true},
		{"another parameter", strings.Replace(albersESRI, "29.5", "29.6", 1), false},
		{"another datum name", strings.Replace(albersESRI, "D_WGS_1984", "D_other", 1), false},
		{"another projected CRS name", strings.Replace(albersESRI, `PROJCS["unknown"`, `PROJCS["x"`, 1), false},
	} {
		b, err := FromWKT(tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if Equivalent(a, b) != tc.same || Equivalent(b, a) != tc.same {
			t.Errorf("%s: equivalent %v, want %v", tc.name, Equivalent(a, b), tc.same)
		}
	}
	if Equivalent(FromEPSG(32633), FromEPSG(32634)) || !Equivalent(FromEPSG(32633), CRS{EPSG: 32633}) {
		t.Error("EPSG codes compared wrongly")
	}
}

// BenchmarkGeoKeysUserDefined writes the keys of a CRS on a user-defined
// datum and an EPSG ellipsoid (the datum and ellipsoid looked up in the
// table, the keys read back to check them), once the table is decoded.
func BenchmarkGeoKeysUserDefined(b *testing.B) {
	keys, doubles, ascii := keyDir(map[uint16]uint16{KeyModelType: ModelProjected, KeyGeographicType: UserDefined,
		KeyProjectedCSType: UserDefined, keyProjCoordTrans: ctTransverseMercator, keyGeogEllipsoid: 7019},
		map[uint16]float64{keyNatOriginLong: 9, keyScaleAtNatOrigin: 0.9999}, "GCS Name = g|Datum = d|Primem = Greenwich")
	c, ok := FromGeoKeys(keys, doubles, ascii)
	if !ok {
		b.Fatal("no CRS")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k, _, _ := GeoKeys(c, false)
		if v, _ := Short(k, keyGeogEllipsoid); v != 7019 {
			b.Fatal(v)
		}
	}
}

// EPSGName gives GDAL's names (gdalinfo: PROJCRS["SIRGAS 2000 / UTM zone
// 25S", ...), not the ESRI WKT's spelling.
func TestEPSGName(t *testing.T) {
	for code, want := range map[int]string{4326: "WGS 84", 31985: "SIRGAS 2000 / UTM zone 25S", 32633: "WGS 84 / UTM zone 33N", 3035: "ETRS89-extended / LAEA Europe", 1: ""} {
		if got := EPSGName(code); got != want {
			t.Errorf("EPSGName(%d) = %q, want %q", code, got, want)
		}
	}
}
