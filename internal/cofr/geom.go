package cofr

import "math"

// geom is the rendering geometry of one primitive, in float64.
type geom struct {
	muY, muX      float64 // centre, low-res units
	iyy, ixy, ixx float64 // Sigma^{-1} in (y, x)
	alpha         float64
	cy, cxy, cx   float64 // iyy*hy^2, ixy*hy*hx, ixx*hx^2 (exponents of the step ratios)
	fy, fxy, fx   float64 // exp(-cy), exp(-cxy), exp(-cx)
	vmax          float64 // largest eigenvalue of Sigma
	// for the backward pass
	cos, sin, u1, u2 float64 // u_i = 1/sigma_eff_i^2
}

// makeGeom builds the geometry of primitive n at low-res pixel (i, j).
// a2 = (a/s)^2; hy, hx: low-res units per high-res pixel.
func makeGeom(p *Primitives, n, i, j int, a2, hy, hx float64) geom {
	s1, s2 := float64(p.Sigma1[n]), float64(p.Sigma2[n])
	v1, v2 := s1*s1+a2, s2*s2+a2
	u1, u2 := 1/v1, 1/v2
	sn, cs := math.Sincos(float64(p.Theta[n]))
	g := geom{
		muY:   float64(i) + 0.5 + float64(p.OffY[n]),
		muX:   float64(j) + 0.5 + float64(p.OffX[n]),
		ixx:   cs*cs*u1 + sn*sn*u2,
		iyy:   sn*sn*u1 + cs*cs*u2,
		ixy:   cs * sn * (u1 - u2),
		alpha: float64(p.Alpha[n]),
		vmax:  math.Max(v1, v2),
		cos:   cs, sin: sn, u1: u1, u2: u2,
	}
	g.cy, g.cxy, g.cx = g.iyy*hy*hy, g.ixy*hy*hx, g.ixx*hx*hx
	g.fy, g.fxy, g.fx = math.Exp(-g.cy), math.Exp(-g.cxy), math.Exp(-g.cx)
	return g
}

// expo is the Gaussian exponent -q/2 at offset (dy, dx) from the centre.
func (g *geom) expo(dy, dx float64) float64 {
	return -0.5 * (g.iyy*dy*dy + 2*g.ixy*dy*dx + g.ixx*dx*dx)
}

// maxVec is the widest row the vectorised fill handles.
const maxVec = 64

// useVecFill enables the vectorised fill (tests turn it off to compare).
var useVecFill = true

const (
	// expFloor: exponents below it are rendered as exactly zero
	// (exp(-80) = 1.8e-35: such values change nothing, and rendering them
	// as float32 would make denormal numbers, which are slow).
	expFloor = -80
	// recLimit bounds every exponent met by the product recurrence, so that
	// no factor over- or underflows float64 (exp(+-600) is far inside).
	recLimit = 600
)

