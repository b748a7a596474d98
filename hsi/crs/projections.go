package crs

import (
	"fmt"
	"math"
	"strings"
)

// The projections this package maps between GeoTIFF's user-defined keys
// and GDAL's ESRI WKT, one row each (projections): the ESRI PROJECTION
// name, the GeoTIFF coordinate transformation, the PARAMETER elements in
// the order and spelling of GDAL's ESRI WKT, and the parameter keys in the
// order GDAL 3.6 writes them. projection() reads keys to WKT by the row of
// the key's transformation, projKeys() writes WKT to keys by the row of the
// PROJECTION name; where one name or one transformation has two forms (the
// Lambert conformal conic with one or two standard parallels, polar
// stereographic variant A or B, Hotine or rectified skew), readIf and
// writeIf choose the row.

// quantity is a projection parameter as both directions see it.
type quantity int

const (
	qFE         quantity = iota // false easting
	qFN                         // false northing
	qLon0                       // longitude of the origin, centre or central meridian
	qLat0                       // latitude of the origin or centre
	qK                          // scale factor
	qSP1                        // first standard parallel
	qSP2                        // second standard parallel
	qAzimuth                    // azimuth of the centre line
	qGamma                      // rectified grid angle (default: the azimuth)
	qAzimuth180                 // the azimuth, less 360 over 180 degrees (GDAL's ESRI WKT)
	qGamma180                   // the rectified grid angle, likewise
	qZero                       // the constant 0
	qOne                        // the constant 1
)

// projValues are the parameters of one projection: read from GeoTIFF keys
// (keyValues) or from a WKT's PARAMETER elements (wktValues).
type projValues struct {
	fe, fn, lon0, lat0, k, sp1, sp2, azimuth, gamma float64
	hasK                                            bool // the WKT has a scale factor
}

func (v *projValues) get(q quantity) float64 {
	switch q {
	case qFE:
		return v.fe
	case qFN:
		return v.fn
	case qLon0:
		return v.lon0
	case qLat0:
		return v.lat0
	case qK:
		return v.k
	case qSP1:
		return v.sp1
	case qSP2:
		return v.sp2
	case qAzimuth:
		return v.azimuth
	case qGamma:
		return v.gamma
	case qAzimuth180:
		return wrap180(v.azimuth)
	case qGamma180:
		return wrap180(v.gamma)
	case qOne:
		return 1
	}
	return 0
}

// wktParam is a PARAMETER element: its name as GDAL spells it and its value.
type wktParam struct {
	name string
	q    quantity
}

// keyParam is a GeoTIFF parameter key and its value; unlessOne leaves the
// key out when the value is 1.
type keyParam struct {
	id        uint16
	q         quantity
	unlessOne bool
}

// projDef is one row of projections.
type projDef struct {
	esri   string // the ESRI PROJECTION name
	ct     uint16 // ProjCoordTransGeoKey
	wkt    []wktParam
	keys   []keyParam
	readIf func(v *projValues) bool // nil: every set of keys of ct
	// writeIf says whether WKT parameters are this row's form (nil: all).
	writeIf func(v *projValues) bool
	envi    string // the name in ENVI's map info ("": the WKT's)
	ogc     string // the OGC WKT name that also means this row, for envi
}

