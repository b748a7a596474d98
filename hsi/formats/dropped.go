package formats

import (
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

// Dropped names what of the metadata m the file format of path cannot
// hold, so that the caller can warn: nil when the format keeps all of it.
// NPY keeps none of it, MAT keeps the wavelengths and FWHM, ENVI and TIFF
// keep everything but a CRS they cannot express (see hsi.Geo.ENVI and
// tiff.GeoLost). A PNG output is a preview and is not reported.
func Dropped(path string, m *hsi.Meta) []string {
	f, ok := byExt(path)
	if !ok {
		return nil
	}
	switch f.Name {
	case "ENVI":
		_, _, lost := m.Geo.ENVI()
		return lost
	case "TIFF":
		return tiff.GeoLost(m)
	case "NPY", "MAT":
		return present(m, f.Name == "NPY")
	}
	return nil
}

// present lists the metadata m holds that NPY (all) or MAT (all but the
// wavelengths and FWHM) cannot.
func present(m *hsi.Meta, spectral bool) []string {
	var out []string
	add := func(cond bool, what string) {
		if cond {
			out = append(out, what)
		}
	}
	add(!m.Geo.Empty(), "georeferencing")
	add(spectral && len(m.Wavelengths) > 0, "wavelengths")
	add(spectral && len(m.FWHM) > 0, "FWHM")
	add(m.BadBands != nil, "bad band list")
	add(m.BandNames != nil, "band names")
	add(m.HasDataIgnore, "no-data value")
	add(m.Scale != nil || m.Offset != nil || m.ReflectanceScale != 0, "radiometric scale/offset")
	add(len(m.Extra) > 0, "other header fields")
	add(m.Description != "", "description")
	return out
}
