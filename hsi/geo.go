package hsi

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Geo is the georeferencing of a pixel grid, kept in the form the source
// file used so that it can be written back untouched. ENVI fields are kept
// as their header strings; GeoTIFF fields as their tag values.
type Geo struct {
	// ENVI "map info" value without braces, e.g.
	// "UTM, 1.000, 1.000, 620000.0, 4200000.0, 30.0, 30.0, 13, North, WGS-84".
	MapInfo string
	// ENVI "coordinate system string" value without braces (WKT).
	CoordSys string
	// ENVI "projection info" value without braces.
	ProjectionInfo string

	// GeoTIFF ModelPixelScaleTag (33550): ScaleX, ScaleY, ScaleZ.
	PixelScale []float64
	// GeoTIFF ModelTiepointTag (33922): groups of (I, J, K, X, Y, Z).
	Tiepoints []float64
	// GeoTIFF ModelTransformationTag (34264): 16 values, row-major 4x4.
	Transformation []float64
	// GeoTIFF GeoKeyDirectoryTag (34735), GeoDoubleParamsTag (34736),
	// GeoAsciiParamsTag (34737).
	GeoKeys      []uint16
	GeoDoubles   []float64
	GeoASCII     string
	PixelIsPoint bool // GTRasterTypeGeoKey = RasterPixelIsPoint
}

// Clone returns a deep copy.
func (g Geo) Clone() Geo {
	out := g
	out.PixelScale = append([]float64(nil), g.PixelScale...)
	out.Tiepoints = append([]float64(nil), g.Tiepoints...)
	out.Transformation = append([]float64(nil), g.Transformation...)
	out.GeoKeys = append([]uint16(nil), g.GeoKeys...)
	out.GeoDoubles = append([]float64(nil), g.GeoDoubles...)
	return out
}

// Empty reports whether no georeferencing field is set.
func (g *Geo) Empty() bool {
	return g == nil || (g.MapInfo == "" && g.CoordSys == "" && g.ProjectionInfo == "" &&
		len(g.PixelScale) == 0 && len(g.Tiepoints) == 0 && len(g.Transformation) == 0 && len(g.GeoKeys) == 0)
}

// Scale adjusts the georeferencing for a grid resampled by factors sy
// (rows) and sx (columns), with half-pixel-centre geometry: the image
// footprint stays where it is and every pixel becomes 1/s as large.
func (g *Geo) Scale(sy, sx float64) error {
	if g == nil {
		return nil
	}
	if !(sy > 0) || !(sx > 0) {
		return fmt.Errorf("hsi: geo scale by %gx%g: factors must be positive", sy, sx)
	}
	if g.MapInfo != "" {
		mi, err := scaleMapInfo(g.MapInfo, sy, sx)
		if err != nil {
			return err
		}
		g.MapInfo = mi
	}
	if len(g.PixelScale) >= 2 {
		g.PixelScale[0] /= sx
		g.PixelScale[1] /= sy
	}
	for i := 0; i+5 < len(g.Tiepoints); i += 6 {
		if g.PixelIsPoint {
			// Raster coordinates name pixel centres: centre i maps to (i+0.5)*s-0.5.
			g.Tiepoints[i] = (g.Tiepoints[i]+0.5)*sx - 0.5
			g.Tiepoints[i+1] = (g.Tiepoints[i+1]+0.5)*sy - 0.5
		} else {
			g.Tiepoints[i] *= sx
			g.Tiepoints[i+1] *= sy
		}
	}
	if len(g.Transformation) == 16 {
		t := g.Transformation
		if g.PixelIsPoint {
			// Keep the world position of the old pixel centres: shift the origin.
			for r := 0; r < 2; r++ {
				t[r*4+3] += t[r*4+0]*(0.5/sx-0.5) + t[r*4+1]*(0.5/sy-0.5)
			}
		}
		for r := 0; r < 4; r++ {
			t[r*4+0] /= sx
			t[r*4+1] /= sy
		}
	}
	return nil
}

