package crs

import (
	"math"
	"sort"
	"strings"
	"sync"
)

// keyPCSLinearUnitsInterp is GDAL's ProjLinearUnitsInterpCorrectGeoKey:
// set to 1, it says that the linear projection parameters are in the
// projected CRS's linear unit (libgeotiff 1.3 and earlier took them as
// metres).
const keyPCSLinearUnitsInterp = 3059

// keyBuilder collects GeoKey entries with their doubles and text.
type keyBuilder struct {
	ents    []GeoKeyEntry
	doubles []float64
	text    string
}

func (b *keyBuilder) short(id, v uint16) {
	b.ents = append(b.ents, GeoKeyEntry{id, 0, 1, v})
}

func (b *keyBuilder) double(id uint16, v float64) {
	b.ents = append(b.ents, GeoKeyEntry{id, tagGeoDoubles, 1, uint16(len(b.doubles))})
	b.doubles = append(b.doubles, v)
}

// ascii stores s with its '|' terminator; s keeps any '|' it has (the
// separators of GDAL's geographic citation).
func (b *keyBuilder) ascii(id uint16, s string) {
	s += "|"
	b.ents = append(b.ents, GeoKeyEntry{id, tagGeoASCII, uint16(len(s)), uint16(len(b.text))})
	b.text += s
}

// directory returns the key directory (entries sorted by key ID), the
// GeoDoubleParams values and the GeoAsciiParams text.
func (b *keyBuilder) directory() ([]uint16, []float64, string) {
	sort.SliceStable(b.ents, func(i, j int) bool { return b.ents[i].ID < b.ents[j].ID })
	keys := []uint16{1, 1, 0, uint16(len(b.ents))}
	for _, e := range b.ents {
		keys = append(keys, e.ID, e.Location, e.Count, e.Value)
	}
	return keys, b.doubles, b.text
}

// citeName makes a name safe inside a citation: '|' separates its parts.
func citeName(s string) string { return strings.ReplaceAll(s, "|", "/") }

// standardKeys returns the standard user-defined GeoTIFF keys of a WKT
// CRS (ESRI WKT, as GDAL writes it in ENVI headers and as userDefinedWKT
// makes it) as GDAL 3.6 writes them by default: GTModelTypeGeoKey, the
// geographic CRS (an EPSG code, or a user-defined one on an EPSG or
// user-defined datum and ellipsoid), and for a projected CRS
// GTCitationGeoKey, ProjectedCSTypeGeoKey and ProjectionGeoKey
// user-defined (or an EPSG UTM conversion code), ProjCoordTransGeoKey, the
// parameters and ProjLinearUnitsGeoKey. ok is false for a CRS these keys do
// not describe, and for one that userDefinedWKT would not read back from
// them as the same CRS (Equivalent).
func standardKeys(wkt string) (b keyBuilder, ok bool) {
	n, err := Parse(wkt)
	if err != nil {
		return b, false
	}
	switch n.Key {
	case "GEOGCS":
		b.short(KeyModelType, ModelGeographic)
		ok = geogKeys(&b, n)
	case "PROJCS":
		unit, unitOK := linearUnit(n)
		if !unitOK {
			return b, false
		}
		b.short(KeyModelType, ModelProjected)
		b.ascii(KeyCitation, citeName(n.Name()))
		b.short(KeyProjectedCSType, UserDefined)
		b.short(keyProjLinearUnits, unit)
		if unit != unitMetre {
			b.short(keyPCSLinearUnitsInterp, 1)
		}
		ok = projKeys(&b, n) && geogKeys(&b, n.Child("GEOGCS"))
	}
	if !ok {
		return b, false
	}
	check := keyBuilder{ents: append([]GeoKeyEntry(nil), b.ents...), doubles: b.doubles, text: b.text}
	back, ok := userDefinedWKT(check.directory())
	return b, ok && Equivalent(CRS{WKT: back}, CRS{WKT: wkt})
}

// linearUnit returns the EPSG code of a PROJCS's linear unit: metre, foot
// or US survey foot.
func linearUnit(n *Node) (uint16, bool) {
	var u *Node
	for _, a := range n.Args {
		if a.Node != nil && a.Node.Key == "UNIT" {
			u = a.Node
		}
	}
	v, ok := u.Num(0)
	switch {
	case u == nil:
		return unitMetre, true
	case !ok:
		return 0, false
	case v == 1:
		return unitMetre, true
	case math.Abs(v-0.3048) < 1e-12:
		return unitFoot, true
	case math.Abs(v-1200.0/3937) < 1e-12:
		return unitUSFoot, true
	}
	return 0, false
}

