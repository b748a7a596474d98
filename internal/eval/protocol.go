package eval

import (
	"fmt"
	"math"
	"strings"

	"github.com/omnihsr/omnihsr/resample"
)

// Protocol names.
const (
	ProtocolSeven  = "seven"
	ProtocolTwelve = "twelve"
)

// SevenFactors are the factors of the paper's seven-dataset table.
var SevenFactors = []float64{2, 4, 8}

// TwelveFactors are the factors of the paper's Table "main", in the paper's
// column order: in-range integers, in-range fractional, out-of-range.
var TwelveFactors = []float64{2, 4, 8, 2.5, 3.7, 5.3, 7.6, 12, 16, 24, 36, 48}

// Default geometry of the seven-dataset protocol.
const (
	DefaultTileSize = 64  // remote-sensing tiles
	DefaultCropSize = 256 // close-range centre crops
)

// closeRangeSensors are sensors (the scenes TSV's sensor column, lower case)
// whose scenes are close-range (ground or laboratory) images: the paper's
// ARAD, CAVE and Harvard.
var closeRangeSensors = map[string]bool{
	"cave":      true,
	"arad":      true,
	"harvard":   true,
	"icvl":      true,
	"kaist":     true,
	"specim iq": true,
	"nuance fx": true,
}

// CloseRange reports whether scenes of the named sensor or platform are
// close-range images (ground-based or laboratory cameras), which the
// seven-dataset protocol scores on one centred crop, rather than
// remote-sensing scenes (airborne or spaceborne), which it cuts into tiles.
// The rule is the paper's (Appendix "Datasets"): centre 256x256 crops for
// close-range data, 64x64 tiles for remote-sensing scenes. A sensor is
// close-range when its name (case-insensitive) is one of CAVE, ARAD,
// Harvard, ICVL, KAIST, Specim IQ, Nuance FX, or a platform "ground" or
// "laboratory"; every other name, and an unknown one, is remote sensing.
func CloseRange(sensor string) bool {
	s := strings.ToLower(strings.TrimSpace(sensor))
	return closeRangeSensors[s] || s == "ground" || s == "laboratory"
}

// Geometry says how the seven-dataset protocol cuts a scene.
type Geometry string

// Geometries.
const (
	GeomAuto  Geometry = "auto"  // by the sensor: CloseRange -> crop, else tiles
	GeomTiles Geometry = "tiles" // non-overlapping tiles
	GeomCrop  Geometry = "crop"  // one centred square crop
)

// Region is one image of a scene: the window of H x W pixels whose
// top-left pixel is (Y0, X0).
type Region struct {
	Index int    `json:"index"`
	Y0    int    `json:"y0"`
	X0    int    `json:"x0"`
	H     int    `json:"h"`
	W     int    `json:"w"`
	Kind  string `json:"kind"` // "tile" or "crop"
}

// Tiles returns the non-overlapping size x size tiles of an h x w scene,
// top-left aligned, in row-major order; ragged edges are dropped. A scene
// smaller than one tile gives no tiles.
func Tiles(h, w, size int) []Region {
	if size <= 0 {
		return nil
	}
	var out []Region
	for y := 0; y+size <= h; y += size {
		for x := 0; x+size <= w; x += size {
			out = append(out, Region{Index: len(out), Y0: y, X0: x, H: size, W: size, Kind: "tile"})
		}
	}
	return out
}

// CenterCrop returns the centred size x size crop of an h x w scene, or the
// largest centred square when size <= 0 or the scene is smaller. The offset
// is floor((side - size)/2) on each axis.
func CenterCrop(h, w, size int) Region {
	m := min(h, w)
	if size <= 0 || size > m {
		size = m
	}
	return Region{Y0: (h - size) / 2, X0: (w - size) / 2, H: size, W: size, Kind: "crop"}
}

// Regions returns the images a protocol scores on an h x w scene of the
// given sensor. geom overrides the sensor rule of the seven protocol (""
// means auto); tile and crop are the tile size and close-range crop size
// (0 = defaults).
func Regions(protocol string, h, w int, sensor string, geom Geometry, tile, crop int) ([]Region, error) {
	if h <= 0 || w <= 0 {
		return nil, fmt.Errorf("eval: scene of %dx%d pixels", h, w)
	}
	if tile <= 0 {
		tile = DefaultTileSize
	}
	if crop <= 0 {
		crop = DefaultCropSize
	}
	switch protocol {
	case ProtocolTwelve:
		return []Region{CenterCrop(h, w, 0)}, nil
	case ProtocolSeven:
		g := geom
		if g == "" || g == GeomAuto {
			g = GeomTiles
			if CloseRange(sensor) {
				g = GeomCrop
			}
		}
		switch g {
		case GeomTiles:
			r := Tiles(h, w, tile)
			if len(r) == 0 {
				return nil, fmt.Errorf("eval: a %dx%d scene holds no %dx%d tile", h, w, tile, tile)
			}
			return r, nil
		case GeomCrop:
			return []Region{CenterCrop(h, w, crop)}, nil
		}
		return nil, fmt.Errorf("eval: unknown geometry %q (want auto, tiles or crop)", geom)
	}
	return nil, fmt.Errorf("eval: unknown protocol %q (want %s or %s)", protocol, ProtocolSeven, ProtocolTwelve)
}

// DefaultFactors returns the factors of a protocol.
func DefaultFactors(protocol string) []float64 {
	if protocol == ProtocolTwelve {
		return append([]float64(nil), TwelveFactors...)
	}
	return append([]float64(nil), SevenFactors...)
}

// LRSide is the low-resolution side round(side/s) (at least 1), the
// convention of docs/CONVENTIONS.md section 4. It returns an error for a factor that is not a
// positive finite number, or one so large that no low-resolution pixel is
// left.
func LRSide(side int, s float64) (int, error) {
	if !(s > 0) || math.IsInf(s, 0) {
		return 0, fmt.Errorf("eval: factor %v is not a positive finite number", s)
	}
	if side <= 0 {
		return 0, fmt.Errorf("eval: side %d is not positive", side)
	}
	n := resample.OutSize(side, s)
	if n < 1 {
		return 0, fmt.Errorf("eval: factor x%g leaves no low-resolution pixel of a %d-pixel side", s, side)
	}
	return n, nil
}

// FormatFactor prints a factor as the tables do: "x2", "x2.5", "x3.7".
func FormatFactor(s float64) string {
	return "x" + trimFloat(s)
}

func trimFloat(v float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", v), "0"), ".")
}
