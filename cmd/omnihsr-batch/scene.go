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

	"github.com/omnihsr/omnihsr"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/envi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/hsi/sample"
	"github.com/omnihsr/omnihsr/internal/opttext"
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
	// Adapt is per-scene adaptation (omnihsr.Options.Adapt): 0 off,
	// omnihsr.AdaptAuto, or a step count.
	Adapt int
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
	// Files are what writing each output reported (omnihsr.Result.Files),
	// warnings included.
	Files []omnihsr.FileReport
}

// outputPattern returns the pattern of the outputs of the input in,
// OUTDIR/STEM_x{scale}.EXT, which omnihsr.UpscaleFile expands as `omnihsr
// upscale -scales ... -out OUTDIR/` names its outputs (Options.Scales).
func outputPattern(o Options, in string) string {
	base := path.Base(filepath.ToSlash(in))
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if o.Ext != "" {
		ext = o.Ext
	} else if ext == "" || strings.EqualFold(ext, ".img") || strings.EqualFold(ext, ".dat") || strings.EqualFold(ext, ".raw") {
		ext = ".hdr"
	}
	return joinPath(o.OutDir, stem+"_x{scale}"+ext)
}

// outputPaths returns the outputs of the input in, one per factor: its
// outputPattern expanded.
func outputPaths(o Options, in string) []string {
	pattern := outputPattern(o, in)
	paths := make([]string, len(o.Factors))
	for i, s := range o.Factors {
		paths[i] = opttext.ExpandScale(pattern, s)
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
	oh, ow, ob, ok := headerShape(path)
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

// headerShape returns the rows, columns and bands of an ENVI, NPY or PNG
// image from its header (formats.Open reads no sample of a streamed
// format); ok is false for the other formats, read whole by Open, and when
// the header cannot be read.
func headerShape(path string) (h, w, b int, ok bool) {
	f, err := formats.ForRead(path)
	if err != nil || (f.Name != "ENVI" && f.Name != "NPY" && f.Name != "PNG") {
		return 0, 0, 0, false
	}
	src, err := formats.Open(path, hsi.ReadOptions{})
	if err != nil {
		return 0, 0, 0, false
	}
	hd := src.Header()
	src.Close()
	return hd.H, hd.W, hd.B, true
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

// processScene super-resolves the scene in into its outputs, as `omnihsr
// upscale -in IN -scales F1,F2,... -out OUTDIR/` does (omnihsr.UpscaleFile),
// unless they are all complete already. A remote scene is first copied to a local scratch directory (stage); remote
// outputs are written there and then copied to OUTDIR (publish), each ENVI
// data file before its header.
func processScene(ctx context.Context, in string, o Options) (Result, error) {
	if !isRemote(in) && !isRemote(o.OutDir) {
		return processLocal(ctx, in, o)
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
	lres, err := processLocal(ctx, localIn, lo)
	if err != nil {
		// Name the scene and its outputs as the job knows them, not their
		// scratch copies, keeping the error's chain.
		msg := err.Error()
		if localIn != in {
			msg = strings.ReplaceAll(msg, filepath.Dir(localIn)+string(filepath.Separator), joinPath(dirOf(in), ""))
		}
		if lo.OutDir != o.OutDir {
			msg = strings.ReplaceAll(msg, lo.OutDir+string(filepath.Separator), joinPath(o.OutDir, ""))
		}
		return res, &renamedError{msg, err}
	}
	res.Pixels, res.Files = lres.Pixels, lres.Files
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

// renamedError is an error whose message names the remote scene and
// outputs instead of their scratch copies; errors.Is and errors.As see
// the error it renames.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// processLocal is processScene for a local scene and a local OUTDIR: the
// outputs are written in place by omnihsr.UpscaleFile, each to a
// temporary file renamed when complete.
func processLocal(ctx context.Context, in string, o Options) (Result, error) {
	start := time.Now()
	res := Result{Outputs: outputPaths(o, in)}
	// A rerun skips a scene whose outputs are complete, from the headers
	// alone (the input is not read). Where the input's shape cannot be
	// known without reading it, an output that exists is complete.
	H, W, B, known := headerShape(in)
	done := true
	for i, p := range res.Outputs {
		if !known {
			done = done && complete(p, -1, -1, -1)
			continue
		}
		s := o.Factors[i]
		done = done && complete(p, resample.UpSize(H, s), resample.UpSize(W, s), B)
	}
	if done {
		res.Skipped = true
		res.Elapsed = time.Since(start)
		return res, nil
	}
	typ, same, err := hsi.ParseDataType(o.Type)
	if err != nil {
		return res, fmt.Errorf("%w: -type %q: %v", omnihsr.ErrOption, o.Type, err)
	}
	opt := omnihsr.Options{Scales: o.Factors, Method: omnihsr.Method(o.Method), Weights: o.Weights, Type: typ, SameType: same, Adapt: o.Adapt}
	up, err := omnihsr.UpscaleFile(ctx, in, outputPattern(o, in), opt)
	if err != nil {
		return res, err
	}
	res.Files = up.Files
	for _, f := range up.Files {
		res.Pixels += int64(f.Height) * int64(f.Width)
		for _, name := range formats.WriteFiles(f.Path) {
			if st, err := os.Stat(name); err == nil {
				res.Bytes += st.Size()
			}
		}
	}
	res.Elapsed = time.Since(start)
	return res, nil
}
