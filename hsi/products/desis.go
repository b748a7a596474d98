package products

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

// desisPrefix starts the names of DESIS L2A products:
// DESIS-HSI-L2A-DT<datatake>_<tile>-<yyyymmddThhmmss>-V<version>-SPECTRAL_IMAGE.tif
// and ...-METADATA.xml, with ...-SPECTRAL_IMAGE.hdr in some deliveries.
const desisPrefix = "DESIS-HSI-"

// desisMeta is the part of a DESIS METADATA.xml the reader uses: the band
// list is scoped to specific/bandCharacterisation (<band> elements occur
// elsewhere too), each with its number, centre wavelength, width (FWHM),
// gain and offset, as the community readers take them.
type desisMeta struct {
	Bands []struct {
		Number     string `xml:"bandNumber"`
		Wavelength string `xml:"wavelengthCenterOfBand"`
		FWHM       string `xml:"wavelengthWidthOfBand"`
		Gain       string `xml:"gainOfBand"`
		Offset     string `xml:"offsetOfBand"`
	} `xml:"specific>bandCharacterisation>band"`
}

// backgroundValue returns the value of the first backgroundValue element
// of a DLR METADATA.xml (DESIS, EnMAP) of the mission named, and whether
// it has one.
func backgroundValue(xmlPath, mission string) (float64, bool, error) {
	b, err := readMetaFile(xmlPath)
	if err != nil {
		return 0, false, err
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("%s: not %s product metadata: %w", xmlPath, mission, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "backgroundValue" {
			continue
		}
		var s string
		if err := d.DecodeElement(&s, &se); err != nil {
			return 0, false, fmt.Errorf("%s: backgroundValue: %w", xmlPath, err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return 0, false, fmt.Errorf("%s: backgroundValue %q: not a finite number", xmlPath, s)
		}
		return v, true, nil
	}
}

var desisTime = regexp.MustCompile(`-(\d{8}T\d{6})-`)

// readDESIS reads a DESIS L2A product: the SPECTRAL_IMAGE GeoTIFF, with the
// band characterisation (wavelength, FWHM, gain, offset) from the
// SPECTRAL_IMAGE.hdr when the delivery has one (EnMAP-Box's importer reads
// it there) and from the METADATA.xml otherwise; reflectance = DN x gain +
// offset. The no-data value is the GeoTIFF's GDAL_NODATA (what GDAL, and
// so EnMAP-Box, uses), else the METADATA.xml's backgroundValue (the first
// element of that name, as ACOLITE's DESIS reader takes it), else the
// header's data ignore value (ACOLITE's choice for the pixels it masks);
// bands that hold no data anywhere are flagged bad.
func readDESIS(path, tifPath, xmlPath string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	info := hsi.SourceInfo{Format: "GeoTIFF + METADATA.xml"}
	if tifPath == "" {
		return nil, info, fmt.Errorf("%s: DESIS product without its SPECTRAL_IMAGE.tif beside it", path)
	}
	if opt.Ortho {
		return nil, info, fmt.Errorf("%s: -ortho applies to EMIT granules; DESIS L2A is already map-projected", path)
	}
	hdrPath := strings.TrimSuffix(tifPath, filepath.Ext(tifPath)) + ".hdr"
	if _, err := os.Stat(hdrPath); err != nil {
		hdrPath = ""
	}
	if hdrPath == "" && xmlPath == "" {
		return nil, info, fmt.Errorf("%s: DESIS product without its METADATA.xml (or SPECTRAL_IMAGE.hdr) beside it: wavelengths, gains and offsets are in that file", path)
	}
	c, tinfo, err := tiff.Read(tifPath, hsi.ReadOptions{})
	if err != nil {
		return nil, info, err
	}
	var wl, fwhm, gain, off []float64
	nodata, hasNoData := c.Meta.DataIgnore, c.Meta.HasDataIgnore
	if !hasNoData && xmlPath != "" {
		if nodata, hasNoData, err = backgroundValue(xmlPath, "DESIS"); err != nil {
			return nil, info, err
		}
	}
	src := xmlPath
	if hdrPath != "" {
		src = hdrPath
		_, _, b, hm, err := envi.HeaderMeta(hdrPath)
		if err != nil {
			return nil, info, err
		}
		if b != c.B {
			return nil, info, fmt.Errorf("%s: the header lists %d bands, %s holds %d", hdrPath, b, filepath.Base(tifPath), c.B)
		}
		wl, fwhm, gain, off = hm.Wavelengths, hm.FWHM, hm.Scale, hm.Offset
		if !hasNoData && hm.HasDataIgnore {
			nodata, hasNoData = hm.DataIgnore, true
		}
	} else {
		var m desisMeta
		if err := readXML(xmlPath, "DESIS", &m); err != nil {
			return nil, info, err
		}
		if len(m.Bands) == 0 {
			return nil, info, fmt.Errorf("%s: no specific/bandCharacterisation/band elements: the product's wavelengths are missing", xmlPath)
		}
		if len(m.Bands) != c.B {
			return nil, info, fmt.Errorf("%s: the band characterisation lists %d bands, %s holds %d", xmlPath, len(m.Bands), filepath.Base(tifPath), c.B)
		}
		wl, fwhm, gain, off = make([]float64, c.B), make([]float64, c.B), make([]float64, c.B), make([]float64, c.B)
		seen := make([]int, c.B) // 1 + the element that gave each band number
		for i, bd := range m.Bands {
			n, err := strconv.Atoi(strings.TrimSpace(bd.Number))
			if err != nil || n < 1 || n > c.B {
				return nil, info, fmt.Errorf("%s: band %d: bandNumber %q: want 1 to %d", xmlPath, i+1, bd.Number, c.B)
			}
			k := n - 1
			if seen[k] != 0 {
				// with as many elements as bands, another band has none:
				// it would be left at wavelength 0 and gain 0
				return nil, info, fmt.Errorf("%s: band elements %d and %d both have bandNumber %d: each band must be listed once", xmlPath, seen[k], i+1, n)
			}
			seen[k] = i + 1
			for _, f := range []struct {
				name string
				s    string
				dst  *float64
			}{{"wavelengthCenterOfBand", bd.Wavelength, &wl[k]}, {"wavelengthWidthOfBand", bd.FWHM, &fwhm[k]},
				{"gainOfBand", bd.Gain, &gain[k]}, {"offsetOfBand", bd.Offset, &off[k]}} {
				v, err := strconv.ParseFloat(strings.TrimSpace(f.s), 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, info, fmt.Errorf("%s: band %d: %s %q: not a finite number", xmlPath, n, f.name, f.s)
				}
				*f.dst = v
			}
		}
	}
	for _, l := range []struct {
		name string
		v    []float64
	}{{"wavelengths", wl}, {"FWHM", fwhm}, {"gains", gain}, {"offsets", off}} {
		if len(l.v) != c.B {
			return nil, info, fmt.Errorf("%s: %d %s for %d bands", src, len(l.v), l.name, c.B)
		}
	}
	calibrate(c, wl, fwhm, gain, off, nodata, hasNoData)
	meta := &c.Meta
	info.Product = "DESIS L2A"
	if m := desisTime.FindStringSubmatch(filepath.Base(tifPath)); m != nil {
		info.Product += ", acquired " + m[1]
	}
	meta.Description = info.Product
	info.DataType, info.Layout = tinfo.DataType, tinfo.Layout
	info.Detail = fmt.Sprintf("%s; band characterisation from %s; reflectance = DN x gain + offset per band", filepath.Base(tifPath), filepath.Base(src))
	return c, info, nil
}
