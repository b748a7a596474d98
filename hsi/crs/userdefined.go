package crs

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Geographic and projection geokeys (GeoTIFF 1.1) of user-defined CRSs.
const (
	keyGeogGeodeticDatum    = 2050
	keyGeogPrimeMeridian    = 2051
	keyGeogLinearUnits      = 2052
	keyGeogAngularUnits     = 2054
	keyGeogEllipsoid        = 2056
	keyGeogSemiMajorAxis    = 2057
	keyGeogSemiMinorAxis    = 2058
	keyGeogInvFlattening    = 2059
	keyGeogPrimeMeridianLon = 2061
	keyProjection           = 3074
	keyProjCoordTrans       = 3075
	keyProjLinearUnits      = 3076
	keyStdParallel1         = 3078
	keyStdParallel2         = 3079
	keyNatOriginLong        = 3080
	keyNatOriginLat         = 3081
	keyFalseEasting         = 3082
	keyFalseNorthing        = 3083
	keyFalseOriginLong      = 3084
	keyFalseOriginLat       = 3085
	keyFalseOriginEast      = 3086
	keyFalseOriginNorth     = 3087
	keyCenterLong           = 3088
	keyCenterLat            = 3089
	keyCenterEasting        = 3090
	keyCenterNorthing       = 3091
	keyScaleAtNatOrigin     = 3092
	keyScaleAtCenter        = 3093
	keyAzimuthAngle         = 3094
	keyStraightVertPoleLong = 3095
	keyRectifiedGridAngle   = 3096

	unitMetre   = 9001
	unitFoot    = 9002
	unitUSFoot  = 9003
	unitDegree  = 9102
	convUTMN    = 16000 // + zone: EPSG conversion "UTM zone zN"
	convUTMS    = 16100 // + zone: "UTM zone zS"
	ctHotineAzC = 9815  // libgeotiff's code for Hotine Oblique Mercator variant B
)

// Coordinate transformation codes (ProjCoordTransGeoKey) this package
// turns into WKT.
const (
	ctTransverseMercator   = 1
	ctObliqueMercator      = 3 // Hotine variant A
	ctLabordeOblique       = 4
	ctMercator             = 7
	ctLambertConfConic2SP  = 8
	ctLambertConfConic1SP  = 9
	ctLambertAzimEqArea    = 10
	ctAlbersEqualArea      = 11
	ctAzimuthalEquidistant = 12
	ctEquidistantConic     = 13
	ctStereographic        = 14
	ctPolarStereographic   = 15
	ctObliqueStereographic = 16
	ctEquirectangular      = 17
	ctCassiniSoldner       = 18
	ctGnomonic             = 19
	ctMillerCylindrical    = 20
	ctOrthographic         = 21
	ctPolyconic            = 22
	ctRobinson             = 23
	ctSinusoidal           = 24
	ctVanDerGrinten        = 25
	ctNewZealandMapGrid    = 26
	ctTMSouthOriented      = 27
	ctCylindricalEqualArea = 28
)

// double returns a key's value from GeoDoubleParamsTag (or a short stored
// in the directory).
func double(keys []uint16, doubles []float64, id uint16) (float64, bool) {
	for _, e := range Entries(keys) {
		if e.ID != id {
			continue
		}
		switch e.Location {
		case 0:
			return float64(e.Value), true
		case tagGeoDoubles:
			if int(e.Value) < len(doubles) {
				return doubles[e.Value], true
			}
		}
	}
	return 0, false
}

