package products

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/tiff"
)

// A DLR product is a GeoTIFF "<name>-SPECTRAL_IMAGE.TIF" next to its
// "<name>-METADATA.XML".
const (
	spectralSuffix = "-SPECTRAL_IMAGE"
	metadataSuffix = "-METADATA"
	enmapNoData    = -32768
)

// productParts returns the spectral image and metadata paths of the DLR
// product that path (either file) belongs to; ok is false when path is
// not named like one. xmlPath is "" when no metadata file lies beside it.
func productParts(path string) (tifPath, xmlPath string, ok bool) {
	dir, base := filepath.Split(path)
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	upper := strings.ToUpper(stem)
	if !strings.HasPrefix(upper, "ENMAP") && !strings.HasPrefix(upper, desisPrefix) {
		return "", "", false
	}
	var prefix string
	switch {
	case strings.HasSuffix(upper, metadataSuffix) && strings.EqualFold(ext, ".xml"):
		prefix = stem[:len(stem)-len(metadataSuffix)]
		xmlPath = path
	case strings.Contains(upper, spectralSuffix) && (strings.EqualFold(ext, ".tif") || strings.EqualFold(ext, ".tiff")):
		prefix = stem[:strings.Index(upper, spectralSuffix)]
		tifPath = path
	default:
		return "", "", false
	}
	find := func(pattern string) string {
		m, _ := filepath.Glob(filepath.Join(dir, globEscape(prefix)+pattern))
		for _, p := range m {
			e := strings.ToLower(filepath.Ext(p))
			if e == ".tif" || e == ".tiff" || e == ".xml" {
				return p
			}
		}
		return ""
	}
	if tifPath == "" {
		tifPath = find(spectralSuffix + "*")
	}
	if xmlPath == "" {
		xmlPath = find(metadataSuffix + ".*")
	}
	return tifPath, xmlPath, true
}