// epsgGeogNames are the EPSG names GDAL cites for the geographic CRSs it
// identifies by their datum's name (OGRSpatialReference::GetEPSGGeogCS).
var epsgGeogNames = map[int]string{4326: "WGS 84", 4322: "WGS 72", 4269: "NAD83", 4267: "NAD27"}

// geogKeys adds the keys of a GEOGCS in degrees: GeographicTypeGeoKey with
// an EPSG code where GDAL identifies it by its datum's name (WGS 84, WGS 72,
// NAD83, NAD27 on Greenwich), cited by the EPSG name where the GEOGCS has
// the code's ESRI name, else a
// user-defined geographic CRS on an EPSG or user-defined datum and
// ellipsoid, with GDAL's citation "GCS Name = ...|Datum = ...|Ellipsoid =
// ...|Primem = ...".
func geogKeys(b *keyBuilder, g *Node) bool {
	if g == nil || g.Key != "GEOGCS" {
		return false
	}
	if !isDegrees(g) {
		return false
	}
	d := g.Child("DATUM")
	s := d.Child("SPHEROID")
	a, ok1 := s.Num(0)
	rf, ok2 := s.Num(1)
	pm := g.Child("PRIMEM")
	lon, ok3 := pm.Num(0)
	if pm == nil {
		lon, ok3 = 0, true
	}
	if !ok1 || !ok2 || !ok3 || !(a > 0) || rf < 0 || math.IsInf(a, 0) || math.IsInf(rf, 0) || math.IsNaN(rf) || math.IsNaN(lon) {
		return false
	}
	ellipsoid := func() {
		b.double(keyGeogSemiMajorAxis, a)
		if rf == 0 {
			b.double(keyGeogSemiMinorAxis, a)
		} else {
			b.double(keyGeogInvFlattening, rf)
		}
	}
	b.short(keyGeogAngularUnits, unitDegree)
	if code := geogCode(g, lon); code > 0 {
		b.short(KeyGeographicType, uint16(code))
		name := g.Name()
		if t, err := Parse(FromEPSG(code).WKT); err == nil && t.Name() == name && epsgGeogNames[code] != "" {
			name = epsgGeogNames[code]
		}
		b.ascii(KeyGeogCitation, citeName(name))
		ellipsoid()
		return true
	}
	b.short(KeyGeographicType, UserDefined)
	cite := "GCS Name = " + citeName(g.Name())
	if code := datumCode(d.Name(), a, lon); code > 0 {
		b.short(keyGeogGeodeticDatum, uint16(code))
	} else {
		b.short(keyGeogGeodeticDatum, UserDefined)
		cite += "|Datum = " + citeName(d.Name())
		if code := ellipsoidCode(s.Name(), a, rf); code > 0 {
			b.short(keyGeogEllipsoid, uint16(code))
		} else {
			b.short(keyGeogEllipsoid, UserDefined)
			cite += "|Ellipsoid = " + citeName(s.Name())
		}
	}
	pmName := pm.Name()
	if pm == nil {
		pmName = "Greenwich"
	}
	b.ascii(KeyGeogCitation, cite+"|Primem = "+citeName(pmName)+"|")
	ellipsoid()
	b.double(keyGeogPrimeMeridianLon, lon)
	return true
}

// geogCode returns the EPSG code GDAL gives a GEOGCS whose datum or own
// name is that of WGS 84, WGS 72, NAD83 or NAD27, on the Greenwich
// meridian; 0 for any other (GDAL writes another EPSG geographic CRS, ED50
// say, as a user-defined one on its EPSG datum).
func geogCode(g *Node, lon float64) int {
	if lon != 0 {
		return 0
	}
	name, datum := g.Name(), g.Child("DATUM").Name()
	has := func(subs ...string) bool {
		for _, s := range subs {
			if strings.Contains(name, s) || strings.Contains(datum, s) {
				return true
			}
		}
		return false
	}
	wgs := has("WGS", "World Geodetic System", "World_Geodetic_System")
	nad := has("NAD", "North American", "North_American")
	switch {
	case wgs && has("84"):
		return 4326
	case wgs && has("72"):
		return 4322
	case nad && has("83"):
		return 4269
	case nad && has("27"):
		return 4267
	}
	return 0
}

// refElement is an EPSG datum or ellipsoid of the table: its code, the
// semi-major axis, and the inverse flattening (ellipsoid) or the prime
// meridian of its geographic CRS (datum).
type refElement struct {
	code      int
	a, second float64
}

