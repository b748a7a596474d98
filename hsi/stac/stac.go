package stac

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/atomicfile"
)

// Version is the STAC version of the items written.
const Version = "1.1.0"

// The extension schemas the items declare.
const (
	EO         = "https://stac-extensions.github.io/eo/v2.0.0/schema.json"
	Raster     = "https://stac-extensions.github.io/raster/v2.0.0/schema.json"
	Projection = "https://stac-extensions.github.io/projection/v2.0.0/schema.json"
)

// Processing says how the output was made.
type Processing struct {
	Software string  // "omnihsr"
	Version  string  // its version or VCS revision
	Command  string  // "upscale", "convert"
	Method   string  // "omnihsr", "bicubic", ...; "" for a conversion
	FactorY  float64 // output rows / input rows; 0 for a conversion
	FactorX  float64
	Model    string // the weights used; "" when no model ran
	Input    string // the input file's name
}

// Asset is one output file.
type Asset struct {
	Path     string // the output path as written (ENVI: the .hdr)
	Files    []string
	Format   string // "ENVI", "TIFF", "NPY", "MAT"
	Driver   string // "COG" for a Cloud Optimized GeoTIFF
	DataType string // sample type on disk, "float32" when empty
	H, W     int
	Meta     *hsi.Meta // the output's metadata (band metadata, no-data, grid)
}

// PathFor returns where the item of an output goes: NAME.json beside it,
// NAME its file name without the extension.
func PathFor(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".json"
}

// Item builds the STAC Item of an asset. when is the item's datetime
// unless the metadata states an acquisition time.
func Item(a Asset, p Processing, when time.Time) (map[string]any, error) {
	if a.Meta == nil || a.H <= 0 || a.W <= 0 {
		return nil, fmt.Errorf("stac: %s: no shape or metadata", a.Path)
	}
	m := a.Meta
	id := strings.TrimSuffix(filepath.Base(a.Path), filepath.Ext(a.Path))
	dt := when.UTC()
	if t, ok := acquisition(m); ok {
		dt = t
	}
	props := map[string]any{
		"datetime": dt.Format(time.RFC3339),
		"created":  when.UTC().Format(time.RFC3339),
	}
	var usedEO, usedRaster bool
	item := map[string]any{
		"type":         "Feature",
		"stac_version": Version,
		"id":           id,
		"geometry":     nil,
		"links":        []any{},
		"properties":   props,
	}
	note := p.Software
	if p.Version != "" {
		note += " " + p.Version
	}
	note += " " + p.Command
	if p.Method != "" {
		note += ", method " + p.Method
		props["omnihsr:method"] = p.Method
	}
	if p.FactorY > 0 && p.FactorX > 0 {
		note += ", factor " + fmtFactor(p.FactorY, p.FactorX)
		props["omnihsr:factor"] = []float64{round(p.FactorY), round(p.FactorX)}
	}
	if p.Model != "" {
		note += ", model " + p.Model
		props["omnihsr:model"] = p.Model
	}
	if p.Input != "" {
		note += ", from " + p.Input
		props["omnihsr:input"] = p.Input
	}
	props["description"] = note
	props["omnihsr:version"] = p.Version
	if p.Software != "" {
		props["omnihsr:software"] = p.Software
	}

	typ := a.DataType
	if typ == "" {
		typ = "float32"
	}
	asset := map[string]any{
		"href":      filepath.Base(dataFile(a)),
		"type":      mediaType(a),
		"roles":     []string{"data"},
		"data_type": typ,
	}
	if m.HasDataIgnore {
		asset["nodata"] = noData(m.DataIgnore)
	}
	bands := make([]any, 0)
	nm, fw, haveWL := m.Nanometers()
	nb := max(len(m.Wavelengths), len(m.BandNames), len(m.Scale), len(m.BadBands))
	for b := 0; b < nb; b++ {
		band := map[string]any{"name": "band " + strconv.Itoa(b+1)}
		if b < len(m.BandNames) && m.BandNames[b] != "" {
			band["name"] = m.BandNames[b]
		}
		// A value that is not finite (JSON has no NaN) is left out.
		if haveWL && b < len(nm) && finite(nm[b]) {
			band["eo:center_wavelength"] = micrometres(nm[b])
			usedEO = true
			if b < len(fw) && finite(fw[b]) {
				band["eo:full_width_half_max"] = micrometres(fw[b])
			}
		}
		if s, o, ok := m.PhysicalScale(b); ok && finite(s, o) {
			band["raster:scale"] = s
			band["raster:offset"] = o
			usedRaster = true
		}
		if b < len(m.BadBands) && m.BadBands[b] {
			band["description"] = "bad band (bbl = 0): written as no-data"
		}
		bands = append(bands, band)
	}
	if len(bands) > 0 {
		asset["bands"] = bands
	}
	assets := map[string]any{"data": asset}
	if a.Format == "ENVI" {
		assets["header"] = map[string]any{"href": filepath.Base(a.Path), "type": "text/plain", "roles": []string{"metadata"}, "title": "ENVI header"}
	}
	item["assets"] = assets

	// an item declares the extensions whose fields it uses
	exts := []string{}
	if usedEO {
		exts = append(exts, EO)
	}
	geoExt := false
	if gt, ok := m.Geo.Transform(); ok && finite(gt[:]...) {
		geoExt = true
		c, _ := m.Geo.CRS()
		if c.EPSG != 0 {
			props["proj:code"] = "EPSG:" + strconv.Itoa(c.EPSG)
		} else {
			props["proj:code"] = nil
		}
		props["proj:shape"] = []int{a.H, a.W}
		// the extension's affine order: x = a*col + b*row + c, y = d*col + e*row + f
		props["proj:transform"] = []float64{gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]}
		corners := [][2]float64{}
		for _, rc := range [][2]float64{{0, 0}, {0, float64(a.W)}, {float64(a.H), float64(a.W)}, {float64(a.H), 0}} {
			corners = append(corners, [2]float64{gt[0] + rc[1]*gt[1] + rc[0]*gt[2], gt[3] + rc[1]*gt[4] + rc[0]*gt[5]})
		}
		props["proj:bbox"] = bbox(corners)
		if gsd := math.Hypot(gt[1], gt[4]); gsd > 0 && math.Abs(gsd-math.Hypot(gt[2], gt[5])) < 1e-9*gsd {
			asset["raster:spatial_resolution"] = gsd
			usedRaster = true
		}
		if ring, ok := lonLat(corners, c.EPSG); ok {
			ring = append(ring, ring[0])
			coords := make([]any, len(ring))
			for i, v := range ring {
				coords[i] = []float64{roundDeg(v[0]), roundDeg(v[1])}
			}
			item["geometry"] = map[string]any{"type": "Polygon", "coordinates": []any{coords}}
			bb := bbox(ring[:4])
			for i := range bb {
				bb[i] = roundDeg(bb[i])
			}
			item["bbox"] = bb
		}
	}
	if usedRaster {
		exts = append(exts, Raster)
	}
	if geoExt {
		exts = append(exts, Projection)
	}
	item["stac_extensions"] = exts
	return item, nil
}

