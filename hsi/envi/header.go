package envi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/sample"
)

// maxHeaderBytes bounds the size of a header file.
const maxHeaderBytes = 16 << 20

// header is a parsed ENVI header.
type header struct {
	samples, lines, bands int
	offset                int64
	dataType              int
	typ                   sample.Type
	interleave            string
	bigEndian             bool
	fields                map[string]string // lower-case key -> value without braces
	braced                map[string]bool   // the value was written in braces
}

// readHeaderBytes reads a whole header, refusing a file larger than
// maxHeaderBytes.
func readHeaderBytes(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxHeaderBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxHeaderBytes {
		return nil, fmt.Errorf("header is larger than %d MiB", maxHeaderBytes>>20)
	}
	return b, nil
}

// parseFields splits header text into key = value pairs. Keys are lower
// case with single spaces; a value opened with '{' runs to its matching
// '}' over any number of lines; lines starting with ';' outside braces are
// comments; lines without '=' are ignored.
func parseFields(text []byte) (fields map[string]string, braced map[string]bool, err error) {
	text = bytes.TrimPrefix(text, []byte("\xef\xbb\xbf"))
	s := strings.ReplaceAll(string(text), "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	first, rest, _ := strings.Cut(s, "\n")
	for strings.TrimSpace(first) == "" && rest != "" {
		first, rest, _ = strings.Cut(rest, "\n")
	}
	if !strings.EqualFold(strings.TrimSpace(first), "ENVI") {
		f := strings.TrimSpace(first)
		if len(f) > 40 {
			f = f[:40] + "..."
		}
		return nil, nil, fmt.Errorf("not an ENVI header: the first line is %q, not \"ENVI\"", f)
	}
	fields = map[string]string{}
	braced = map[string]bool{}
	for rest != "" {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if t == "" || t[0] == ';' {
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok {
			continue
		}
		key := strings.ToLower(strings.Join(strings.Fields(k), " "))
		v = strings.TrimSpace(v)
		if strings.HasPrefix(v, "{") {
			// Collect until the matching brace.
			buf := v
			depth := 0
			closed := -1
			scan := func(s string, base int) {
				for i := 0; i < len(s) && closed < 0; i++ {
					switch s[i] {
					case '{':
						depth++
					case '}':
						depth--
						if depth == 0 {
							closed = base + i
						}
					}
				}
			}
			scan(buf, 0)
			for closed < 0 {
				if rest == "" {
					return nil, nil, fmt.Errorf("the value of %q opens a brace that is never closed", key)
				}
				line, rest, _ = strings.Cut(rest, "\n")
				base := len(buf) + 1
				buf += "\n" + line
				scan(line, base)
			}
			v = strings.TrimSpace(buf[1:closed])
			braced[key] = true
		} else {
			braced[key] = false
		}
		fields[key] = v
	}
	return fields, braced, nil
}

// parseHeader parses and checks a header.
func parseHeader(text []byte) (*header, error) {
	fields, braced, err := parseFields(text)
	if err != nil {
		return nil, err
	}
	h := &header{fields: fields, braced: braced}
	getInt := func(key string, required bool, def int64) (int64, error) {
		v, ok := fields[key]
		if !ok {
			if required {
				return 0, fmt.Errorf("required field %q is missing", key)
			}
			return def, nil
		}
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			// Some writers print integers as floats ("100.0").
			f, ferr := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
				return 0, fmt.Errorf("field %q = %q is not an integer", key, v)
			}
			n = int64(f)
		}
		return n, nil
	}
	var dims [3]int64
	for i, key := range []string{"samples", "lines", "bands"} {
		n, err := getInt(key, true, 0)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return nil, fmt.Errorf("%s = %d: the image has no data (%w)", key, n, hsi.ErrEmpty)
		}
		if n > math.MaxInt32 {
			return nil, fmt.Errorf("%s = %d is too large", key, n)
		}
		dims[i] = n
	}
	h.samples, h.lines, h.bands = int(dims[0]), int(dims[1]), int(dims[2])
	if h.offset, err = getInt("header offset", false, 0); err != nil {
		return nil, err
	}
	if h.offset < 0 {
		return nil, fmt.Errorf("header offset = %d is negative", h.offset)
	}
	dt, err := getInt("data type", true, 0)
	if err != nil {
		return nil, err
	}
	h.dataType = int(dt)
	t, ok := sample.FromENVI(h.dataType)
	if !ok || dt != int64(h.dataType) {
		switch dt {
		case 6, 9:
			return nil, fmt.Errorf("data type = %d (complex) is not supported", dt)
		}
		return nil, fmt.Errorf("unknown data type = %d (want 1, 2, 3, 4, 5, 12, 13, 14 or 15)", dt)
	}
	h.typ = t
	bo, err := getInt("byte order", false, 0)
	if err != nil {
		return nil, err
	}
	switch bo {
	case 0:
	case 1:
		h.bigEndian = true
	default:
		return nil, fmt.Errorf("byte order = %d (want 0 or 1)", bo)
	}
	h.interleave = strings.ToLower(strings.TrimSpace(fields["interleave"]))
	switch h.interleave {
	case "":
		h.interleave = "bsq"
	case "bsq", "bil", "bip":
	default:
		return nil, fmt.Errorf("interleave = %q (want bsq, bil or bip)", fields["interleave"])
	}
	return h, nil
}

