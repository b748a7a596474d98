package nn

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/omnihsr/omnihsr/internal/atomicfile"
	"github.com/omnihsr/omnihsr/internal/regfile"
)

// Checkpoint container, version 1 (all integers little-endian):
//
//	magic   8 bytes  "\x89OMNIHSR"
//	version uint32   1
//	hlen    uint32   length of the JSON header
//	header  hlen bytes of JSON (checkpointHeader)
//	payload float32 values of every tensor, at the byte offsets the header gives
//	crc     uint32   CRC-32C (Castagnoli) of every byte before it
//
// A full checkpoint holds the weights, Adam's moments ("adam.m/NAME",
// "adam.v/NAME") and step, the model configuration and training metadata
// (opaque JSON) and the trainer's opaque Extra bytes. A weights-only file
// (by convention *.omw) is the same container without optimizer state.

const (
	ckptMagic   = "\x89OMNIHSR"
	ckptVersion = 1
	// maxHeader bounds the JSON header so that a corrupt length cannot make
	// the reader allocate without limit.
	maxHeader = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Checkpoint is what Save writes.
type Checkpoint struct {
	Config json.RawMessage // model configuration (the caller's JSON; may be nil)
	Meta   json.RawMessage // training metadata (the caller's JSON; may be nil)
	Extra  []byte          // opaque trainer state (RNG, data sampler)
	Params []Param         // the weights, by name
	Opt    *Adam           // optimizer state; nil writes a weights-only file
}

type checkpointHeader struct {
	Kind         string          `json:"kind"` // "checkpoint" or "weights"
	Config       json.RawMessage `json:"config,omitempty"`
	Meta         json.RawMessage `json:"meta,omitempty"`
	Optimizer    *adamHeader     `json:"optimizer,omitempty"`
	Extra        []byte          `json:"extra,omitempty"`
	Tensors      []tensorEntry   `json:"tensors"`
	PayloadBytes int64           `json:"payload_bytes"`
}

type adamHeader struct {
	Name  string  `json:"name"`
	Beta1 float64 `json:"beta1"`
	Beta2 float64 `json:"beta2"`
	Eps   float64 `json:"eps"`
	Step  int     `json:"step"`
}

type tensorEntry struct {
	Name   string `json:"name"`
	Shape  [4]int `json:"shape"`
	Offset int64  `json:"offset"` // bytes from the start of the payload
}

const (
	adamM = "adam.m/"
	adamV = "adam.v/"
)

// Save writes the checkpoint to path atomically (a temporary file renamed
// into place: an interrupted save leaves the previous file intact).
func (c *Checkpoint) Save(path string) error {
	if err := atomicfile.Write(path, c.Encode); err != nil {
		return fmt.Errorf("nn: save checkpoint %s: %w", path, err)
	}
	return nil
}

// Encode writes the checkpoint container to w.
func (c *Checkpoint) Encode(w io.Writer) error {
	type blob struct {
		e    tensorEntry
		data []float32
	}
	var blobs []blob
	seen := map[string]bool{}
	var off int64
	add := func(name string, t *Tensor, data []float32) error {
		if name == "" || seen[name] {
			return fmt.Errorf("nn: checkpoint: empty or duplicate tensor name %q", name)
		}
		seen[name] = true
		blobs = append(blobs, blob{tensorEntry{name, t.Shape(), off}, data})
		off += 4 * int64(len(data))
		return nil
	}
	for _, p := range c.Params {
		if err := add(p.Name, p.T, p.T.Data); err != nil {
			return err
		}
	}
	h := checkpointHeader{Kind: "weights", Config: c.Config, Meta: c.Meta, Extra: c.Extra}
	if c.Opt != nil {
		h.Kind = "checkpoint"
		h.Optimizer = &adamHeader{"adam", c.Opt.Beta1, c.Opt.Beta2, c.Opt.Eps, c.Opt.StepCount}
		for i, p := range c.Opt.Params {
			if err := add(adamM+p.Name, p.T, c.Opt.M[i]); err != nil {
				return err
			}
			if err := add(adamV+p.Name, p.T, c.Opt.V[i]); err != nil {
				return err
			}
		}
	}
	for _, b := range blobs {
		h.Tensors = append(h.Tensors, b.e)
	}
	h.PayloadBytes = off
	hj, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("nn: checkpoint header: %w", err)
	}
	crc := crc32.New(castagnoli)
	mw := io.MultiWriter(w, crc)
	var pre [16]byte
	copy(pre[:8], ckptMagic)
	binary.LittleEndian.PutUint32(pre[8:], ckptVersion)
	binary.LittleEndian.PutUint32(pre[12:], uint32(len(hj)))
	if _, err := mw.Write(pre[:]); err != nil {
		return err
	}
	if _, err := mw.Write(hj); err != nil {
		return err
	}
	buf := make([]byte, 0, 1<<16)
	for _, b := range blobs {
		for _, v := range b.data {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
			if len(buf) == cap(buf) {
				if _, err := mw.Write(buf); err != nil {
					return err
				}
				buf = buf[:0]
			}
		}
	}
	if _, err := mw.Write(buf); err != nil {
		return err
	}
	var tail [4]byte
	binary.LittleEndian.PutUint32(tail[:], crc.Sum32())
	_, err = w.Write(tail[:])
	return err
}