// fill writes scale*G, G = exp(-q/2), at the target pixels (a, b), a in
// [a0, a1), b in [b0, b1), of a cell of nb columns, into out[a*nb+b], and
// adds sumScale*G to sum[a*nb+b]. dy0 and dx0 are the offsets from the
// centre of pixel (a0, b0); hy and hx the pixel pitch. It returns false,
// touching nothing, when every value is below exp(expFloor).
//
// The exponent is a quadratic in (a, b), so G follows a product recurrence:
// G(a, b+1) = G(a, b) Ex(a, b) with Ex(a, b+1) = Ex(a, b) exp(-cx) and
// Ex(a+1, 0) = Ex(a, 0) exp(-cxy), and the same down the first column: three
// exponentials per primitive and cell instead of one per pixel. It is used
// when every exponent involved lies within +-recLimit (checked at the
// corners, where the extremes of these linear and concave functions lie);
// otherwise (very narrow primitives) the exponentials are evaluated directly.
func fill[T float32 | float64](g *geom, out []T, sum []float64, scale, sumScale float64, nb, a0, a1, b0, b1 int, dy0, dx0, hy, hx float64) bool {
	ma, mb := a1-a0, b1-b0
	al, bl := float64(ma-1), float64(mb-1)
	dyL, dxL := dy0+al*hy, dx0+bl*hx
	// Lower bound of q on the rectangle: squared distance / largest variance.
	var ry, rx float64
	if dy0 > 0 {
		ry = dy0
	} else if dyL < 0 {
		ry = -dyL
	}
	if dx0 > 0 {
		rx = dx0
	} else if dxL < 0 {
		rx = -dxL
	}
	if (ry*ry+rx*rx)/g.vmax > -2*expFloor {
		return false
	}
	e00 := g.expo(dy0, dx0)
	emin := math.Min(math.Min(e00, g.expo(dy0, dxL)), math.Min(g.expo(dyL, dx0), g.expo(dyL, dxL)))
	lx0 := -0.5*g.ixx*hx*(2*dx0+hx) - g.ixy*hx*dy0
	ly0 := -g.ixy*dx0*hy - 0.5*g.iyy*hy*(2*dy0+hy)
	lxm := math.Max(math.Max(math.Abs(lx0), math.Abs(lx0-bl*g.cx)), math.Max(math.Abs(lx0-al*g.cxy), math.Abs(lx0-bl*g.cx-al*g.cxy)))
	lym := math.Max(math.Abs(ly0), math.Abs(ly0-al*g.cy))
	if emin >= -recLimit && lxm <= recLimit && lym <= recLimit &&
		g.cx <= recLimit && g.cy <= recLimit && math.Abs(g.cxy) <= recLimit {
		G0, Ex0, Ey := math.Exp(e00), math.Exp(lx0), math.Exp(ly0)
		fx, fy, fxy := g.fx, g.fy, g.fxy
		same := scale == sumScale
		if same {
			G0 *= scale
		}
		if same && useVecFill && useAVX && mb >= 4 && mb <= maxVec && emin+e00 >= -700 && math.Abs(g.cxy)*bl <= recLimit {
			if o32, ok := any(out).([]float32); ok {
				// G(a, b) = R_a V_a[b] with R_a = G(a, 0)/G(0, 0) and
				// V_a[b] = G(0, b) fxy^(a b): rows vectorised over b.
				// |ln V| <= 700 (emin + e00 >= -700, e <= 0), so nothing
				// over- or underflows where G matters.
				_, _ = o32[(a1-1)*nb+b1-1], sum[(a1-1)*nb+b1-1]
				var V, E [maxVec]float64
				G, Ex, f := G0, Ex0, 1.0
				for k := 0; k < mb; k++ {
					V[k], E[k] = G, f
					G *= Ex
					Ex *= fx
					f *= fxy
				}
				fillRowsAVX(&o32[a0*nb+b0], &sum[a0*nb+b0], &V[0], &E[0], mb, ma, nb, 1, Ey, fy)
				return true
			}
		}
		a := a0
		if same {
			// Two rows at a time: four independent multiply chains.
			for ; a+1 < a1; a += 2 {
				G1, Ex1 := G0*Ey, Ex0*fxy
				r0 := out[a*nb+b0 : a*nb+b1]
				r1 := out[(a+1)*nb+b0 : (a+1)*nb+b1]
				s0 := sum[a*nb+b0 : a*nb+b1]
				s1 := sum[(a+1)*nb+b0 : (a+1)*nb+b1]
				r1, s0, s1 = r1[:len(r0)], s0[:len(r0)], s1[:len(r0)]
				Ga, Ea, Gb, Eb := G0, Ex0, G1, Ex1
				for k := range r0 {
					r0[k] = T(Ga)
					r1[k] = T(Gb)
					s0[k] += Ga
					s1[k] += Gb
					Ga *= Ea
					Gb *= Eb
					Ea *= fx
					Eb *= fx
				}
				Ey1 := Ey * fy
				G0 = G1 * Ey1
				Ey = Ey1 * fy
				Ex0 = Ex1 * fxy
			}
		}
		for ; a < a1; a++ {
			row := out[a*nb+b0 : a*nb+b1]
			srow := sum[a*nb+b0 : a*nb+b1]
			srow = srow[:len(row)]
			G, Ex := G0, Ex0
			if same {
				for k := range row {
					row[k] = T(G)
					srow[k] += G
					G *= Ex
					Ex *= fx
				}
			} else {
				for k := range row {
					row[k] = T(scale * G)
					srow[k] += sumScale * G
					G *= Ex
					Ex *= fx
				}
			}
			G0 *= Ey
			Ey *= fy
			Ex0 *= fxy
		}
		return true
	}
	for a := a0; a < a1; a++ {
		dy := dy0 + float64(a-a0)*hy
		row := out[a*nb+b0 : a*nb+b1]
		srow := sum[a*nb+b0 : a*nb+b1]
		for k := range row {
			e := g.expo(dy, dx0+float64(k)*hx)
			if e < expFloor {
				row[k] = 0
				continue
			}
			G := math.Exp(e)
			row[k] = T(scale * G)
			srow[k] += sumScale * G
		}
	}
	return true
}
