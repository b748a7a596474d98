package figure

import (
	"image/color"
	"math"
)

// NaNColour is the colour of a not-a-number value in heat maps and operator
// tiles: a mid grey, which neither colour map uses.
var NaNColour = color.NRGBA{128, 128, 128, 255}

// RoundColour is the outline colour Supports gives a primitive whose axis
// ratio is below minRatio (no meaningful orientation).
var RoundColour = color.NRGBA{200, 200, 200, 255}

// Inferno returns the inferno colour of t in [0, 1] (clamped): entry
// round(255 t) of the 256-entry table. NaN gives NaNColour.
func Inferno(t float64) color.NRGBA {
	if t != t {
		return NaNColour
	}
	i := int(math.Round(min(max(t, 0), 1) * 255))
	e := inferno[i]
	return color.NRGBA{e[0], e[1], e[2], 255}
}

// heat maps v on [0, maxV] (clamped) through Inferno. maxV must be > 0.
func heat(v, maxV float32) color.NRGBA {
	if v != v {
		return NaNColour
	}
	return Inferno(float64(v) / float64(maxV))
}

// rdBu is ColorBrewer's 11-class RdBu scheme (Cynthia Brewer, Apache
// licence) from dark red (most positive) to dark blue (most negative), its
// middle entry made pure white.
var rdBu = [11][3]float64{
	{0x67, 0x00, 0x1f}, {0xb2, 0x18, 0x2b}, {0xd6, 0x60, 0x4d}, {0xf4, 0xa5, 0x82},
	{0xfd, 0xdb, 0xc7}, {0xff, 0xff, 0xff}, {0xd1, 0xe5, 0xf0}, {0x92, 0xc5, 0xde},
	{0x43, 0x93, 0xc3}, {0x21, 0x66, 0xac}, {0x05, 0x30, 0x61},
}

// Diverging returns the colour of v on the symmetric scale [-m, m]
// (clamped): ColorBrewer RdBu, interpolated linearly between its 11
// entries, dark blue at -m, white at 0, dark red at +m. m <= 0, NaN or +Inf
// gives white for every finite v; a NaN v gives NaNColour.
func Diverging(v, m float32) color.NRGBA {
	if v != v {
		return NaNColour
	}
	if !(m > 0) || math.IsInf(float64(m), 0) {
		return color.NRGBA{255, 255, 255, 255}
	}
	t := min(max(float64(v)/float64(m), -1), 1)
	pos := (1 - t) / 2 * 10 // 0 at +m, 5 at zero, 10 at -m
	i := min(int(pos), 9)
	f := pos - float64(i)
	var c [3]uint8
	for k := range c {
		c[k] = uint8(math.Round(rdBu[i][k] + (rdBu[i+1][k]-rdBu[i][k])*f))
	}
	return color.NRGBA{c[0], c[1], c[2], 255}
}

// Hue returns the fully saturated, full-value colour of hue h degrees
// (taken modulo 360): 0 red, 60 yellow, 120 green, 180 cyan, 240 blue, 300
// magenta.
func Hue(h float64) color.NRGBA {
	h = math.Mod(h, 360)
	if h < 0 {
		h += 360
	}
	if !(h >= 0 && h < 360) { // NaN, or -tiny + 360 rounding to 360
		h = 0
	}
	x := h / 60
	i := int(x)
	f := x - float64(i)
	up := uint8(math.Round(255 * f))
	down := uint8(math.Round(255 * (1 - f)))
	switch i {
	case 0:
		return color.NRGBA{255, up, 0, 255}
	case 1:
		return color.NRGBA{down, 255, 0, 255}
	case 2:
		return color.NRGBA{0, 255, up, 255}
	case 3:
		return color.NRGBA{0, down, 255, 255}
	case 4:
		return color.NRGBA{up, 0, 255, 255}
	default:
		return color.NRGBA{255, 0, down, 255}
	}
}

// OrientationColour is the colour Supports gives a long axis at angle a
// radians (x to the right, y downwards, so a positive angle turns
// clockwise on screen): hue = 360 (a mod pi)/pi degrees, so horizontal is
// red, 45 degrees (down-right) yellow-green, vertical cyan and 135 degrees
// (down-left) violet.
func OrientationColour(a float64) color.NRGBA {
	a = math.Mod(a, math.Pi)
	if a < 0 {
		a += math.Pi
	}
	return Hue(a / math.Pi * 360)
}
