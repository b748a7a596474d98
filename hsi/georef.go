package hsi

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/crs"
)

// Transform returns the affine geotransform of the grid in GDAL's form:
// a pixel corner (col, row), with (0, 0) the upper-left corner of the
// upper-left pixel, lies at X = gt[0] + col*gt[1] + row*gt[2],
// Y = gt[3] + col*gt[4] + row*gt[5]. It follows GDAL's readers: an ENVI map
// info's reference pixel is 1-based with (1, 1) the upper-left corner of
// the first pixel and its "rotation=" turns the grid counter-clockwise; a
// GeoTIFF marked PixelIsPoint places its tie point or transformation on
// pixel centres, so the corner lies half a pixel before it. ok is false
// when the grid has no transform.
func (g *Geo) Transform() (gt [6]float64, ok bool) {
	if g == nil {
		return gt, false
	}
	if g.MapInfo != "" {
		return mapInfoTransform(g.MapInfo)
	}
	switch {
	case len(g.Transformation) == 16:
		t := g.Transformation
		gt = [6]float64{t[3], t[0], t[1], t[7], t[4], t[5]}
	case len(g.Tiepoints) >= 6 && len(g.PixelScale) >= 2:
		tp, s := g.Tiepoints, g.PixelScale
		gt = [6]float64{tp[3] - tp[0]*s[0], s[0], 0, tp[4] + tp[1]*s[1], 0, -s[1]}
	default:
		return gt, false
	}
	if g.PixelIsPoint {
		gt[0] -= 0.5 * (gt[1] + gt[2])
		gt[3] -= 0.5 * (gt[4] + gt[5])
	}
	return gt, true
}

// mapInfoTransform applies GDAL's ENVI reader to a map info value.
func mapInfoTransform(s string) (gt [6]float64, ok bool) {
	f := splitMapInfo(s)
	if len(f) < 7 {
		return gt, false
	}
	var v [6]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil {
			return gt, false
		}
		v[i] = x
	}
	rot := 0.0
	for _, x := range f[7:] {
		if k, val, found := strings.Cut(x, "="); found && strings.EqualFold(strings.TrimSpace(k), "rotation") {
			if r, err := strconv.ParseFloat(strings.TrimSpace(val), 64); err == nil {
				rot = r
			}
		}
	}
	xRef, yRef, e, n, px, py := v[0], v[1], v[2], v[3], v[4], v[5]
	r := -rot * math.Pi / 180
	gt = [6]float64{e - (xRef-1)*px, math.Cos(r) * px, -math.Sin(r) * px, n + (yRef-1)*py, -math.Sin(r) * py, -math.Cos(r) * py}
	if math.Abs(rot) == 180 {
		gt[1], gt[2], gt[4], gt[5] = px, 0, 0, py
	}
	if rot == 0 {
		gt[2], gt[4] = 0, 0
	}
	return gt, true
}

// CRS returns the coordinate reference system of the grid: from the ENVI
// coordinate system string (WKT), else from an ENVI map info in UTM or
// Geographic Lat/Lon on WGS-84, else from the GeoTIFF keys. note is
// non-empty when the file describes a CRS that could not be read that way.
func (g *Geo) CRS() (c crs.CRS, note string) {
	if g == nil {
		return c, ""
	}
	if g.CoordSys != "" {
		c, err := crs.FromWKT(g.CoordSys)
		if err != nil {
			return crs.CRS{}, fmt.Sprintf("the coordinate system string is not WKT (%v)", err)
		}
		return c, ""
	}
	if g.MapInfo != "" {
		f := splitMapInfo(g.MapInfo)
		proj := strings.ToLower(f[0])
		datum := ""
		switch {
		case strings.HasPrefix(proj, "utm") && len(f) >= 9:
			if len(f) >= 10 && !strings.Contains(f[9], "=") {
				datum = f[9]
			}
			zone, err := strconv.Atoi(f[7])
			if err == nil && zone >= 1 && zone <= 60 && isWGS84Name(datum) {
				code := 32600 + zone
				if strings.EqualFold(f[8], "South") {
					code = 32700 + zone
				}
				return crs.FromEPSG(code), ""
			}
		case strings.HasPrefix(proj, "geographic lat"):
			if len(f) >= 8 && !strings.Contains(f[7], "=") {
				datum = f[7]
			}
			if datum == "" || isWGS84Name(datum) {
				return crs.FromEPSG(crs.EPSGWGS84), ""
			}
		case proj == "arbitrary" || proj == "pixel based":
			return c, ""
		}
		return c, fmt.Sprintf("map info projection %q (datum %q) has no coordinate system string", f[0], datum)
	}
	if len(g.GeoKeys) >= 4 {
		if c, ok := crs.FromGeoKeys(g.GeoKeys, g.GeoDoubles, g.GeoASCII); ok {
			return c, ""
		}
		if m, ok := crs.Short(g.GeoKeys, crs.KeyModelType); ok && m != 0 {
			return c, "GeoTIFF CRS given by user-defined projection keys"
		}
	}
	return c, ""
}