// The parameter lists most projections share.
var (
	wktEN         = []wktParam{{"False_Easting", qFE}, {"False_Northing", qFN}}
	wktCM         = wktParam{"Central_Meridian", qLon0}
	wktLatOrigin  = wktParam{"Latitude_Of_Origin", qLat0}
	wktScale      = wktParam{"Scale_Factor", qK}
	wktSP1        = wktParam{"Standard_Parallel_1", qSP1}
	wktSP2        = wktParam{"Standard_Parallel_2", qSP2}
	wktLonCenter  = wktParam{"Longitude_Of_Center", qLon0}
	wktLatCenter  = wktParam{"Latitude_Of_Center", qLat0}
	keysEN        = []keyParam{{id: keyFalseEasting, q: qFE}, {id: keyFalseNorthing, q: qFN}}
	keysNatural   = []keyParam{{id: keyNatOriginLong, q: qLon0}, {id: keyNatOriginLat, q: qLat0}}
	keysCenter    = []keyParam{{id: keyCenterLong, q: qLon0}, {id: keyCenterLat, q: qLat0}}
	keyScaleNat   = keyParam{id: keyScaleAtNatOrigin, q: qK}
	keyScaleNat1  = keyParam{id: keyScaleAtNatOrigin, q: qOne}
	keySP1        = keyParam{id: keyStdParallel1, q: qSP1}
	keySP2        = keyParam{id: keyStdParallel2, q: qSP2}
	keyCenterLon  = keyParam{id: keyCenterLong, q: qLon0}
	wktTMLower    = []wktParam{{"latitude_of_origin", qLat0}, {"central_meridian", qLon0}, {"scale_factor", qK}, {"false_easting", qFE}, {"false_northing", qFN}}
	wktHotine     = cat(wktEN, wktScale, wktParam{"Azimuth", qAzimuth180}, wktLonCenter, wktLatCenter)
	keysHotine    = cat(keysEN, keysCenter[0], keysCenter[1], keyParam{id: keyScaleAtCenter, q: qK}, keyParam{id: keyAzimuthAngle, q: qAzimuth}, keyParam{id: keyRectifiedGridAngle, q: qGamma})
	isHotine      = func(v *projValues) bool { return v.gamma == v.azimuth }
	isSkew        = func(v *projValues) bool { return v.gamma != v.azimuth }
	polarA        = func(v *projValues) bool { return math.Abs(v.lat0) == 90 }
	wktPolarB     = cat(wktEN, wktCM, wktParam{"Standard_Parallel_1", qLat0})
	keysPolarB    = cat([]keyParam{{id: keyNatOriginLat, q: qSP1}}, keysEN[0], keysEN[1], keyScaleNat1, keyParam{id: keyStraightVertPoleLong, q: qLon0})
	cylindricalCM = cat(wktEN, wktCM)
)

// cat joins a list and more elements into a new list.
func cat[T any](list []T, more ...T) []T {
	return append(append([]T(nil), list...), more...)
}

