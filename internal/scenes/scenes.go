package scenes

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/matfile"
)

// Scene is one row of a scene list.
type Scene struct {
	Split    string // "train" or "eval"
	File     string // path of the .mat file (joined with the list's directory)
	Variable string // MATLAB variable
	Layout   string // matfile layout: "HWB", "B_HW_colmajor", "HDF5_BWH"
	Height   int
	Width    int
	Bands    int
	Sensor   string
	Notes    string
	Line     int // line number in the list, for messages
}

// Name returns the file name without directory and extension.
func (s Scene) Name() string {
	b := filepath.Base(s.File)
	return strings.TrimSuffix(b, filepath.Ext(b))
}

var columns = []string{"split", "file", "variable", "layout", "height", "width", "bands", "sensor", "notes"}

// Parse reads a scene list. Blank lines and lines starting with # are skipped.
func Parse(path string) ([]Scene, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("scenes: %w", err)
	}
	defer f.Close()
	dir := filepath.Dir(path)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	var col map[string]int
	var out []Scene
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Split(text, "\t")
		if col == nil {
			col = map[string]int{}
			for i, h := range fields {
				col[strings.ToLower(strings.TrimSpace(h))] = i
			}
			for _, c := range columns[:7] {
				if _, ok := col[c]; !ok {
					return nil, fmt.Errorf("scenes: %s: header line lacks the column %q (want %s)", path, c, strings.Join(columns, ", "))
				}
			}
			continue
		}
		get := func(c string) string {
			i, ok := col[c]
			if !ok || i >= len(fields) {
				return ""
			}
			return strings.TrimSpace(fields[i])
		}
		s := Scene{
			Split: get("split"), Variable: get("variable"), Layout: get("layout"),
			Sensor: get("sensor"), Notes: get("notes"), Line: line,
		}
		file := get("file")
		if file == "" {
			return nil, fmt.Errorf("scenes: %s:%d: empty file column", path, line)
		}
		if filepath.IsAbs(file) {
			s.File = file
		} else {
			s.File = filepath.Join(dir, filepath.FromSlash(file))
		}
		for _, p := range []struct {
			name string
			dst  *int
		}{{"height", &s.Height}, {"width", &s.Width}, {"bands", &s.Bands}} {
			v, err := strconv.Atoi(get(p.name))
			if err != nil || v <= 0 {
				return nil, fmt.Errorf("scenes: %s:%d: %s %q is not a positive integer", path, line, p.name, get(p.name))
			}
			*p.dst = v
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scenes: %s: %w", path, err)
	}
	if col == nil {
		return nil, fmt.Errorf("scenes: %s: no header line", path)
	}
	return out, nil
}

// Filter returns the scenes of one split ("" = all).
func Filter(all []Scene, split string) []Scene {
	var out []Scene
	for _, s := range all {
		if split == "" || s.Split == split {
			out = append(out, s)
		}
	}
	return out
}

// Load reads a scene and checks its shape against the list. Wavelengths
// stored beside the cube (a 'wavelength(s)' variable) are kept in
// Meta.Wavelengths; values between 200 and 3000 with no stated unit are
// taken as nanometres.
func Load(s Scene) (*hsi.Cube, error) {
	c, _, err := matfile.Read(s.File, hsi.ReadOptions{Var: s.Variable, Layout: s.Layout, Height: s.Height, Width: s.Width})
	if err != nil {
		return nil, fmt.Errorf("scenes: %w", err)
	}
	if c.H != s.Height || c.W != s.Width || c.B != s.Bands {
		return nil, fmt.Errorf("scenes: %s: loaded %dx%dx%d, the scene list (line %d) says %dx%dx%d",
			s.File, c.H, c.W, c.B, s.Line, s.Height, s.Width, s.Bands)
	}
	if len(c.Meta.Wavelengths) > 0 && c.Meta.WavelengthUnits == "" && inRange(c.Meta.Wavelengths, 200, 3000) {
		c.Meta.WavelengthUnits = "Nanometers"
	}
	if c.Meta.Description == "" {
		c.Meta.Description = fmt.Sprintf("%s (%s)", s.Name(), s.Sensor)
	}
	return c, nil
}

func inRange(v []float64, lo, hi float64) bool {
	for _, x := range v {
		if !(x >= lo && x <= hi) {
			return false
		}
	}
	return true
}

// SharedDir returns the project's shared directory: $OMNIHSR_SHARED when
// set, else ../shared beside the module root (the directory holding go.mod,
// found by walking up from the working directory). ok is false when it does
// not exist.
func SharedDir() (string, bool) {
	if d := os.Getenv("OMNIHSR_SHARED"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d, true
		}
		return d, false
	}
	root, ok := ModuleRoot()
	if !ok {
		return "", false
	}
	d := filepath.Join(filepath.Dir(root), "shared")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d, true
	}
	return d, false
}

// ModuleRoot returns the nearest directory at or above the working directory
// that holds a go.mod file.
func ModuleRoot() (string, bool) {
	d, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, true
		}
		p := filepath.Dir(d)
		if p == d {
			return "", false
		}
		d = p
	}
}

// DefaultList returns the path of the shared scene list,
// <shared>/data/hsi/scenes.tsv, and whether it exists.
func DefaultList() (string, bool) {
	d, ok := SharedDir()
	if !ok {
		return "", false
	}
	p := filepath.Join(d, "data", "hsi", "scenes.tsv")
	_, err := os.Stat(p)
	return p, err == nil
}