func isWGS84Name(s string) bool {
	s = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(s), " ", ""))
	return s == "WGS-84" || s == "WGS84"
}

// fmtGeo formats a coordinate for a map info value: the shortest text that
// reads back as the same float64.
func fmtGeo(v float64) string {
	if v == 0 {
		return "0"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// ENVI returns the grid as ENVI map info and coordinate system string
// values. A grid read from ENVI keeps its own; one read from a GeoTIFF is
// written as GDAL's ENVI driver writes it: reference pixel (1, 1) at the
// upper-left corner, pixel sizes, "rotation=" for a rotated grid, the
// projection name (UTM with zone and hemisphere, Geographic Lat/Lon, or
// the WKT's projection) and the datum, and the WKT as coordinate system
// string. lost names what cannot be written.
func (g *Geo) ENVI() (mapInfo, coordSys string, lost []string) {
	if g == nil {
		return "", "", nil
	}
	if g.MapInfo != "" || g.CoordSys != "" {
		return g.MapInfo, g.CoordSys, nil
	}
	gt, ok := g.Transform()
	if !ok {
		if len(g.Tiepoints) > 6 {
			return "", "", []string{"georeferencing by ground control points"}
		}
		if !g.Empty() {
			return "", "", []string{"GeoTIFF georeferencing without a geotransform"}
		}
		return "", "", nil
	}
	c, note := g.CRS()
	if note != "" {
		lost = append(lost, "CRS: "+note)
	}
	px, py := math.Hypot(gt[1], gt[2]), math.Hypot(gt[4], gt[5])
	rotation := ""
	if gt[1] > 0 && gt[2] == 0 && gt[4] == 0 && gt[5] > 0 {
		rotation = ", rotation=180"
	} else if gt[2] != 0 || gt[4] != 0 {
		r1 := -math.Atan2(-gt[2], gt[1]) * 180 / math.Pi
		r2 := -math.Atan2(-gt[4], -gt[5]) * 180 / math.Pi
		if r := (r1 + r2) / 2; math.Abs(r) > 1e-5 {
			rotation = ", rotation=" + strconv.FormatFloat(r, 'g', 15, 64)
		}
		if math.Abs(r1-r2) > 1e-5 {
			lost = append(lost, "the shear of the geotransform (ENVI map info holds a rotation only)")
		}
	}
	loc := strings.Join([]string{"1", "1", fmtGeo(gt[0]), fmtGeo(gt[3]), fmtGeo(px), fmtGeo(py)}, ", ")
	datum := ""
	if d := c.ENVIDatum(); d != "" {
		datum = ", " + d
	}
	switch zone, north, utm := c.UTM(); {
	case c.Empty():
		mapInfo = "Arbitrary, " + loc + ", 0, North" + rotation
	case utm:
		hemi := "North"
		if !north {
			hemi = "South"
		}
		mapInfo = fmt.Sprintf("UTM, %s, %d, %s%s%s", loc, zone, hemi, datum, rotation)
	case c.Geographic():
		mapInfo = "Geographic Lat/Lon, " + loc + datum + rotation
	default:
		name := c.ENVIProjection()
		if name == "" {
			name = c.Name()
		}
		mapInfo = name + ", " + loc + datum + rotation
	}
	coordSys = c.WKT
	if c.WKT == "" && c.EPSG != 0 {
		lost = append(lost, fmt.Sprintf("CRS EPSG:%d (ENVI needs its WKT, which is known here for the EPSG geographic 2D and projected CRSs GDAL writes as ESRI WKT)", c.EPSG))
	}
	return mapInfo, coordSys, lost
}

// GeoFromTransform is the georeferencing of a grid with GDAL's
// geotransform gt (pixel-corner origin) in the CRS c, in GeoTIFF form: a
// pixel scale and tie point for a north-up grid, else a transformation
// matrix.
func GeoFromTransform(gt [6]float64, c crs.CRS) *Geo {
	g := &Geo{}
	if gt[2] == 0 && gt[4] == 0 && gt[5] < 0 {
		g.PixelScale = []float64{gt[1], -gt[5], 0}
		g.Tiepoints = []float64{0, 0, 0, gt[0], gt[3], 0}
	} else {
		g.Transformation = []float64{gt[1], gt[2], 0, gt[0], gt[4], gt[5], 0, gt[3], 0, 0, 0, 0, 0, 0, 0, 1}
	}
	g.GeoKeys, g.GeoDoubles, g.GeoASCII = crs.GeoKeys(c, false)
	return g
}