// Shift moves the origin of the grid to pixel (y0, x0) of the old grid, as a
// crop does.
func (g *Geo) Shift(y0, x0 float64) {
	if g == nil {
		return
	}
	if gt, ok := mapInfoTransform(g.MapInfo); ok && (gt[2] != 0 || gt[4] != 0) {
		// A rotated grid: GDAL places the reference pixel without the
		// rotation, so the new origin is written at reference pixel (1, 1).
		f := splitMapInfo(g.MapInfo)
		f[1], f[2] = "1", "1"
		f[3] = fmtNum(gt[0] + x0*gt[1] + y0*gt[2])
		f[4] = fmtNum(gt[3] + x0*gt[4] + y0*gt[5])
		g.MapInfo = strings.Join(f, ", ")
	} else if g.MapInfo != "" {
		f := splitMapInfo(g.MapInfo)
		if len(f) >= 7 {
			if rx, err1 := strconv.ParseFloat(f[1], 64); err1 == nil {
				if ry, err2 := strconv.ParseFloat(f[2], 64); err2 == nil {
					f[1] = fmtNum(rx - x0)
					f[2] = fmtNum(ry - y0)
					g.MapInfo = strings.Join(f, ", ")
				}
			}
		}
	}
	for i := 0; i+5 < len(g.Tiepoints); i += 6 {
		g.Tiepoints[i] -= x0
		g.Tiepoints[i+1] -= y0
	}
	if len(g.Transformation) == 16 {
		t := g.Transformation
		for r := 0; r < 4; r++ {
			t[r*4+3] += t[r*4+0]*x0 + t[r*4+1]*y0
		}
	}
}

func splitMapInfo(s string) []string {
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// CheckMapInfo checks the numeric fields of an ENVI map info value: the
// reference pixel (fields 2-3), its map coordinates (4-5) and the pixel
// size (6-7), where present, must be finite numbers, the pixel size
// non-zero. An empty value is fine.
func CheckMapInfo(s string) error {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	f := splitMapInfo(s)
	names := []string{"reference pixel x", "reference pixel y", "easting", "northing", "pixel size x", "pixel size y"}
	for i, name := range names[:min(len(names), len(f)-1)] {
		v, err := strconv.ParseFloat(f[i+1], 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("map info field %d (%s) = %q is not a finite number", i+2, name, f[i+1])
		case i >= 4 && v == 0:
			return fmt.Errorf("map info field %d (%s) is 0: a pixel has no size", i+2, name)
		case math.Abs(v) > MaxGeoValue:
			return fmt.Errorf("map info field %d (%s) = %q is beyond %g", i+2, name, f[i+1], MaxGeoValue)
		}
	}
	for _, x := range f[min(len(f), 7):] {
		if k, val, found := strings.Cut(x, "="); found && strings.EqualFold(strings.TrimSpace(k), "rotation") {
			r, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
			if err != nil || math.IsNaN(r) || math.IsInf(r, 0) || math.Abs(r) > 360 {
				return fmt.Errorf("map info rotation %q is not an angle in degrees between -360 and 360", strings.TrimSpace(val))
			}
		}
	}
	if gt, ok := mapInfoTransform(s); ok {
		return CheckGeoTransform(gt)
	}
	return nil
}

// MaxGeoValue bounds the magnitude of every georeferencing number (map
// coordinates, pixel sizes, transform coefficients): 1e15 is far beyond
// any coordinate on Earth in metres, feet or degrees, and well inside
// what float64 arithmetic on a grid of any size keeps finite.
const MaxGeoValue = 1e15

// CheckGeoTransform is the one finiteness rule for georeferencing, applied
// by the readers (ENVI map info, GeoTIFF tags, EMIT and PRISMA attributes)
// to the GDAL geotransform a grid resolves to: every coefficient a finite
// number no larger than MaxGeoValue in magnitude, and the pixel footprint
// (gt[1]*gt[5] - gt[2]*gt[4]) non-zero, so that a pixel has a size.
func CheckGeoTransform(gt [6]float64) error {
	for i, v := range gt {
		if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxGeoValue {
			return fmt.Errorf("geotransform %v: coefficient %d (%g) is not a finite number of at most %g", gt, i, v, MaxGeoValue)
		}
	}
	if det := gt[1]*gt[5] - gt[2]*gt[4]; det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return fmt.Errorf("geotransform %v: a pixel has no size (the determinant is %g)", gt, det)
	}
	return nil
}

