package eval

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/resample"
)

// Method is a super-resolution method under evaluation.
type Method interface {
	// Name is the label of the method in tables and JSON (e.g. "Bicubic").
	Name() string
	// Upscale returns an outH x outW cube with the bands of lr. It must not
	// modify lr, and it may be called from several goroutines at once.
	Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error)
}

// BicubicName is the name of the bicubic baseline, which every evaluation
// runs next to the other methods (SPEC section 4).
const BicubicName = "Bicubic"

// Bicubic is the baseline: PyTorch's bicubic interpolation U_s
// (align_corners=False, a = -0.75, replicate border).
type Bicubic struct{}

// Name returns "Bicubic".
func (Bicubic) Name() string { return BicubicName }

// Upscale is resample.Upsample.
func (Bicubic) Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error) {
	return resample.Upsample(lr, outH, outW)
}

// Factory builds a method for the registry.
type Factory func() (Method, error)

var (
	regMu    sync.Mutex
	registry = map[string]Factory{}
)

func init() {
	Register("bicubic", func() (Method, error) { return Bicubic{}, nil })
}

// Register makes a method available to Lookup (and to `omnihsr eval
// -methods NAME`) under a case-insensitive name. Registering a name twice
// panics: it is a programming error.
func Register(name string, f Factory) {
	key := strings.ToLower(strings.TrimSpace(name))
	regMu.Lock()
	defer regMu.Unlock()
	if key == "" || f == nil {
		panic("eval: Register with an empty name or nil factory")
	}
	if _, dup := registry[key]; dup {
		panic("eval: method registered twice: " + key)
	}
	registry[key] = f
}

// Lookup builds the registered method called name (case-insensitive).
func Lookup(name string) (Method, error) {
	key := strings.ToLower(strings.TrimSpace(name))
	regMu.Lock()
	f, ok := registry[key]
	regMu.Unlock()
	if !ok {
		return nil, fmt.Errorf("eval: unknown method %q (known: %s)", name, strings.Join(MethodNames(), ", "))
	}
	m, err := f()
	if err != nil {
		return nil, fmt.Errorf("eval: method %s: %w", key, err)
	}
	return m, nil
}

// MethodNames lists the registered method names, sorted.
func MethodNames() []string {
	regMu.Lock()
	defer regMu.Unlock()
	out := make([]string, 0, len(registry))
	for k := range registry {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// MethodFunc adapts a function to the Method interface (tests, ablations).
type MethodFunc struct {
	Label string
	Fn    func(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error)
}

// Name returns m.Label.
func (m MethodFunc) Name() string { return m.Label }

// Upscale calls m.Fn.
func (m MethodFunc) Upscale(lr *hsi.Cube, outH, outW int) (*hsi.Cube, error) {
	return m.Fn(lr, outH, outW)
}
