package crs

import (
	"fmt"
	"strconv"
)

// Projection geokeys (GeoTIFF 1.1) of user-defined projected CRSs.
const (
	keyGeogLinearUnits  = 2052
	keyGeogAngularUnits = 2054
	keyProjection       = 3074
	keyProjCoordTrans   = 3075
	keyProjLinearUnits  = 3076
	keyStdParallel1     = 3078
	keyStdParallel2     = 3079
	keyNatOriginLong    = 3080
	keyNatOriginLat     = 3081
	keyFalseEasting     = 3082
	keyFalseNorthing    = 3083
	keyFalseOriginLong  = 3084
	keyFalseOriginLat   = 3085
	keyFalseOriginEast  = 3086
	keyFalseOriginNorth = 3087
	keyCenterLong       = 3088
	keyCenterLat        = 3089
	keyScaleAtNatOrigin = 3092

	unitMetre  = 9001
	unitDegree = 9102
)

// Coordinate transformation codes this package turns into WKT.
const (
	ctTransverseMercator  = 1
	ctLambertConfConic2SP = 8
	ctLambertAzimEqArea   = 10
	ctAlbersEqualArea     = 11
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

// userDefinedWKT writes the ESRI WKT of a projected CRS that a GeoTIFF
// describes by its projection keys, as GDAL writes them for a CRS without
// an EPSG code: Transverse Mercator, Lambert Conformal Conic (2SP),
// Lambert Azimuthal Equal Area or Albers Equal Area, in metres, on WGS 84.
// ok is false for anything else.
func userDefinedWKT(keys []uint16, doubles []float64, ascii string) (string, bool) {
	if m, _ := Short(keys, KeyModelType); m != ModelProjected {
		return "", false
	}
	if g, _ := Short(keys, KeyGeographicType); g != EPSGWGS84 {
		return "", false
	}
	if u, ok := Short(keys, keyProjLinearUnits); ok && u != unitMetre {
		return "", false
	}
	if u, ok := Short(keys, keyGeogAngularUnits); ok && u != unitDegree {
		return "", false
	}
	ct, _ := Short(keys, keyProjCoordTrans)
	first := func(ids ...uint16) float64 {
		for _, id := range ids {
			if v, ok := double(keys, doubles, id); ok {
				return v
			}
		}
		return 0
	}
	lon0 := first(keyNatOriginLong, keyFalseOriginLong, keyCenterLong)
	lat0 := first(keyNatOriginLat, keyFalseOriginLat, keyCenterLat)
	fe := first(keyFalseEasting, keyFalseOriginEast)
	fn := first(keyFalseNorthing, keyFalseOriginNorth)
	num := func(v float64) string {
		s := strconv.FormatFloat(v, 'f', -1, 64)
		for _, c := range s {
			if c == '.' {
				return s
			}
		}
		return s + ".0"
	}
	par := func(name string, v float64) string { return fmt.Sprintf(`,PARAMETER["%s",%s]`, name, num(v)) }
	var proj, ps string
	switch ct {
	case ctTransverseMercator:
		k, ok := double(keys, doubles, keyScaleAtNatOrigin)
		if !ok {
			k = 1
		}
		proj = "Transverse_Mercator"
		ps = par("False_Easting", fe) + par("False_Northing", fn) + par("Central_Meridian", lon0) + par("Scale_Factor", k) + par("Latitude_Of_Origin", lat0)
	case ctLambertConfConic2SP:
		proj = "Lambert_Conformal_Conic"
		ps = par("False_Easting", fe) + par("False_Northing", fn) + par("Central_Meridian", lon0) +
			par("Standard_Parallel_1", first(keyStdParallel1)) + par("Standard_Parallel_2", first(keyStdParallel2)) + par("Latitude_Of_Origin", lat0)
	case ctLambertAzimEqArea:
		proj = "Lambert_Azimuthal_Equal_Area"
		ps = par("False_Easting", fe) + par("False_Northing", fn) + par("Central_Meridian", lon0) + par("Latitude_Of_Origin", lat0)
	case ctAlbersEqualArea:
		proj = "Albers"
		ps = par("False_Easting", fe) + par("False_Northing", fn) + par("Central_Meridian", lon0) +
			par("Standard_Parallel_1", first(keyStdParallel1)) + par("Standard_Parallel_2", first(keyStdParallel2)) + par("Latitude_Of_Origin", lat0)
	default:
		return "", false
	}
	name := "unknown"
	if s, ok := ASCII(keys, ascii, KeyCitation); ok && s != "" {
		name = s
	}
	return fmt.Sprintf(`PROJCS["%s",%s,PROJECTION["%s"]%s,UNIT["Meter",1.0]]`, name, wgs84GeogCS, proj, ps), true
}
