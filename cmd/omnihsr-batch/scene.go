package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
	"github.com/omnihsr/omnihsr/resample"
)

// Options are what every scene of a job shares. The fields are exported
// because Beam serialises them (as JSON) into the pipeline for the workers.
type Options struct {
	// OutDir receives STEM_xS.EXT for each input and factor.
	OutDir string
	// Factors are the upscaling factors, rendered from one encoding.
	Factors []float64
	// Method is a name of the method registry; Weights an OmniHSR weight
	// file ("" = the model embedded in the binary).
	Method, Weights string
	// Type is the output sample type ("" = float32, "same" = the input's).
	Type string
	// Ext is the output extension with its dot ("" = the input's, .hdr for
	// ENVI data files).
	Ext string
	// Scratch is the local directory that holds the copies of a remote
	// scene and of its outputs while it is processed ("" = the system's
	// temporary directory).
	Scratch string
}

// Result is what one scene did.
type Result struct {
	// Outputs are the files of the scene, one per factor.
	Outputs []string
	// Skipped reports that every output was already complete.
	Skipped bool
	// Pixels and Bytes count the output pixels and the bytes of the
	// output files written.
	Pixels, Bytes int64
	// Elapsed is the time the scene took.
	Elapsed time.Duration
	// Warnings are method.RenderFile's warnings.
	Warnings []string
}

// scaleLabel formats a factor for a file name: 4, 3.5, 2.25.
func scaleLabel(s float64) string { return strconv.FormatFloat(s, 'g', -1, 64) }

// outputPaths returns the outputs of the input in: OUTDIR/STEM_xS.EXT, the
// names `omnihsr upscale -scales ... -out OUTDIR/` gives.
func outputPaths(o Options, in string) []string {
	base := path.Base(filepath.ToSlash(in))
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if o.Ext != "" {
		ext = o.Ext
	} else if ext == "" || strings.EqualFold(ext, ".img") || strings.EqualFold(ext, ".dat") || strings.EqualFold(ext, ".raw") {
		ext = ".hdr"
	}
	paths := make([]string, len(o.Factors))
	for i, s := range o.Factors {
		paths[i] = joinPath(o.OutDir, stem+"_x"+scaleLabel(s)+ext)
	}
	return paths
}

// complete reports whether every file of the output path exists and, where
// the format has a header that says so and h >= 0, holds an h x w x b
// image. Outputs are published by a rename only when fully written, so an
// existing file is a complete one, unless something else cut or replaced
// it: an ENVI or NPY output is complete only when its header parses and
// its data is as long as the header says (a truncated .img, or an NPY file
// of garbage, is written again).
func complete(path string, h, w, b int) bool {
	for _, f := range formats.WriteFiles(path) {
		if st, err := os.Stat(f); err != nil || !st.Mode().IsRegular() {
			return false
		}
	}
	f, err := formats.ForWrite(path)
	if err != nil {
		return false
	}
	oh, ow, ob, ok := formats.Shape(path)
	switch f.Name {
	case "ENVI", "NPY":
		if !ok || !dataComplete(f.Name, path, oh, ow, ob) {
			return false
		}
	}
	if ok && h >= 0 {
		return oh == h && ow == w && ob == b
	}
	return true
}

// dataComplete reports whether the data of an ENVI or NPY file of h x w x
// b samples is as long as its header says.
func dataComplete(format, path string, h, w, b int) bool {
	n := int64(h) * int64(w) * int64(b)
	switch format {
	case "ENVI":
		_, _, _, _, info, err := envi.ReadHeader(path)
		if err != nil {
			return false
		}
		t, err := sample.ParseType(info.DataType)
		if err != nil {
			return false
		}
		var offset int64
		if _, rest, ok := strings.Cut(info.Detail, "header offset "); ok {
			if offset, err = strconv.ParseInt(strings.TrimRight(strings.Fields(rest)[0], ","), 10, 64); err != nil {
				return false
			}
		}
		_, data := envi.WritePaths(path)
		st, err := os.Stat(data)
		return err == nil && st.Size() == offset+n*int64(t.Size())
	case "NPY":
		start, elem, err := npyLayout(path)
		if err != nil {
			return false
		}
		st, err := os.Stat(path)
		return err == nil && st.Size() == start+n*elem
	}
	return true
}