func globEscape(s string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`, `\`, `\\`)
	return r.Replace(s)
}

// IsProductFile reports whether path is part of a product that
// ReadProduct reads whole: an EnMAP or DESIS L2A spectral image or
// metadata file.
func IsProductFile(path string) bool {
	_, _, ok := productParts(path)
	return ok
}

// enmapMeta is the part of an EnMAP METADATA.XML the reader uses. The band
// list is scoped to specific/bandCharacterisation: bandID elements also
// occur under product/bandStatistics.
type enmapMeta struct {
	XMLName xml.Name `xml:"level_X"`
	Level   string   `xml:"metadata>schema>processingLevel"`
	Start   string   `xml:"base>temporalCoverage>startTime"`
	Bands   []struct {
		Number     string `xml:"number,attr"`
		Wavelength string `xml:"wavelengthCenterOfBand"`
		FWHM       string `xml:"FWHMOfBand"`
		Gain       string `xml:"GainOfBand"`
		Offset     string `xml:"OffsetOfBand"`
	} `xml:"specific>bandCharacterisation>bandID"`
}

// ReadProduct reads an EnMAP or DESIS L2A product (see readDESIS for DESIS)
// from its spectral image or its metadata file. EnMAP: reflectance = DN * gain + offset per band, wavelengths and
// FWHM from the band characterisation, georeferencing from the GeoTIFF.
// The no-data value is the GeoTIFF's nodata tag, else -32768; the
// METADATA.XML's backgroundValue (specific/backgroundValue, the DN of the
// pixels outside the scene; 0 in the real pre-launch XML), when it states
// one, is no-data too: its samples take the no-data value. Bands that
// hold no data anywhere are flagged bad.
func ReadProduct(path string, opt hsi.ReadOptions) (*hsi.Cube, hsi.SourceInfo, error) {
	info := hsi.SourceInfo{Format: "GeoTIFF + METADATA.XML"}
	tifPath, xmlPath, ok := productParts(path)
	if !ok {
		return nil, info, fmt.Errorf("%s: not named like an EnMAP or DESIS product (<name>-SPECTRAL_IMAGE.TIF, <name>-METADATA.XML)", path)
	}
	if strings.HasPrefix(strings.ToUpper(filepath.Base(path)), desisPrefix) {
		return readDESIS(path, tifPath, xmlPath, opt)
	}
	if xmlPath == "" {
		return nil, info, fmt.Errorf("%s: EnMAP product without its METADATA.XML beside it: wavelengths, gains and offsets are in that file", path)
	}
	if tifPath == "" {
		return nil, info, fmt.Errorf("%s: EnMAP product without its SPECTRAL_IMAGE.TIF beside it", path)
	}
	if opt.Ortho {
		return nil, info, fmt.Errorf("%s: -ortho applies to EMIT granules; EnMAP L2A is already map-projected", path)
	}
	var m enmapMeta
	if err := readXML(xmlPath, "EnMAP", &m); err != nil {
		return nil, info, err
	}
	if len(m.Bands) == 0 {
		return nil, info, fmt.Errorf("%s: no specific/bandCharacterisation/bandID elements: the product's wavelengths are missing", xmlPath)
	}
	c, tinfo, err := tiff.Read(tifPath, hsi.ReadOptions{})
	if err != nil {
		return nil, info, err
	}
	if len(m.Bands) != c.B {
		return nil, info, fmt.Errorf("%s: the band characterisation lists %d bands, %s holds %d", xmlPath, len(m.Bands), filepath.Base(tifPath), c.B)
	}
	num := func(band int, name, s string) (float64, error) {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err == nil && (math.IsNaN(v) || math.IsInf(v, 0)) {
			err = errors.New("not a finite number")
		}
		if err != nil {
			return 0, fmt.Errorf("%s: band %d: %s %q: %v", xmlPath, band+1, name, s, err)
		}
		return v, nil
	}
	wl := make([]float64, c.B)
	fwhm := make([]float64, c.B)
	gain := make([]float64, c.B)
	off := make([]float64, c.B)
	for i, bd := range m.Bands {
		if wl[i], err = num(i, "wavelengthCenterOfBand", bd.Wavelength); err != nil {
			return nil, info, err
		}
		if fwhm[i], err = num(i, "FWHMOfBand", bd.FWHM); err != nil {
			return nil, info, err
		}
		if gain[i], err = num(i, "GainOfBand", bd.Gain); err != nil {
			return nil, info, err
		}
		if off[i], err = num(i, "OffsetOfBand", bd.Offset); err != nil {
			return nil, info, err
		}
	}
	nodata := float64(enmapNoData)
	if c.Meta.HasDataIgnore {
		nodata = c.Meta.DataIgnore
	}
	bg, hasBG, err := backgroundValue(xmlPath, "EnMAP")
	if err != nil {
		return nil, info, err
	}
	nbg := 0
	if fb, nd := float32(bg), float32(nodata); hasBG && fb != nd {
		for i, v := range c.Data {
			if v == fb {
				c.Data[i] = nd
				nbg++
			}
		}
	}
	calibrate(c, wl, fwhm, gain, off, nodata, true)
	meta := &c.Meta
	level := m.Level
	if level == "" {
		level = "L2A"
	}
	info.Product = "EnMAP " + level
	if m.Start != "" {
		info.Product += ", acquired " + m.Start
	}
	meta.Description = info.Product
	info.DataType = tinfo.DataType
	info.Layout = tinfo.Layout
	info.Detail = fmt.Sprintf("%s; %s; reflectance = DN x gain + offset per band", filepath.Base(tifPath), filepath.Base(xmlPath))
	if hasBG && float32(bg) != float32(nodata) {
		info.Detail += fmt.Sprintf("; background value %g: no-data (%d samples)", bg, nbg)
	}
	return c, info, nil
}

// readXML decodes the metadata file path of a product of the mission named
// into v.
func readXML(path, mission string, v any) error {
	b, err := readMetaFile(path)
	if err != nil {
		return err
	}
	if err := xml.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: not %s product metadata: %w", path, mission, err)
	}
	return nil
}

// MaxMetadataBytes bounds the size of a product's XML metadata file
// (EnMAP, DESIS): real ones are a few MB; a larger one is refused before it
// is read, so a 300 MB attribute or /dev/zero under a metadata name cannot
// take the machine.
const MaxMetadataBytes = 64 << 20

// readMetaFile reads a product metadata file: a regular file (not a FIFO,
// a device or a directory, which would block or never end) of at most
// MaxMetadataBytes.
func readMetaFile(path string) ([]byte, error) {
	// Stat before opening: opening a FIFO blocks until a writer comes.
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: product metadata is not a regular file (%v)", path, st.Mode().Type())
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	if st, err = fh.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: product metadata is not a regular file (%v)", path, st.Mode().Type())
	}
	if st.Size() > MaxMetadataBytes {
		return nil, fmt.Errorf("%s: product metadata of %d bytes is larger than the %d MiB a product's XML may take", path, st.Size(), MaxMetadataBytes>>20)
	}
	b, err := io.ReadAll(io.LimitReader(fh, MaxMetadataBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxMetadataBytes {
		return nil, fmt.Errorf("%s: product metadata grew past %d MiB while it was read", path, MaxMetadataBytes>>20)
	}
	return b, nil
}

// calibrate turns the DNs of c into reflectance, DN x gain + offset per
// band, leaving the samples at the no-data value (when hasNoData) as they
// are, and sets c's metadata: wavelengths (nm), FWHM, the no-data value,
// and the bands that hold no data anywhere flagged bad. The stored scale
// metadata is dropped: the values are physical now.
func calibrate(c *hsi.Cube, wl, fwhm, gain, off []float64, nodata float64, hasNoData bool) {
	bad := make([]bool, c.B)
	for i := range bad {
		bad[i] = true
	}
	nd := float32(nodata)
	for p := 0; p < c.H*c.W; p++ {
		s := c.Data[p*c.B : (p+1)*c.B]
		for k, v := range s {
			if hasNoData && v == nd {
				continue
			}
			bad[k] = false
			s[k] = float32(float64(v)*gain[k] + off[k])
		}
	}
	meta := &c.Meta
	meta.Wavelengths, meta.WavelengthUnits, meta.FWHM, meta.BadBands = wl, "Nanometers", fwhm, bad
	meta.Scale, meta.Offset, meta.ReflectanceScale = nil, nil, 0
	meta.DataIgnore, meta.HasDataIgnore = nodata, hasNoData
}
