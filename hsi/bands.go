package hsi

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// lengthUnit returns the factor that turns a wavelength unit into
// nanometres; ok is false for a unit that is not a length (wavenumbers,
// an index) or that is not known. "" is unknown: ok, with factor 0.
func lengthUnit(u string) (f float64, ok bool) {
	switch strings.ToLower(strings.TrimSpace(u)) {
	case "nanometers", "nanometer", "nanometres", "nanometre", "nm":
		return 1, true
	case "micrometers", "micrometer", "micrometres", "micrometre", "microns", "micron", "um", "µm", "μm":
		return 1000, true
	case "millimeters", "millimeter", "millimetres", "millimetre", "mm":
		return 1e6, true
	case "", "unknown":
		return 0, true
	}
	return 0, false
}

// Nanometers returns the band centres and widths in nanometres, whatever
// the unit the file states (ENVI's "Nanometers" or "Micrometers", GDAL's
// "um", ...). A list with no unit is taken as nanometres, or as micrometres
// when its largest value is below 20 (no imaging spectrometer has a band
// beyond 20 µm, none below 20 nm). ok is false when the wavelengths are
// unknown or their unit is not a length; fwhm is nil when unknown.
func (m *Meta) Nanometers() (wl, fwhm []float64, ok bool) {
	if len(m.Wavelengths) == 0 {
		return nil, nil, false
	}
	f, ok := lengthUnit(m.WavelengthUnits)
	if !ok {
		return nil, nil, false
	}
	if f == 0 {
		f = 1
		if slices.Max(m.Wavelengths) < 20 {
			f = 1000
		}
	}
	wl = make([]float64, len(m.Wavelengths))
	for i, v := range m.Wavelengths {
		wl[i] = v * f
	}
	if len(m.FWHM) == len(m.Wavelengths) {
		fwhm = make([]float64, len(m.FWHM))
		for i, v := range m.FWHM {
			fwhm[i] = v * f
		}
	}
	return wl, fwhm, true
}

// nameWavelength matches a band name that carries its centre wavelength
// and unit: "376.44 Nanometers", "0.4300 um", "Band 12 (550.0 nm)",
// "band 3: 482.0 Nanometers", "443nm".
var nameWavelength = regexp.MustCompile(`(?i)(?:^|[\s(\[:,=])([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*\(?\s*(nanometers?|nanometres?|nm|micrometers?|micrometres?|microns?|um|µm|μm)\s*[)\]]?\s*$`)

// WavelengthsFromNames reads band centres from band names that each carry
// a wavelength and a unit ("376.44 Nanometers", as AVIRIS-NG radiance
// headers and GDAL band descriptions give them). ok is false unless every
// name has one, all in one unit; units is the ENVI name of that unit
// ("Nanometers", "Micrometers", "Millimeters").
func WavelengthsFromNames(names []string) (wl []float64, units string, ok bool) {
	if len(names) == 0 {
		return nil, "", false
	}
	wl = make([]float64, len(names))
	for i, n := range names {
		s := nameWavelength.FindStringSubmatch(strings.TrimSpace(n))
		if s == nil {
			return nil, "", false
		}
		v, err := strconv.ParseFloat(s[1], 64)
		if err != nil || !(v > 0) {
			return nil, "", false
		}
		f, _ := lengthUnit(s[2])
		u := map[float64]string{1: "Nanometers", 1000: "Micrometers", 1e6: "Millimeters"}[f]
		if u == "" || (units != "" && u != units) {
			return nil, "", false
		}
		units = u
		wl[i] = v
	}
	return wl, units, true
}

// WavelengthsFromBandNames fills Wavelengths and WavelengthUnits from the
// band names when the file gives no wavelengths and every band name
// carries one (see WavelengthsFromNames). It reports whether it did.
func (m *Meta) WavelengthsFromBandNames() bool {
	if len(m.Wavelengths) != 0 {
		return false
	}
	wl, u, ok := WavelengthsFromNames(m.BandNames)
	if !ok {
		return false
	}
	m.Wavelengths, m.WavelengthUnits = wl, u
	return true
}