// npyDescr finds the sample type of an NPY header: its size in bytes.
var npyDescr = regexp.MustCompile(`'descr'\s*:\s*'[<>|=]?[a-zA-Z](\d+)'`)

// npyLayout returns where the data of an NPY file starts and the size of
// its samples.
func npyLayout(path string) (start, elem int64, err error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	var pre [12]byte
	if _, err := io.ReadFull(f, pre[:10]); err != nil {
		return 0, 0, err
	}
	if string(pre[:6]) != "\x93NUMPY" {
		return 0, 0, errors.New("not an NPY file")
	}
	var hlen int64
	switch pre[6] {
	case 1:
		hlen, start = int64(binary.LittleEndian.Uint16(pre[8:10])), 10
	case 2, 3:
		if _, err := io.ReadFull(f, pre[10:12]); err != nil {
			return 0, 0, err
		}
		hlen, start = int64(binary.LittleEndian.Uint32(pre[8:12])), 12
	default:
		return 0, 0, fmt.Errorf("NPY version %d", pre[6])
	}
	if hlen > 1<<20 {
		return 0, 0, errors.New("NPY header too long")
	}
	hdr := make([]byte, hlen)
	if _, err := io.ReadFull(f, hdr); err != nil {
		return 0, 0, err
	}
	m := npyDescr.FindSubmatch(hdr)
	if m == nil {
		return 0, 0, errors.New("NPY header without a descr")
	}
	if elem, err = strconv.ParseInt(string(m[1]), 10, 64); err != nil || elem < 1 || elem > 16 {
		return 0, 0, fmt.Errorf("NPY descr size %s", m[1])
	}
	return start + hlen, elem, nil
}

// sizes returns the output size for each factor of an H x W input.
func sizes(in string, H, W int, factors []float64) ([][2]int, error) {
	out := make([][2]int, len(factors))
	for i, s := range factors {
		h, w := resample.UpSize(H, s), resample.UpSize(W, s)
		if h < 1 || w < 1 {
			return nil, fmt.Errorf("%s: %dx%d pixels times %g: the output side round(S*side) must be between 1 and 2^31", in, H, W, s)
		}
		out[i] = [2]int{h, w}
	}
	return out, nil
}

// loadModel returns the model of a method that needs one (nil otherwise).
func loadModel(o Options) (*model.Model, error) {
	m, err := method.Lookup(o.methodName())
	if err != nil || !m.Model {
		return nil, err
	}
	if o.Weights == "" {
		return model.Default()
	}
	return model.Load(o.Weights)
}

func (o Options) methodName() string {
	if o.Method == "" {
		return method.Default
	}
	return o.Method
}