// refIndex holds the table's EPSG datums and ellipsoids by ESRI name,
// built once, on first use.
var refIndex = sync.OnceValue(func() (idx struct{ datums, ellipsoids map[string][]refElement }) {
	idx.datums, idx.ellipsoids = map[string][]refElement{}, map[string][]refElement{}
	t := table()
	for code, geog := range t.datum {
		g, err := Parse(FromEPSG(geog).WKT)
		if err != nil {
			continue
		}
		d := g.Child("DATUM")
		a, _ := d.Child("SPHEROID").Num(0)
		pm, _ := g.Child("PRIMEM").Num(0)
		idx.datums[d.Name()] = append(idx.datums[d.Name()], refElement{code, a, pm})
	}
	for code, geog := range t.ellps {
		g, err := Parse(FromEPSG(geog).WKT)
		if err != nil {
			continue
		}
		e := g.Child("DATUM").Child("SPHEROID")
		a, _ := e.Num(0)
		rf, _ := e.Num(1)
		idx.ellipsoids[e.Name()] = append(idx.ellipsoids[e.Name()], refElement{code, a, rf})
	}
	return idx
})

// datumCode returns the EPSG datum whose ESRI name (in the table) is name,
// on an ellipsoid of semi-major axis a, preferring one whose geographic
// CRS has the prime meridian lon, then the smallest code; 0 if none.
func datumCode(name string, a, lon float64) int {
	best, bestPM := 0, false
	for _, d := range refIndex().datums[name] {
		if math.Abs(d.a-a) > 1e-3 {
			continue
		}
		samePM := math.Abs(d.second-lon) < 1e-9
		if best == 0 || samePM && !bestPM || samePM == bestPM && d.code < best {
			best, bestPM = d.code, samePM
		}
	}
	return best
}

// ellipsoidCode returns the smallest EPSG ellipsoid with the ESRI name and
// the axis and inverse flattening; 0 if none.
func ellipsoidCode(name string, a, rf float64) int {
	best := 0
	for _, e := range refIndex().ellipsoids[name] {
		if math.Abs(e.a-a) > 1e-3 || math.Abs(e.second-rf) > 1e-9*math.Max(1, rf) {
			continue
		}
		if best == 0 || e.code < best {
			best = e.code
		}
	}
	return best
}

// projKeys adds ProjectionGeoKey, ProjCoordTransGeoKey and the parameter
// keys GDAL writes for the ESRI PROJECTION of a PROJCS (an EPSG UTM
// conversion code for a UTM zone's Transverse Mercator), the reverse of
// projection(); ok is false for a projection the table does not map.
func projKeys(b *keyBuilder, n *Node) bool {
	p := params(n)
	get := func(def float64, names ...string) float64 {
		for _, k := range names {
			if v, ok := p[k]; ok {
				return v
			}
		}
		return def
	}
	v := projValues{
		fe: get(0, "false_easting"), fn: get(0, "false_northing"),
		lon0: get(0, "central_meridian", "longitude_of_origin", "longitude_of_center"),
		lat0: get(0, "latitude_of_origin", "latitude_of_center"),
		k:    get(1, "scale_factor"),
		sp1:  get(0, "standard_parallel_1"), sp2: get(0, "standard_parallel_2"),
		azimuth: get(0, "azimuth"),
	}
	v.gamma = get(v.azimuth, "xy_plane_rotation")
	_, v.hasK = p["scale_factor"]

	name := n.Child("PROJECTION").Name()
	if strings.EqualFold(name, "transverse_mercator") {
		if zone, ok := utmConversion(v.lon0, v.k, v.fe, v.fn, v.lat0, n); ok {
			b.short(keyProjection, zone)
			return true
		}
	}
	d, ok := projectionRow(name, &v)
	if !ok {
		return false
	}
	var dbl []keyParam
	for _, kp := range d.keys {
		x := v.get(kp.q)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
		if !(kp.unlessOne && x == 1) {
			dbl = append(dbl, kp)
		}
	}
	b.short(keyProjection, UserDefined)
	b.short(keyProjCoordTrans, d.ct)
	for _, kp := range dbl {
		b.double(kp.id, v.get(kp.q))
	}
	return true
}

// utmConversion returns the EPSG UTM conversion code (16001-16060 north,
// 16101-16160 south) of Transverse Mercator parameters in metres that are
// a UTM zone's, as GDAL writes them in ProjectionGeoKey.
func utmConversion(cm, k, fe, fn, lat0 float64, n *Node) (uint16, bool) {
	if k != 0.9996 || fe != 500000 || lat0 != 0 || (fn != 0 && fn != 10000000) {
		return 0, false
	}
	if u, _ := linearUnit(n); u != unitMetre {
		return 0, false
	}
	z := (cm + 183) / 6
	if z != math.Trunc(z) || z < 1 || z > 60 {
		return 0, false
	}
	if fn == 0 {
		return uint16(convUTMN + int(z)), true
	}
	return uint16(convUTMS + int(z)), true
}