// num formats a WKT number as GDAL does: 15 significant digits, and ".0"
// after an integer.
func num(v float64) string {
	s := strconv.FormatFloat(v, 'g', 15, 64)
	if strings.ContainsAny(s, "e") {
		s = strconv.FormatFloat(v, 'f', -1, 64)
	}
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

// esriName turns a name into the ESRI form GDAL writes: every run of
// characters other than letters and digits becomes one '_', none at the
// ends.
func esriName(s string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.TrimSpace(s) {
		if r < 128 && (isAlnum(byte(r)) || r == '+') {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	if b.Len() == 0 {
		return "unknown"
	}
	return b.String()
}

// citationParts reads GDAL's GeogCitationGeoKey "GCS Name = a|Datum = b|
// Ellipsoid = c|Primem = d|"; a citation without such parts is the name
// of the geographic CRS.
func citationParts(s string) map[string]string {
	out := map[string]string{}
	for _, p := range strings.Split(s, "|") {
		if k, v, ok := strings.Cut(p, "="); ok {
			out[strings.ToLower(strings.TrimSpace(k))] = strings.TrimSpace(v)
		}
	}
	if len(out) == 0 && strings.TrimSpace(s) != "" {
		out["gcs name"] = strings.TrimSpace(s)
	}
	return out
}

// element returns the text of the first element with the keyword in the
// table's WKT of an EPSG code ("" if none).
func element(code int, key string) string {
	n, err := Parse(FromEPSG(code).WKT)
	if err != nil {
		return ""
	}
	var find func(*Node) *Node
	find = func(n *Node) *Node {
		if n.Key == key {
			return n
		}
		for _, a := range n.Args {
			if a.Node != nil {
				if f := find(a.Node); f != nil {
					return f
				}
			}
		}
		return nil
	}
	if f := find(n); f != nil {
		return f.String()
	}
	return ""
}

// String writes the element back as WKT, numbers and tokens as they were
// read.
func (n *Node) String() string {
	var b strings.Builder
	b.WriteString(n.Key)
	b.WriteByte('[')
	for i, a := range n.Args {
		if i > 0 {
			b.WriteByte(',')
		}
		switch {
		case a.Node != nil:
			b.WriteString(a.Node.String())
		case a.Quoted:
			b.WriteString(`"` + strings.ReplaceAll(a.Text, `"`, `""`) + `"`)
		default:
			b.WriteString(a.Text)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// geogCS returns the ESRI GEOGCS of a GeoTIFF's geographic keys: an EPSG
// geographic CRS by its code, or one made of an EPSG or user-defined datum
// (name from GDAL's citation), ellipsoid (semi-major axis with inverse
// flattening or semi-minor axis) and prime meridian, in degrees.
func geogCS(keys []uint16, doubles []float64, ascii string) (string, bool) {
	if u, ok := Short(keys, keyGeogAngularUnits); ok && u != unitDegree {
		return "", false
	}
	if u, ok := Short(keys, keyGeogLinearUnits); ok && u != unitMetre {
		return "", false
	}
	if code, ok := Short(keys, KeyGeographicType); ok && code > 0 && code < UserDefined {
		w := FromEPSG(int(code)).WKT
		if !strings.HasPrefix(w, "GEOGCS[") {
			return "", false
		}
		return w, true
	}
	cite := map[string]string{}
	if s, ok := ASCII(keys, ascii, KeyGeogCitation); ok {
		cite = citationParts(s)
	}
	name := func(k string) string {
		if v := cite[k]; v != "" {
			return v
		}
		return "unknown"
	}
	t := table()
	var datum string
	if code, ok := Short(keys, keyGeogGeodeticDatum); ok && code > 0 && code < UserDefined {
		geog, ok := t.datum[int(code)]
		if !ok {
			return "", false
		}
		datum = element(geog, "DATUM")
	} else {
		var spheroid string
		if code, ok := Short(keys, keyGeogEllipsoid); ok && code > 0 && code < UserDefined {
			geog, ok := t.ellps[int(code)]
			if !ok {
				return "", false
			}
			spheroid = element(geog, "SPHEROID")
		} else {
			a, ok := double(keys, doubles, keyGeogSemiMajorAxis)
			if !ok || !(a > 0) {
				return "", false
			}
			rf, ok := double(keys, doubles, keyGeogInvFlattening)
			if !ok {
				b, ok := double(keys, doubles, keyGeogSemiMinorAxis)
				if !ok || !(b > 0) || b > a {
					return "", false
				}
				if b < a {
					rf = a / (a - b)
				}
			}
			if rf < 0 || math.IsNaN(rf) || math.IsInf(rf, 0) {
				return "", false
			}
			spheroid = fmt.Sprintf(`SPHEROID["%s",%s,%s]`, esriName(name("ellipsoid")), num(a), num(rf))
		}
		d := esriName(name("datum"))
		if !strings.HasPrefix(d, "D_") {
			d = "D_" + d
		}
		datum = fmt.Sprintf(`DATUM["%s",%s]`, d, spheroid)
	}
	var primem string
	if code, ok := Short(keys, keyGeogPrimeMeridian); ok && code > 0 && code < UserDefined {
		geog, ok := t.primem[int(code)]
		if !ok {
			return "", false
		}
		primem = element(geog, "PRIMEM")
	} else {
		lon, _ := double(keys, doubles, keyGeogPrimeMeridianLon)
		pm := cite["primem"]
		if pm == "" {
			pm = "Greenwich"
			if lon != 0 {
				pm = "unknown"
			}
		}
		primem = fmt.Sprintf(`PRIMEM["%s",%s]`, esriName(pm), num(lon))
	}
	if datum == "" || primem == "" {
		return "", false
	}
	g := esriName(name("gcs name"))
	if !strings.HasPrefix(g, "GCS_") {
		g = "GCS_" + g
	}
	return fmt.Sprintf(`GEOGCS["%s",%s,%s,UNIT["Degree",0.0174532925199433]]`, g, datum, primem), true
}

// userDefinedWKT writes the ESRI WKT of a CRS that a GeoTIFF describes by
// its user-defined keys, as GDAL reads them and writes them to ENVI: a
// geographic CRS (geogCS), or a projected one on it given by an EPSG UTM
// conversion (ProjectionGeoKey) or by a coordinate transformation and its
// parameters, in metres or feet. ok is false for anything else.
func userDefinedWKT(keys []uint16, doubles []float64, ascii string) (string, bool) {
	model, _ := Short(keys, KeyModelType)
	if model != ModelProjected && model != ModelGeographic {
		return "", false
	}
	geog, ok := geogCS(keys, doubles, ascii)
	if !ok {
		return "", false
	}
	if model == ModelGeographic {
		return geog, true
	}
	unit := `UNIT["Meter",1.0]`
	if u, ok := Short(keys, keyProjLinearUnits); ok {
		switch u {
		case unitMetre:
		case unitFoot:
			unit = `UNIT["foot",0.3048]`
		case unitUSFoot:
			unit = `UNIT["US survey foot",0.304800609601219]`
		default:
			return "", false
		}
	}
	proj, ok := projection(keys, doubles)
	if !ok {
		return "", false
	}
	name := "unknown"
	if s, ok := ASCII(keys, ascii, KeyCitation); ok && s != "" {
		name = esriName(s)
	}
	return fmt.Sprintf(`PROJCS["%s",%s,%s,%s]`, name, geog, proj, unit), true
}

// projection returns the PROJECTION and PARAMETER elements GDAL's ESRI WKT
// has for a GeoTIFF's projection keys: an EPSG UTM conversion code, or a
// coordinate transformation of the table projections and its parameters.
func projection(keys []uint16, doubles []float64) (string, bool) {
	first := func(def float64, ids ...uint16) float64 {
		for _, id := range ids {
			if v, ok := double(keys, doubles, id); ok {
				return v
			}
		}
		return def
	}
	ct, hasCT := Short(keys, keyProjCoordTrans)
	if p, ok := Short(keys, keyProjection); ok && !hasCT {
		var zone, south int
		switch {
		case p > convUTMN && p <= convUTMN+60:
			zone = int(p) - convUTMN
		case p > convUTMS && p <= convUTMS+60:
			zone, south = int(p)-convUTMS, 1
		default:
			return "", false
		}
		return projectionWKT(ctTransverseMercator, &projValues{
			fe: 500000, fn: float64(south) * 10000000, lon0: float64(6*zone - 183), k: 0.9996})
	}
	v := projValues{
		lon0: first(0, keyNatOriginLong, keyFalseOriginLong, keyCenterLong, keyStraightVertPoleLong),
		lat0: first(0, keyNatOriginLat, keyFalseOriginLat, keyCenterLat),
		fe:   first(0, keyFalseEasting, keyFalseOriginEast, keyCenterEasting),
		fn:   first(0, keyFalseNorthing, keyFalseOriginNorth, keyCenterNorthing),
		k:    first(1, keyScaleAtNatOrigin, keyScaleAtCenter),
		sp1:  first(0, keyStdParallel1),
		sp2:  first(0, keyStdParallel2),
	}
	v.azimuth = first(0, keyAzimuthAngle)
	v.gamma = first(v.azimuth, keyRectifiedGridAngle)
	if _, ok := double(keys, doubles, keyStdParallel1); ct == ctMercator && !ok {
		// ESRI's Mercator has a standard parallel only: a 1SP scale k0 is
		// the parallel where the scale is 1/k0 of true, as GDAL writes it.
		if v.sp1 = mercatorParallel(v.k, keys, doubles); math.IsNaN(v.sp1) {
			return "", false
		}
	}
	return projectionWKT(ct, &v)
}

func wrap180(a float64) float64 {
	if a > 180 {
		return a - 360
	}
	return a
}

// mercatorParallel returns the latitude of true scale of a Mercator
// projection whose scale at the equator is k0, on the keys' ellipsoid:
// k0 = cos(lat) / sqrt(1 - e² sin²(lat)). NaN when there is none.
func mercatorParallel(k0 float64, keys []uint16, doubles []float64) float64 {
	if k0 == 1 {
		return 0
	}
	e2 := 0.0
	if rf := ellipsoidInvFlattening(keys, doubles); rf > 0 {
		f := 1 / rf
		e2 = f * (2 - f)
	}
	s2 := (1 - k0*k0) / (1 - k0*k0*e2)
	if !(s2 >= 0 && s2 <= 1) {
		return math.NaN()
	}
	return math.Asin(math.Sqrt(s2)) * 180 / math.Pi
}

// ellipsoidInvFlattening returns the inverse flattening of the keys'
// ellipsoid (0 for a sphere or when unknown).
func ellipsoidInvFlattening(keys []uint16, doubles []float64) float64 {
	if g, err := Parse(func() string { w, _ := geogCS(keys, doubles, ""); return w }()); err == nil {
		if v, ok := g.Child("DATUM").Child("SPHEROID").Num(1); ok {
			return v
		}
	}
	return 0
}