// processScene super-resolves the scene in into its outputs, as `omnihsr
// upscale -in IN -scales F1,F2,... -out OUTDIR/` does, unless they are all
// complete already. mod is the model of a model method (loadModel). A
// remote scene is first copied to a local scratch directory (stage); remote
// outputs are written there and then copied to OUTDIR (publish), each ENVI
// data file before its header.
func processScene(ctx context.Context, in string, o Options, mod *model.Model) (Result, error) {
	if !isRemote(in) && !isRemote(o.OutDir) {
		return processLocal(in, o, mod)
	}
	start := time.Now()
	res := Result{Outputs: outputPaths(o, in)}
	// Skip without copying anything when every output exists.
	if isRemote(o.OutDir) {
		fsys, err := openFS(ctx, o.OutDir)
		if err != nil {
			return res, err
		}
		done := true
		for _, p := range res.Outputs {
			done = done && remoteComplete(ctx, fsys, p)
		}
		fsys.Close()
		if done {
			res.Skipped = true
			res.Elapsed = time.Since(start)
			return res, nil
		}
	} else {
		done := true
		for _, p := range res.Outputs {
			done = done && complete(p, -1, -1, -1)
		}
		if done {
			res.Skipped = true
			res.Elapsed = time.Since(start)
			return res, nil
		}
	}
	scratch, err := os.MkdirTemp(o.Scratch, "omnihsr-scene-")
	if err != nil {
		return res, fmt.Errorf("%s: scratch directory: %w", in, err)
	}
	defer removeOnSignal(scratch)()
	localIn := in
	if isRemote(in) {
		dir := filepath.Join(scratch, "in")
		if err := os.Mkdir(dir, 0o700); err != nil {
			return res, err
		}
		if localIn, err = stage(ctx, in, dir); err != nil {
			return res, err
		}
	}
	lo := o
	if isRemote(o.OutDir) {
		lo.OutDir = filepath.Join(scratch, "out")
		if err := os.Mkdir(lo.OutDir, 0o700); err != nil {
			return res, err
		}
	}
	lres, err := processLocal(localIn, lo, mod)
	if err != nil {
		// Name the scene and its outputs as the job knows them, not their
		// scratch copies.
		msg := err.Error()
		if localIn != in {
			msg = strings.ReplaceAll(msg, filepath.Dir(localIn)+string(filepath.Separator), joinPath(dirOf(in), ""))
		}
		if lo.OutDir != o.OutDir {
			msg = strings.ReplaceAll(msg, lo.OutDir+string(filepath.Separator), joinPath(o.OutDir, ""))
		}
		return res, errors.New(msg)
	}
	res.Pixels, res.Warnings = lres.Pixels, lres.Warnings
	if !isRemote(o.OutDir) {
		res.Bytes = lres.Bytes
	} else {
		for _, p := range lres.Outputs {
			files := formats.WriteFiles(p)
			slices.Reverse(files) // an ENVI header last
			for _, f := range files {
				st, err := os.Stat(f)
				if err != nil {
					return res, err
				}
				if err := publish(ctx, f, joinPath(o.OutDir, filepath.Base(f))); err != nil {
					return res, fmt.Errorf("%s: %w", in, err)
				}
				res.Bytes += st.Size()
			}
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}

// processLocal is processScene for a local scene and a local OUTDIR: the
// outputs are written in place, each to a temporary file renamed when
// complete.
func processLocal(in string, o Options, mod *model.Model) (Result, error) {
	start := time.Now()
	res := Result{Outputs: outputPaths(o, in)}
	m, err := method.Lookup(o.methodName())
	if err != nil {
		return res, err
	}
	var wo hsi.WriteOptions
	same := strings.EqualFold(o.Type, "same")
	if !same && o.Type != "" {
		if wo.DataType, err = sample.ParseType(o.Type); err != nil {
			return res, fmt.Errorf("-type %q: %w", o.Type, err)
		}
	}
	// A rerun skips a scene whose outputs are complete, from the headers
	// alone (the input is not read). Where the input's shape cannot be
	// known without reading it, an output that exists is complete.
	H, W, B, known := formats.Shape(in)
	var sz [][2]int
	if known {
		if sz, err = sizes(in, H, W, o.Factors); err != nil {
			return res, err
		}
	}
	done := true
	for i, p := range res.Outputs {
		if known {
			done = done && complete(p, sz[i][0], sz[i][1], B)
		} else {
			done = done && complete(p, -1, -1, -1)
		}
	}
	if done {
		res.Skipped = true
		res.Elapsed = time.Since(start)
		return res, nil
	}
	if known {
		outs := make([]formats.Output, len(sz))
		for i, p := range res.Outputs {
			outs[i] = formats.Output{Path: p, H: sz[i][0], W: sz[i][1], B: B, Opt: wo}
		}
		if err := formats.CheckOutputs(outs); err != nil {
			return res, err
		}
	}
	lr, info, err := formats.Read(in, hsi.ReadOptions{})
	if nf := (*hsi.NonFiniteError)(nil); errors.As(err, &nf) && lr != nil {
		err = nil // NaN is no-data; an infinite value stops the upscaling
	}
	if err != nil {
		return res, err
	}
	if same {
		t, err := sample.ParseType(info.DataType)
		if err != nil || info.DataType == "" {
			return res, fmt.Errorf("%s: -type same: the input's sample type %q cannot be written", in, info.DataType)
		}
		wo.DataType = t
	}
	if sz, err = sizes(in, lr.H, lr.W, o.Factors); err != nil {
		return res, err
	}
	r, err := m.Prepare(mod, lr)
	if err != nil {
		return res, fmt.Errorf("%s: %w", in, err)
	}
	for i, p := range res.Outputs {
		warn, err := method.RenderFile(r, lr, info, sz[i][0], sz[i][1], p, wo, nil)
		if err != nil {
			return res, fmt.Errorf("%s: %w", in, err)
		}
		res.Warnings = append(res.Warnings, warn...)
		res.Pixels += int64(sz[i][0]) * int64(sz[i][1])
		for _, f := range formats.WriteFiles(p) {
			if st, err := os.Stat(f); err == nil {
				res.Bytes += st.Size()
			}
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
