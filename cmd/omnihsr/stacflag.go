package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/hsi/stac"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// stacFlags is the -stac flag of the commands that write hyperspectral
// files.
type stacFlags struct{ on bool }

func (s *stacFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&s.on, "stac", false, "also write NAME.json beside each output: a STAC Item 1.1.0 with the asset, its bands (wavelength and FWHM in micrometres, scale, offset), no-data, data type, the projection (code, transform, shape) and a processing note (version, method, factor, model)")
}

// check refuses -stac for outputs that have no STAC item (PNG previews),
// and, before any work, an item's path (NAME.json) that exists and is not
// a regular file (a directory), which would fail only once the image is
// written.
func (s *stacFlags) check(paths ...string) error {
	if !s.on {
		return nil
	}
	for _, p := range paths {
		if f, err := formats.ForWrite(p); err == nil && f.Name == "PNG" {
			return usagef("-stac: %s is a PNG preview, which has no STAC item", p)
		}
		j := stac.PathFor(p)
		if st, err := os.Stat(j); err == nil && !st.Mode().IsRegular() {
			return fmt.Errorf("-stac: %s, the STAC item of %s, exists and is %s; move it or leave out -stac", j, p, regfile.Kind(st.Mode()))
		}
	}
	return nil
}

// write writes the STAC item of an output written with metadata meta.
func (s *stacFlags) write(stdout io.Writer, path string, h, w int, meta *hsi.Meta, wo hsi.WriteOptions, p stac.Processing) error {
	if !s.on {
		return nil
	}
	f, err := formats.ForWrite(path)
	if err != nil {
		return err
	}
	p.Software, p.Version = "omnihsr", omnihsrVersion()
	a := stac.Asset{Path: path, Files: formats.WriteFiles(path), Format: f.Name, Driver: string(wo.Driver), DataType: stacType(wo.DataType), H: h, W: w, Meta: meta}
	out, err := stac.Write(a, p, time.Now().Truncate(time.Second))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: STAC item of %s\n", out, filepath.Base(path))
	return nil
}

// omnihsrVersion is the version of this build: the main module's version,
// else its VCS revision (with "+dirty" for a modified tree), else "devel".
func omnihsrVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// modelNote names the model that rendered an output: the weights and, for
// the default pair, which of the two models ran ("" for bicubic).
func modelNote(r omnihsr.ModelReport, weights string) string {
	if !r.Used {
		return ""
	}
	name := "embedded default"
	if weights != "" {
		name = filepath.Base(weights)
	}
	if !r.Pair {
		return name
	}
	if r.NoiseAware {
		return fmt.Sprintf("%s pair: noise-aware companion, %.0f %% of its operator field", name, 100*r.Gain)
	}
	return name + " pair: model for clean inputs"
}

// stacType is the stac.Asset.DataType of hsi.WriteOptions.DataType t: ""
// (float32) for the zero value.
func stacType(t sample.Type) string {
	if t == sample.Invalid {
		return ""
	}
	return t.String()
}