// projections is the table (see above), in the order rows are tried.
var projections = []projDef{
	{esri: "Transverse_Mercator", ct: ctTransverseMercator, envi: "Transverse Mercator",
		wkt:  cat(wktEN, wktCM, wktScale, wktLatOrigin),
		keys: cat(keysNatural, keysEN[0], keysEN[1], keyScaleNat)},
	{esri: "Transverse_Mercator_South_Orientated", ct: ctTMSouthOriented,
		wkt:  wktTMLower,
		keys: cat(keysNatural, keysEN[0], keysEN[1], keyScaleNat)},
	// ESRI's Mercator has a standard parallel only; projection() turns a
	// 1SP scale into one.
	{esri: "Mercator", ct: ctMercator,
		wkt:  cat(wktEN, wktCM, wktSP1),
		keys: []keyParam{keySP1, {id: keyNatOriginLong, q: qLon0}, {id: keyNatOriginLat, q: qZero}, keysEN[0], keysEN[1]}},
	{esri: "Lambert_Conformal_Conic", ct: ctLambertConfConic2SP, envi: "Lambert Conformal Conic", ogc: "Lambert_Conformal_Conic_2SP",
		writeIf: func(v *projValues) bool { return !v.hasK },
		wkt:     cat(wktEN, wktCM, wktSP1, wktSP2, wktLatOrigin),
		keys: []keyParam{keySP1, keySP2, {id: keyFalseOriginLong, q: qLon0}, {id: keyFalseOriginLat, q: qLat0},
			{id: keyFalseOriginEast, q: qFE}, {id: keyFalseOriginNorth, q: qFN}}},
	{esri: "Lambert_Conformal_Conic", ct: ctLambertConfConic1SP, envi: "Lambert Conformal Conic",
		writeIf: func(v *projValues) bool { return v.hasK },
		wkt:     cat(wktEN, wktCM, wktParam{"Standard_Parallel_1", qLat0}, wktScale, wktLatOrigin),
		keys:    cat(keysNatural, keysEN[0], keysEN[1], keyScaleNat)},
	{esri: "Lambert_Azimuthal_Equal_Area", ct: ctLambertAzimEqArea, envi: "Lambert Azimuthal Equal Area",
		wkt:  cat(wktEN, wktCM, wktLatOrigin),
		keys: cat(keysEN, keysCenter...)},
	{esri: "Albers", ct: ctAlbersEqualArea, envi: "Albers Conical Equal Area", ogc: "Albers_Conic_Equal_Area",
		wkt:  cat(wktEN, wktCM, wktSP1, wktSP2, wktLatOrigin),
		keys: cat([]keyParam{keySP1, keySP2}, keysNatural[0], keysNatural[1], keysEN[0], keysEN[1])},
	{esri: "Equidistant_Conic", ct: ctEquidistantConic,
		wkt:  cat(wktEN, wktCM, wktSP1, wktSP2, wktLatOrigin),
		keys: cat([]keyParam{keySP1, keySP2}, keysNatural[0], keysNatural[1], keysEN[0], keysEN[1])},
	{esri: "Azimuthal_Equidistant", ct: ctAzimuthalEquidistant,
		wkt:  cat(wktEN, wktCM, wktLatOrigin),
		keys: cat(keysEN, keysCenter...)},
	{esri: "Polyconic", ct: ctPolyconic, envi: "Polyconic",
		wkt:  cat(wktEN, wktCM, wktLatOrigin),
		keys: cat(keysNatural, keysEN[0], keysEN[1], keyScaleNat1)},
	{esri: "Stereographic", ct: ctStereographic,
		wkt:  cat(wktEN, wktCM, wktScale, wktLatOrigin),
		keys: cat(keysEN, keysCenter[0], keysCenter[1], keyScaleNat)},
	{esri: "Double_Stereographic", ct: ctObliqueStereographic,
		wkt:  cat(wktEN, wktCM, wktScale, wktLatOrigin),
		keys: cat(keysNatural, keysEN[0], keysEN[1], keyScaleNat)},
	{esri: "Cassini", ct: ctCassiniSoldner,
		wkt:  cat(wktEN, wktCM, wktScale, wktLatOrigin),
		keys: cat(keysNatural, keysEN[0], keysEN[1], keyParam{id: keyScaleAtNatOrigin, q: qK, unlessOne: true})},
	// Polar stereographic variant A (origin at the pole, a scale) and
	// variant B (a standard parallel, which GDAL keeps in
	// ProjNatOriginLatGeoKey).
	{esri: "Polar_Stereographic", ct: ctPolarStereographic,
		readIf: polarA, writeIf: polarA,
		wkt:  wktTMLower,
		keys: []keyParam{{id: keyNatOriginLat, q: qLat0}, keysEN[0], keysEN[1], keyScaleNat, {id: keyStraightVertPoleLong, q: qLon0}}},
	{esri: "Stereographic_North_Pole", ct: ctPolarStereographic,
		readIf:  func(v *projValues) bool { return !polarA(v) && v.lat0 >= 0 },
		writeIf: func(v *projValues) bool { return v.sp1 >= 0 && math.Abs(v.sp1) != 90 },
		wkt:     wktPolarB, keys: keysPolarB},
	{esri: "Stereographic_South_Pole", ct: ctPolarStereographic,
		readIf:  func(v *projValues) bool { return !polarA(v) && v.lat0 < 0 },
		writeIf: func(v *projValues) bool { return v.sp1 < 0 && math.Abs(v.sp1) != 90 },
		wkt:     wktPolarB, keys: keysPolarB},
	{esri: "Equidistant_Cylindrical", ct: ctEquirectangular,
		wkt:  cat(wktEN, wktCM, wktSP1),
		keys: cat([]keyParam{keySP1}, keysEN[0], keysEN[1], keysCenter[0], keysCenter[1])},
	{esri: "Miller_Cylindrical", ct: ctMillerCylindrical,
		wkt:  cylindricalCM,
		keys: cat(keysEN, keyCenterLon, keyParam{id: keyCenterLat, q: qZero})},
	{esri: "Sinusoidal", ct: ctSinusoidal, wkt: cylindricalCM, keys: cat(keysEN, keyCenterLon)},
	{esri: "Robinson", ct: ctRobinson, wkt: cylindricalCM, keys: cat(keysEN, keyCenterLon)},
	{esri: "Van_der_Grinten_I", ct: ctVanDerGrinten, wkt: cylindricalCM, keys: cat(keysEN, keyCenterLon)},
	// GDAL's ESRI name for a cylindrical equal-area projection on any
	// standard parallel.
	{esri: "Behrmann", ct: ctCylindricalEqualArea,
		wkt:  cat(wktEN, wktCM, wktSP1),
		keys: cat([]keyParam{keySP1, {id: keyNatOriginLong, q: qLon0}}, keysEN...)},
	// GDAL's ESRI form of an orthographic projection: a local projection
	// with no scale or azimuth.
	{esri: "Local", ct: ctOrthographic,
		writeIf: func(v *projValues) bool { return v.k == 1 && v.azimuth == 0 },
		wkt:     cat(wktEN, wktParam{"Scale_Factor", qOne}, wktParam{"Azimuth", qZero}, wktLonCenter, wktLatCenter),
		keys:    cat(keysEN, keysCenter...)},
	{esri: "New_Zealand_Map_Grid", ct: ctNewZealandMapGrid,
		wkt:  cat(wktEN, wktParam{"Longitude_Of_Origin", qLon0}, wktLatOrigin),
		keys: cat(keysNatural, keysEN...)},
	{esri: "Laborde_Oblique_Mercator", ct: ctLabordeOblique,
		wkt:  cat(wktEN, wktScale, wktParam{"Azimuth", qAzimuth}, wktLonCenter, wktLatCenter),
		keys: cat(keysEN, keysCenter[0], keysCenter[1], keyParam{id: keyScaleAtCenter, q: qK}, keyParam{id: keyAzimuthAngle, q: qAzimuth})},
	{esri: "Gnomonic", ct: ctGnomonic,
		wkt:  cat(wktEN, wktLonCenter, wktLatCenter),
		keys: cat(keysEN, keysCenter...)},
	// Hotine oblique Mercator variant A (natural origin) and B (centre);
	// with a rectified grid angle other than the azimuth, ESRI's
	// rectified skew orthomorphic.
	{esri: "Hotine_Oblique_Mercator_Azimuth_Natural_Origin", ct: ctObliqueMercator, readIf: isHotine, wkt: wktHotine, keys: keysHotine},
	{esri: "Rectified_Skew_Orthomorphic_Natural_Origin", ct: ctObliqueMercator, readIf: isSkew,
		wkt: cat(wktHotine, wktParam{"XY_Plane_Rotation", qGamma180}), keys: keysHotine},
	{esri: "Hotine_Oblique_Mercator_Azimuth_Center", ct: ctHotineAzC, readIf: isHotine, wkt: wktHotine, keys: keysHotine},
	{esri: "Rectified_Skew_Orthomorphic_Center", ct: ctHotineAzC, readIf: isSkew,
		wkt: cat(wktHotine, wktParam{"XY_Plane_Rotation", qGamma180}), keys: keysHotine},
}

// projectionWKT returns the PROJECTION and PARAMETER elements of the row
// of the coordinate transformation ct that takes v.
func projectionWKT(ct uint16, v *projValues) (string, bool) {
	for i := range projections {
		d := &projections[i]
		if d.ct != ct || d.readIf != nil && !d.readIf(v) {
			continue
		}
		var b strings.Builder
		fmt.Fprintf(&b, `PROJECTION["%s"]`, d.esri)
		for _, p := range d.wkt {
			fmt.Fprintf(&b, `,PARAMETER["%s",%s]`, p.name, num(v.get(p.q)))
		}
		return b.String(), true
	}
	return "", false
}

// projectionRow returns the row of the ESRI PROJECTION name (any case)
// whose form v's parameters are.
func projectionRow(name string, v *projValues) (*projDef, bool) {
	for i := range projections {
		d := &projections[i]
		if strings.EqualFold(d.esri, name) && (d.writeIf == nil || d.writeIf(v)) {
			return d, true
		}
	}
	return nil, false
}