// CheckpointFile is a decoded checkpoint or weights file.
type CheckpointFile struct {
	Name   string          // file name, for messages
	Kind   string          // "checkpoint" or "weights"
	Config json.RawMessage // as saved
	Meta   json.RawMessage // as saved
	Extra  []byte          // as saved
	Step   int             // optimizer steps taken (0 in a weights file)

	opt     *adamHeader
	order   []string
	tensors map[string]storedTensor
}

type storedTensor struct {
	shape [4]int
	data  []float32
}

// MaxCheckpointBytes bounds the size of a checkpoint or weights file read
// whole (the shipped weights take 2 MiB, a training checkpoint with its
// Adam moments about three times its weights).
const MaxCheckpointBytes = 1 << 30

// ReadCheckpoint reads and checks a checkpoint or weights file: a regular
// file of at most MaxCheckpointBytes (a directory, FIFO or device is
// refused before anything is read).
func ReadCheckpoint(path string) (*CheckpointFile, error) {
	data, err := regfile.ReadFile(path, MaxCheckpointBytes, "a weight or checkpoint file")
	if err != nil {
		return nil, fmt.Errorf("nn: read checkpoint: %w", err)
	}
	return DecodeCheckpoint(data, path)
}

// DecodeCheckpoint decodes a checkpoint held in memory (e.g. embedded in
// the binary); name is used in error messages.
func DecodeCheckpoint(data []byte, name string) (*CheckpointFile, error) {
	fail := func(format string, a ...any) (*CheckpointFile, error) {
		return nil, fmt.Errorf("nn: checkpoint %s: %s", name, fmt.Sprintf(format, a...))
	}
	if len(data) < 8 || string(data[:8]) != ckptMagic {
		return fail("not an OmniHSR checkpoint (bad magic number)")
	}
	if len(data) < 16 {
		return fail("truncated: %d bytes, shorter than the 16-byte preamble", len(data))
	}
	if v := binary.LittleEndian.Uint32(data[8:]); v != ckptVersion {
		return fail("format version %d, this program reads version %d", v, ckptVersion)
	}
	hlen := int64(binary.LittleEndian.Uint32(data[12:]))
	if hlen > maxHeader {
		return fail("header length %d is implausible (corrupt file?)", hlen)
	}
	if int64(len(data)) < 16+hlen {
		return fail("truncated: header of %d bytes, file has %d bytes after the preamble", hlen, len(data)-16)
	}
	var h checkpointHeader
	dec := json.NewDecoder(bytes.NewReader(data[16 : 16+hlen]))
	if err := dec.Decode(&h); err != nil {
		return fail("bad header: %v", err)
	}
	if h.PayloadBytes < 0 || h.PayloadBytes%4 != 0 {
		return fail("bad payload size %d", h.PayloadBytes)
	}
	want := 16 + hlen + h.PayloadBytes + 4
	if int64(len(data)) < want {
		return fail("truncated: %d bytes, the header describes %d", len(data), want)
	}
	if int64(len(data)) > want {
		return fail("%d unexpected bytes after the end of the checkpoint", int64(len(data))-want)
	}
	body := data[:want-4]
	if got, sum := crc32.Checksum(body, castagnoli), binary.LittleEndian.Uint32(data[want-4:]); got != sum {
		return fail("corrupt: checksum mismatch (stored %08x, computed %08x)", sum, got)
	}
	if h.Kind != "checkpoint" && h.Kind != "weights" {
		return fail("unknown kind %q", h.Kind)
	}
	if (h.Kind == "checkpoint") != (h.Optimizer != nil) {
		return fail("kind %q does not match the optimizer state present", h.Kind)
	}
	f := &CheckpointFile{Name: name, Kind: h.Kind, Config: h.Config, Meta: h.Meta, Extra: h.Extra,
		opt: h.Optimizer, tensors: map[string]storedTensor{}}
	if h.Optimizer != nil {
		f.Step = h.Optimizer.Step
	}
	payload := data[16+hlen : want-4]
	for _, e := range h.Tensors {
		n := int64(1)
		for _, d := range e.Shape {
			if d < 0 || d > 1<<31 {
				return fail("tensor %q has a bad shape %v", e.Name, e.Shape)
			}
			n *= int64(d)
		}
		if e.Offset < 0 || e.Offset%4 != 0 || e.Offset+4*n > int64(len(payload)) {
			return fail("tensor %q (shape %v, offset %d) lies outside the %d-byte payload", e.Name, e.Shape, e.Offset, len(payload))
		}
		if _, dup := f.tensors[e.Name]; dup {
			return fail("duplicate tensor %q", e.Name)
		}
		vals := make([]float32, n)
		raw := payload[e.Offset : e.Offset+4*n]
		for i := range vals {
			vals[i] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		f.tensors[e.Name] = storedTensor{e.Shape, vals}
		f.order = append(f.order, e.Name)
	}
	return f, nil
}

// Names lists the tensors in the file, in file order.
func (f *CheckpointFile) Names() []string { return append([]string(nil), f.order...) }

// HasOptimizer reports whether the file holds optimizer state.
func (f *CheckpointFile) HasOptimizer() bool { return f.opt != nil }

// Tensor returns a stored tensor's shape and values.
func (f *CheckpointFile) Tensor(name string) (shape [4]int, data []float32, ok bool) {
	t, ok := f.tensors[name]
	return t.shape, t.data, ok
}

// LoadParams copies the stored weights into ps. Every parameter must be in
// the file with the same shape, and the file must hold no other weights:
// any difference is an error naming the tensors, and nothing is copied.
func (f *CheckpointFile) LoadParams(ps []Param) error {
	var missing, badShape []string
	want := map[string]bool{}
	for _, p := range ps {
		want[p.Name] = true
		t, ok := f.tensors[p.Name]
		if !ok {
			missing = append(missing, p.Name)
			continue
		}
		if t.shape != p.T.Shape() {
			badShape = append(badShape, fmt.Sprintf("%s: file %v, model %v", p.Name, t.shape, p.T.Shape()))
		}
	}
	var extra []string
	for _, n := range f.order {
		if !strings.HasPrefix(n, adamM) && !strings.HasPrefix(n, adamV) && !want[n] {
			extra = append(extra, n)
		}
	}
	var errs []error
	if len(missing) > 0 {
		errs = append(errs, fmt.Errorf("missing tensor(s) %s", list(missing)))
	}
	if len(badShape) > 0 {
		errs = append(errs, fmt.Errorf("shape mismatch: %s", list(badShape)))
	}
	if len(extra) > 0 {
		errs = append(errs, fmt.Errorf("tensor(s) the model does not have: %s", list(extra)))
	}
	if len(errs) > 0 {
		return fmt.Errorf("nn: checkpoint %s: %w", f.Name, errors.Join(errs...))
	}
	for _, p := range ps {
		copy(p.T.Data, f.tensors[p.Name].data)
	}
	return nil
}

// LoadAdam restores the optimizer's moments, step and hyper-parameters.
// a must be built over parameters with the names and shapes that were
// saved.
func (f *CheckpointFile) LoadAdam(a *Adam) error {
	if f.opt == nil {
		return fmt.Errorf("nn: checkpoint %s: a weights-only file has no optimizer state", f.Name)
	}
	if f.opt.Name != "adam" {
		return fmt.Errorf("nn: checkpoint %s: optimizer %q, want adam", f.Name, f.opt.Name)
	}
	for _, p := range a.Params {
		for _, pre := range []string{adamM, adamV} {
			t, ok := f.tensors[pre+p.Name]
			if !ok {
				return fmt.Errorf("nn: checkpoint %s: missing optimizer tensor %q", f.Name, pre+p.Name)
			}
			if t.shape != p.T.Shape() {
				return fmt.Errorf("nn: checkpoint %s: optimizer tensor %q has shape %v, model %v", f.Name, pre+p.Name, t.shape, p.T.Shape())
			}
		}
	}
	for i, p := range a.Params {
		copy(a.M[i], f.tensors[adamM+p.Name].data)
		copy(a.V[i], f.tensors[adamV+p.Name].data)
	}
	a.Beta1, a.Beta2, a.Eps, a.StepCount = f.opt.Beta1, f.opt.Beta2, f.opt.Eps, f.opt.Step
	return nil
}

func list(s []string) string {
	sort.Strings(s)
	if len(s) > 8 {
		return strings.Join(s[:8], ", ") + fmt.Sprintf(" and %d more", len(s)-8)
	}
	return strings.Join(s, ", ")
}
