package view

import (
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/hsi/crs"
	"github.com/omnihsr/omnihsr/resample"
)

// How a scene is laid over another in a comparison.
const (
	AlignMap   = "map"   // by georeferencing: the same ground point
	AlignScale = "scale" // by scale: the two footprints stretched onto each other
)

// Alignment says how scene Other is drawn on the grid of scene Ref.
type Alignment struct {
	Ref   int    `json:"ref"`
	Other int    `json:"file"`
	Mode  string `json:"mode"` // AlignMap or AlignScale
	Note  string `json:"note"` // what the alignment rests on, or why it is by scale
	// Pixel maps a low-res pixel coordinate (x, y) of Ref (pixel corners
	// at integers) to Other's: x' = a[0] + a[1] x + a[2] y,
	// y' = a[3] + a[4] x + a[5] y (AlignMap only).
	Pixel [6]float64 `json:"-"`
}

// Align returns how other (scene j) is drawn on the grid of ref (scene
// i): on the map when both are georeferenced in the same CRS, else by
// scale, with a note saying why.
func Align(i int, ref *Scene, j int, other *Scene) Alignment {
	al := Alignment{Ref: i, Other: j, Mode: AlignScale}
	g1, ok1 := ref.LR.Meta.Geo.Transform()
	g2, ok2 := other.LR.Meta.Geo.Transform()
	switch {
	case !ok1 && !ok2:
		al.Note = "neither file is georeferenced: aligned by scale"
		return al
	case !ok1 || !ok2:
		al.Note = fmt.Sprintf("%s is not georeferenced: aligned by scale", pick(!ok1, ref.Name, other.Name))
		return al
	}
	c1, _ := ref.LR.Meta.Geo.CRS()
	c2, _ := other.LR.Meta.Geo.CRS()
	switch {
	case c1.Empty() || c2.Empty():
		al.Note = fmt.Sprintf("%s names no coordinate reference system: aligned by scale", pick(c1.Empty(), ref.Name, other.Name))
		return al
	case !sameCRS(c1, c2):
		al.Note = fmt.Sprintf("%s is in %s, %s in %s: aligned by scale (reproject one to the other's CRS to compare them on the map)",
			ref.Name, crsName(c1), other.Name, crsName(c2))
		return al
	}
	inv, ok := invert(g2)
	if !ok {
		al.Note = fmt.Sprintf("%s: singular geotransform: aligned by scale", other.Name)
		return al
	}
	al.Mode = AlignMap
	al.Pixel = compose(inv, g1)
	al.Note = "aligned on the map in " + crsName(c1)
	if !overlaps(al.Pixel, ref.LR.W, ref.LR.H, other.LR.W, other.LR.H) {
		al.Note += "; the footprints do not overlap"
	}
	return al
}

func pick(first bool, a, b string) string {
	if first {
		return a
	}
	return b
}

func crsName(c crs.CRS) string {
	if n := c.Name(); n != "" {
		return n
	}
	return "an unnamed CRS"
}

// sameCRS reports whether two CRSs are the same: the same EPSG code when
// both have one, else the same WKT text up to white space.
func sameCRS(a, b crs.CRS) bool {
	if a.EPSG != 0 && b.EPSG != 0 {
		return a.EPSG == b.EPSG
	}
	if a.WKT == "" || b.WKT == "" {
		return false
	}
	return strings.Join(strings.Fields(a.WKT), "") == strings.Join(strings.Fields(b.WKT), "")
}

// invert returns the inverse of a GDAL geotransform (map X, Y to pixel
// column, row).
func invert(g [6]float64) ([6]float64, bool) {
	det := g[1]*g[5] - g[2]*g[4]
	if det == 0 || math.IsNaN(det) || math.IsInf(det, 0) {
		return g, false
	}
	a, b, c, d := g[5]/det, -g[2]/det, -g[4]/det, g[1]/det
	return [6]float64{-(a*g[0] + b*g[3]), a, b, -(c*g[0] + d*g[3]), c, d}, true
}

// compose returns the affine map f(g(p)) of two maps in geotransform form.
func compose(f, g [6]float64) [6]float64 {
	return [6]float64{
		f[0] + f[1]*g[0] + f[2]*g[3], f[1]*g[1] + f[2]*g[4], f[1]*g[2] + f[2]*g[5],
		f[3] + f[4]*g[0] + f[5]*g[3], f[4]*g[1] + f[5]*g[4], f[4]*g[2] + f[5]*g[5],
	}
}

// apply maps point (x, y) through a.
func apply(a [6]float64, x, y float64) (float64, float64) {
	return a[0] + a[1]*x + a[2]*y, a[3] + a[4]*x + a[5]*y
}

