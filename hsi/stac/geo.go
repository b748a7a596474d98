package stac

import "math"

// lonLat returns the corners in longitude and latitude (degrees) for a
// grid in EPSG:4326 or a WGS 84 UTM zone (EPSG:326zz north, 327zz south).
func lonLat(corners [][2]float64, epsg int) ([][2]float64, bool) {
	out := make([][2]float64, len(corners))
	switch {
	case epsg == 4326:
		copy(out, corners)
	case epsg > 32600 && epsg <= 32660, epsg > 32700 && epsg <= 32760:
		zone, north := epsg%100, epsg < 32700
		for i, c := range corners {
			out[i][0], out[i][1] = utmInverse(c[0], c[1], zone, north)
		}
	default:
		return nil, false
	}
	for _, p := range out {
		if math.IsNaN(p[0]) || math.IsNaN(p[1]) || math.Abs(p[1]) > 90 || math.Abs(p[0]) > 540 {
			return nil, false
		}
	}
	return out, true
}

// utmInverse converts WGS 84 UTM easting and northing to longitude and
// latitude in degrees (the series of Snyder, Map Projections: A Working
// Manual, USGS 1987, eqs. 8-18 to 8-25; well under a metre within a zone).
func utmInverse(e, n float64, zone int, north bool) (lon, lat float64) {
	const (
		a  = 6378137.0
		f  = 1 / 298.257223563
		k0 = 0.9996
	)
	e2 := f * (2 - f)
	ep2 := e2 / (1 - e2)
	x := e - 500000
	y := n
	if !north {
		y -= 10000000
	}
	mu := y / k0 / (a * (1 - e2/4 - 3*e2*e2/64 - 5*e2*e2*e2/256))
	e1 := (1 - math.Sqrt(1-e2)) / (1 + math.Sqrt(1-e2))
	phi1 := mu + (3*e1/2-27*e1*e1*e1/32)*math.Sin(2*mu) + (21*e1*e1/16-55*e1*e1*e1*e1/32)*math.Sin(4*mu) +
		(151*e1*e1*e1/96)*math.Sin(6*mu) + (1097*e1*e1*e1*e1/512)*math.Sin(8*mu)
	s, c := math.Sin(phi1), math.Cos(phi1)
	t := math.Tan(phi1)
	c1 := ep2 * c * c
	t1 := t * t
	n1 := a / math.Sqrt(1-e2*s*s)
	r1 := a * (1 - e2) / math.Pow(1-e2*s*s, 1.5)
	d := x / (n1 * k0)
	latR := phi1 - (n1*t/r1)*(d*d/2-(5+3*t1+10*c1-4*c1*c1-9*ep2)*d*d*d*d/24+
		(61+90*t1+298*c1+45*t1*t1-252*ep2-3*c1*c1)*d*d*d*d*d*d/720)
	lonR := (d - (1+2*t1+c1)*d*d*d/6 + (5-2*c1+28*t1-3*c1*c1+8*ep2+24*t1*t1)*d*d*d*d*d/120) / c
	lon0 := float64(zone-1)*6 - 180 + 3
	return lon0 + lonR*180/math.Pi, latR * 180 / math.Pi
}
