package hsi

import (
	"slices"
	"testing"
)

func TestWavelengthsFromNames(t *testing.T) {
	for _, tc := range []struct {
		names []string
		wl    []float64
		units string
	}{
		{[]string{"376.44 Nanometers", "381.45 Nanometers"}, []float64{376.44, 381.45}, "Nanometers"},
		{[]string{"Band 1 (0.4300 um)", "Band 2 (0.5 Micrometers)"}, []float64{0.43, 0.5}, "Micrometers"},
		{[]string{"band 3: 482.0 nm", "443nm"}, []float64{482, 443}, "Nanometers"},
		{[]string{"B1 [665 nm]", "B2 [705 nm]"}, []float64{665, 705}, "Nanometers"},
		{[]string{"band 8", "band 9"}, nil, ""},                      // EnMAP-Box's names: no wavelength
		{[]string{"376.44 Nanometers", "band 2"}, nil, ""},           // not every band
		{[]string{"376.44 Nanometers", "0.38 Micrometers"}, nil, ""}, // mixed units
		{[]string{"Red", "Green", "Blue"}, nil, ""},
		{[]string{"2 um2"}, nil, ""},
		{nil, nil, ""},
	} {
		wl, u, ok := WavelengthsFromNames(tc.names)
		if ok != (tc.wl != nil) || !slices.Equal(wl, tc.wl) || u != tc.units {
			t.Errorf("%q: %v %q %v, want %v %q", tc.names, wl, u, ok, tc.wl, tc.units)
		}
	}
	m := Meta{BandNames: []string{"376.44 Nanometers", "381.45 Nanometers"}}
	if !m.WavelengthsFromBandNames() || m.WavelengthUnits != "Nanometers" || m.Wavelengths[1] != 381.45 {
		t.Errorf("meta %+v", m)
	}
	m = Meta{BandNames: m.BandNames, Wavelengths: []float64{1, 2}}
	if m.WavelengthsFromBandNames() || m.Wavelengths[0] != 1 {
		t.Errorf("stated wavelengths replaced: %+v", m)
	}
}

func TestNanometers(t *testing.T) {
	for _, tc := range []struct {
		wl, fw []float64
		units  string
		want   []float64
		wantFW []float64
		ok     bool
	}{
		{[]float64{0.4, 2.5}, []float64{0.01, 0.02}, "Micrometers", []float64{400, 2500}, []float64{10, 20}, true},
		{[]float64{400, 2500}, nil, "Nanometers", []float64{400, 2500}, nil, true},
		{[]float64{0.4, 2.5}, nil, "", []float64{400, 2500}, nil, true},
		{[]float64{400, 2500}, nil, "", []float64{400, 2500}, nil, true},
		{[]float64{400, 2500}, nil, "Wavenumber", nil, nil, false},
		{nil, nil, "Nanometers", nil, nil, false},
	} {
		m := Meta{Wavelengths: tc.wl, FWHM: tc.fw, WavelengthUnits: tc.units}
		wl, fw, ok := m.Nanometers()
		if ok != tc.ok || !slices.Equal(wl, tc.want) || !slices.Equal(fw, tc.wantFW) {
			t.Errorf("%v %q: %v %v %v, want %v %v %v", tc.wl, tc.units, wl, fw, ok, tc.want, tc.wantFW, tc.ok)
		}
	}
}