// Write writes the item of an asset to PathFor(a.Path), atomically.
func Write(a Asset, p Processing, when time.Time) (string, error) {
	item, err := Item(a, p, when)
	if err != nil {
		return "", err
	}
	b, err := json.MarshalIndent(item, "", "  ")
	if err != nil {
		return "", fmt.Errorf("stac: %s: %w", a.Path, err)
	}
	out := PathFor(a.Path)
	err = atomicfile.Write(out, func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("stac: %w", err)
	}
	return out, nil
}

// dataFile is the file holding the samples: ENVI's data file, else the
// output itself.
func dataFile(a Asset) string {
	if a.Format == "ENVI" {
		for _, f := range a.Files {
			if !strings.EqualFold(filepath.Ext(f), ".hdr") {
				return f
			}
		}
	}
	return a.Path
}

func mediaType(a Asset) string {
	switch a.Format {
	case "TIFF":
		if a.Driver == "COG" {
			return "image/tiff; application=geotiff; profile=cloud-optimized"
		}
		return "image/tiff; application=geotiff"
	case "ENVI":
		return "application/x-envi"
	case "NPY":
		return "application/x-npy"
	case "MAT":
		return "application/x-matlab-data"
	}
	return "application/octet-stream"
}

// acquisition reads an ENVI "acquisition time" field (ISO 8601, UTC when
// it names no zone).
func acquisition(m *hsi.Meta) (time.Time, bool) {
	for _, f := range m.Extra {
		if !strings.EqualFold(f.Key, "acquisition time") {
			continue
		}
		v := strings.TrimSpace(f.Value)
		if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
			return t.UTC(), true
		}
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02 15:04:05", "2006-01-02"} {
			if t, err := time.ParseInLocation(layout, v, time.UTC); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}

// finite reports whether every value is a finite number, which JSON can
// hold.
func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// noData is a no-data value as STAC writes it: a number, or "nan", "inf",
// "-inf".
func noData(v float64) any {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return v
}

// micrometres converts nanometres, rounded to 12 significant digits (0.4,
// not 0.39999999999999997).
func micrometres(nm float64) float64 { return round(nm / 1000) }

func round(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 12, 64), 64)
	if err != nil {
		return v
	}
	return r
}

func fmtFactor(fy, fx float64) string {
	if round(fy) == round(fx) {
		return strconv.FormatFloat(round(fy), 'g', -1, 64)
	}
	return strconv.FormatFloat(round(fy), 'g', -1, 64) + " x " + strconv.FormatFloat(round(fx), 'g', -1, 64)
}

func bbox(pts [][2]float64) []float64 {
	b := []float64{math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)}
	for _, p := range pts {
		b[0], b[1] = math.Min(b[0], p[0]), math.Min(b[1], p[1])
		b[2], b[3] = math.Max(b[2], p[0]), math.Max(b[3], p[1])
	}
	return b
}

// roundDeg rounds degrees to 1e-9 (0.1 mm on the ground), so that items do
// not depend on the last bits of the trigonometric functions.
func roundDeg(v float64) float64 { return math.Round(v*1e9) / 1e9 }