// CheckGeo applies CheckMapInfo to an ENVI map info and CheckGeoTransform
// to the transform the GeoTIFF tags give (a NaN or infinite pixel scale,
// tie point or transformation value, a zero pixel size). A grid without
// georeferencing passes.
func CheckGeo(g *Geo) error {
	if g == nil {
		return nil
	}
	if g.MapInfo != "" {
		return CheckMapInfo(g.MapInfo)
	}
	for _, v := range [][]float64{g.PixelScale, g.Tiepoints, g.Transformation} {
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("GeoTIFF pixel scale %v, tie points %v, transformation %v: %g is not a finite number", g.PixelScale, g.Tiepoints, g.Transformation, x)
			}
		}
	}
	if gt, ok := g.Transform(); ok {
		return CheckGeoTransform(gt)
	}
	return nil
}

// scaleMapInfo rescales an ENVI map info value. Its fields 2-3 are the
// reference pixel in 1-based file coordinates ((1,1) is the upper-left
// corner of the upper-left pixel) and fields 6-7 the pixel size.
func scaleMapInfo(s string, sy, sx float64) (string, error) {
	f := splitMapInfo(s)
	if len(f) < 7 {
		return "", fmt.Errorf("hsi: map info %q has %d fields, want at least 7", s, len(f))
	}
	var v [6]float64
	for i := 0; i < 6; i++ {
		x, err := strconv.ParseFloat(f[i+1], 64)
		if err != nil {
			return "", fmt.Errorf("hsi: map info field %d %q: %w", i+2, f[i+1], err)
		}
		v[i] = x
	}
	f[1] = fmtNum((v[0]-1)*sx + 1)
	f[2] = fmtNum((v[1]-1)*sy + 1)
	f[5] = fmtNum(v[4] / sx)
	f[6] = fmtNum(v[5] / sy)
	return strings.Join(f, ", "), nil
}

// Summary returns a one-line human description of the georeferencing.
func (g *Geo) Summary() string {
	if g.Empty() {
		return "none"
	}
	var parts []string
	if g.MapInfo != "" {
		parts = append(parts, "ENVI map info {"+g.MapInfo+"}")
	}
	if g.CoordSys != "" {
		cs := g.CoordSys
		if len(cs) > 60 {
			cs = cs[:60] + "..."
		}
		parts = append(parts, "coordinate system "+cs)
	}
	if len(g.PixelScale) >= 2 {
		parts = append(parts, "GeoTIFF pixel scale "+fmtGeo(g.PixelScale[0])+" x "+fmtGeo(g.PixelScale[1]))
	}
	if len(g.Tiepoints) >= 6 {
		parts = append(parts, "tie point ("+fmtGeo(g.Tiepoints[0])+","+fmtGeo(g.Tiepoints[1])+") -> ("+fmtGeo(g.Tiepoints[3])+","+fmtGeo(g.Tiepoints[4])+")")
	}
	if len(g.Transformation) == 16 {
		parts = append(parts, "GeoTIFF model transformation")
	}
	if len(g.GeoKeys) > 0 {
		parts = append(parts, fmt.Sprintf("%d geokeys", max(0, len(g.GeoKeys)/4-1)))
	}
	return strings.Join(parts, "; ")
}