// splitList splits a brace list on commas and trims each item.
func splitList(v string) []string {
	parts := strings.Split(v, ",")
	out := parts[:0]
	for _, p := range parts {
		out = append(out, strings.TrimSpace(p))
	}
	if len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1] // trailing comma
	}
	return out
}

// floatList parses a per-band list of numbers.
func floatList(key, v string, bands int) ([]float64, error) {
	items := splitList(v)
	if len(items) != bands {
		return nil, fmt.Errorf("%q has %d values for %d bands", key, len(items), bands)
	}
	out := make([]float64, len(items))
	for i, s := range items {
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, fmt.Errorf("%q value %d = %q is not a number", key, i+1, s)
		}
		out[i] = f
	}
	return out, nil
}

// meta builds the cube metadata from the header fields.
func (h *header) meta() (hsi.Meta, error) {
	var m hsi.Meta
	f := h.fields
	var err error
	if v, ok := f["wavelength"]; ok && strings.TrimSpace(v) != "" {
		if m.Wavelengths, err = floatList("wavelength", v, h.bands); err != nil {
			return m, err
		}
	}
	if v, ok := f["wavelength units"]; ok {
		m.WavelengthUnits = strings.TrimSpace(v)
	}
	if v, ok := f["fwhm"]; ok && strings.TrimSpace(v) != "" {
		if m.FWHM, err = floatList("fwhm", v, h.bands); err != nil {
			return m, err
		}
	}
	if v, ok := f["bbl"]; ok && strings.TrimSpace(v) != "" {
		vals, err := floatList("bbl", v, h.bands)
		if err != nil {
			return m, err
		}
		m.BadBands = make([]bool, h.bands)
		for i, x := range vals {
			m.BadBands[i] = x == 0
		}
	}
	if v, ok := f["band names"]; ok && strings.TrimSpace(v) != "" {
		names := splitList(v)
		if len(names) != h.bands {
			return m, fmt.Errorf("\"band names\" has %d names for %d bands", len(names), h.bands)
		}
		m.BandNames = names
		// AVIRIS-NG radiance headers state the wavelengths only as band
		// names: {376.44 Nanometers, ...}.
		m.WavelengthsFromBandNames()
	}
	if v, ok := f["data ignore value"]; ok && strings.TrimSpace(v) != "" {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil {
			return m, fmt.Errorf("data ignore value = %q is not a number", v)
		}
		m.DataIgnore, m.HasDataIgnore = x, true
	}
	m.Description = strings.TrimSpace(f["description"])
	if v, ok := f["reflectance scale factor"]; ok && strings.TrimSpace(v) != "" {
		x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || x == 0 || math.IsNaN(x) || math.IsInf(x, 0) {
			return m, fmt.Errorf("reflectance scale factor = %q is not a finite non-zero number", v)
		}
		m.ReflectanceScale = x
	}
	if v, ok := f["data gain values"]; ok && strings.TrimSpace(v) != "" {
		if m.Scale, err = floatList("data gain values", v, h.bands); err != nil {
			return m, err
		}
	}
	if v, ok := f["data offset values"]; ok && strings.TrimSpace(v) != "" {
		if m.Offset, err = floatList("data offset values", v, h.bands); err != nil {
			return m, err
		}
	}
	keys := make([]string, 0, len(f))
	for k := range f {
		if !knownFields[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		m.Extra = append(m.Extra, hsi.Field{Key: k, Value: f[k], Braced: h.braced[k]})
	}
	g := hsi.Geo{
		MapInfo:        strings.TrimSpace(f["map info"]),
		CoordSys:       strings.TrimSpace(f["coordinate system string"]),
		ProjectionInfo: strings.TrimSpace(f["projection info"]),
	}
	if err := hsi.CheckMapInfo(g.MapInfo); err != nil {
		return m, err
	}
	if !g.Empty() {
		m.Geo = &g
	}
	return m, nil
}

// knownFields are the header fields read into the cube or its metadata;
// every other field is kept in Meta.Extra.
var knownFields = map[string]bool{
	"samples": true, "lines": true, "bands": true, "header offset": true, "file type": true,
	"data type": true, "interleave": true, "byte order": true, "wavelength": true,
	"wavelength units": true, "fwhm": true, "bbl": true, "band names": true,
	"data ignore value": true, "description": true, "map info": true,
	"coordinate system string": true, "projection info": true,
	"reflectance scale factor": true, "data gain values": true, "data offset values": true,
	// Layout of the input's data file, which an output does not share.
	"major frame offsets": true, "minor frame offsets": true, "file compression": true,
}

// reflectanceScale returns the reflectance scale factor to write: the
// file's own, or, for bands that share one scale s with no offset, 1/s, so
// that SPy (which reads this field and not "data gain values") reads the
// same physical values as GDAL.
func reflectanceScale(m *hsi.Meta, bands int) float64 {
	if m.ReflectanceScale != 0 || len(m.Scale) != bands {
		return m.ReflectanceScale
	}
	for b := range bands {
		if m.Scale[b] != m.Scale[0] || m.Scale[0] == 0 || (b < len(m.Offset) && m.Offset[b] != 0) {
			return 0
		}
	}
	return 1 / m.Scale[0]
}

// errHeader wraps a header problem with the header's path.
func errHeader(path string, err error) error {
	return fmt.Errorf("envi: %s: %w", path, err)
}

var errNoPartner = errors.New("no partner file")

// sanitize makes a string safe inside an ENVI brace value.
func sanitize(s string, list bool) string {
	s = strings.NewReplacer("{", "(", "}", ")").Replace(s)
	if list {
		s = strings.ReplaceAll(s, ",", ";")
		s = strings.ReplaceAll(s, "\n", " ")
	}
	return s
}

func fmtFloat(v float64) string {
	if math.IsNaN(v) {
		return "nan"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// formatHeader writes the header of a cube stored with the given type and
// interleave.
func formatHeader(c *hsi.Cube, t sample.Type, interleave string) ([]byte, error) {
	code, ok := t.ENVI()
	if !ok {
		return nil, fmt.Errorf("data type %s cannot be stored in ENVI", t)
	}
	m := &c.Meta
	var b bytes.Buffer
	b.WriteString("ENVI\n")
	if m.Description != "" {
		fmt.Fprintf(&b, "description = {%s}\n", sanitize(m.Description, false))
	}
	fmt.Fprintf(&b, "samples = %d\nlines = %d\nbands = %d\nheader offset = 0\nfile type = ENVI Standard\n", c.W, c.H, c.B)
	fmt.Fprintf(&b, "data type = %d\ninterleave = %s\nbyte order = 0\n", code, interleave)
	list := func(key string, n int, item func(i int) string) {
		if n == 0 {
			return
		}
		fmt.Fprintf(&b, "%s = {", key)
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(item(i))
		}
		b.WriteString("}\n")
	}
	if m.WavelengthUnits != "" {
		fmt.Fprintf(&b, "wavelength units = %s\n", strings.ReplaceAll(m.WavelengthUnits, "\n", " "))
	}
	list("wavelength", len(m.Wavelengths), func(i int) string { return fmtFloat(m.Wavelengths[i]) })
	list("fwhm", len(m.FWHM), func(i int) string { return fmtFloat(m.FWHM[i]) })
	list("bbl", len(m.BadBands), func(i int) string {
		if m.BadBands[i] {
			return "0"
		}
		return "1"
	})
	list("band names", len(m.BandNames), func(i int) string { return sanitize(m.BandNames[i], true) })
	if m.HasDataIgnore {
		fmt.Fprintf(&b, "data ignore value = %s\n", fmtFloat(m.DataIgnore))
	}
	if f := reflectanceScale(m, c.B); f != 0 {
		fmt.Fprintf(&b, "reflectance scale factor = %s\n", fmtFloat(f))
	}
	list("data gain values", len(m.Scale), func(i int) string { return fmtFloat(m.Scale[i]) })
	list("data offset values", len(m.Offset), func(i int) string { return fmtFloat(m.Offset[i]) })
	if g := m.Geo; g != nil {
		mapInfo, coordSys, _ := g.ENVI()
		if mapInfo != "" {
			fmt.Fprintf(&b, "map info = {%s}\n", sanitize(mapInfo, false))
		}
		if g.ProjectionInfo != "" {
			fmt.Fprintf(&b, "projection info = {%s}\n", sanitize(g.ProjectionInfo, false))
		}
		if coordSys != "" {
			fmt.Fprintf(&b, "coordinate system string = {%s}\n", sanitize(coordSys, false))
		}
	}
	for _, f := range m.Extra {
		key := strings.ToLower(strings.Join(strings.Fields(strings.NewReplacer("=", " ", "{", " ", "}", " ").Replace(f.Key)), " "))
		if key == "" || knownFields[key] {
			continue
		}
		if f.Braced {
			fmt.Fprintf(&b, "%s = {%s}\n", key, sanitize(f.Value, false))
		} else {
			fmt.Fprintf(&b, "%s = %s\n", key, strings.ReplaceAll(f.Value, "\n", " "))
		}
	}
	return b.Bytes(), nil
}