// overlaps reports whether the w1 x h1 pixel footprint mapped through a
// meets the w2 x h2 footprint (by bounding boxes).
func overlaps(a [6]float64, w1, h1, w2, h2 int) bool {
	xlo, ylo, xhi, yhi := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, p := range [][2]float64{{0, 0}, {float64(w1), 0}, {0, float64(h1)}, {float64(w1), float64(h1)}} {
		x, y := apply(a, p[0], p[1])
		xlo, xhi, ylo, yhi = min(xlo, x), max(xhi, x), min(ylo, y), max(yhi, y)
	}
	return xhi > 0 && yhi > 0 && xlo < float64(w2) && ylo < float64(h2)
}

// MapWindow renders the bands listed of scene s over the window
// [y0, y0+h) x [x0, x0+w) of the gh x gw grid of another scene (refH x
// refW low-res pixels), s's pixel coordinates given by al.Pixel: each
// grid pixel shows s at its centre's ground point, as bicubic
// interpolation of s's no-data-filled bands when m is Bicubic and the
// grid's pixels are smaller than s's on both axes, else as s's pixel
// there. Points outside s's footprint, in a no-data sample or a bad band
// of s are NaN.
func (s *Scene) MapWindow(al Alignment, refH, refW int, m string, gh, gw, y0, x0, h, w int, bands []int) ([]float32, error) {
	if err := checkWindow(gh, gw, y0, x0, h, w); err != nil {
		return nil, err
	}
	if al.Mode != AlignMap {
		return nil, fmt.Errorf("%s: not aligned on the map (%s)", s.Name, al.Note)
	}
	if m != Nearest && m != Bicubic {
		return nil, fmt.Errorf("%s: a file aligned on the map is drawn %s or %s, not %q", s.Name, Nearest, Bicubic, m)
	}
	for _, b := range bands {
		if b < 0 || b >= s.LR.B {
			return nil, fmt.Errorf("band %d outside 0..%d", b, s.LR.B-1)
		}
	}
	a := al.Pixel
	ky, kx := float64(refH)/float64(gh), float64(refW)/float64(gw) // ref pixels per grid pixel
	lr := s.LR
	var filled []float32 // pixel-interleaved, len(bands) bands
	if m == Bicubic && math.Hypot(a[1], a[4])*kx < 1 && math.Hypot(a[2], a[5])*ky < 1 {
		src, err := s.bicubicBands(bands)
		if err != nil {
			return nil, err
		}
		filled = src.filled.Data
	}
	nb := len(bands)
	bad := make([]bool, nb)
	for k, b := range bands {
		bad[k] = b < len(lr.Meta.BadBands) && lr.Meta.BadBands[b]
	}
	nan := float32(math.NaN())
	out := make([]float32, h*w*nb)
	var row [4][]float32
	for u := 0; u < h; u++ {
		py := (float64(y0+u) + 0.5) * ky
		for v := 0; v < w; v++ {
			px := (float64(x0+v) + 0.5) * kx
			qx, qy := apply(a, px, py)
			dst := out[(u*w+v)*nb:][:nb]
			if !(qx >= 0 && qy >= 0 && qx < float64(lr.W) && qy < float64(lr.H)) {
				for k := range dst {
					dst[k] = nan
				}
				continue
			}
			i, j := int(qy), int(qx)
			cell := lr.Data[(i*lr.W+j)*lr.B:]
			if filled == nil {
				for k, b := range bands {
					dst[k] = cell[b]
				}
			} else {
				// Bicubic at the point: rows of four taps summed across,
				// then down, replicate border.
				sy, sx := qy-0.5, qx-0.5
				fy, fx := math.Floor(sy), math.Floor(sx)
				wy, wx := resample.CubicWeights(sy-fy), resample.CubicWeights(sx-fx)
				var cols [4]int
				for t := range 4 {
					cols[t] = min(max(int(fx)-1+t, 0), lr.W-1)
				}
				for t := range 4 {
					r := min(max(int(fy)-1+t, 0), lr.H-1)
					row[t] = filled[r*lr.W*nb : (r+1)*lr.W*nb]
				}
				for k := range dst {
					var acc float32
					for t := range 4 {
						rr := row[t]
						hsum := float32(rr[cols[0]*nb+k]*wx[0]) + float32(rr[cols[1]*nb+k]*wx[1]) +
							float32(rr[cols[2]*nb+k]*wx[2]) + float32(rr[cols[3]*nb+k]*wx[3])
						acc += float32(hsum * wy[t])
					}
					dst[k] = acc
				}
			}
			for k, b := range bands {
				if bad[k] || s.IsNoData(cell[b]) {
					dst[k] = nan
				}
			}
		}
	}
	return out, nil
}
