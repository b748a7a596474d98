package eval

import (
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/method"
	"github.com/omnihsr/omnihsr/internal/model"
)

// Of returns the registry's method mt as an evaluation method running the
// model m (m is not used by bicubic and may be nil there).
func Of(mt method.Method, m *model.Model) (Method, error) {
	if !mt.Model {
		return Bicubic{}, nil
	}
	if m == nil {
		return nil, fmt.Errorf("method %s: no model", mt.Name)
	}
	return OmniHSR{M: m, Ensemble: mt.Ensemble, BackProject: mt.BackProject}, nil
}

// Named looks up the registry's method called name (method.Lookup) and
// returns it as an evaluation method running the model m (see Of).
func Named(name string, m *model.Model) (Method, error) {
	mt, err := method.Lookup(name)
	if err != nil {
		return nil, err
	}
	return Of(mt, m)
}

// OmniHSR is an OmniHSR model as an evaluation method. A model of an
// ablation variant is labelled "OmniHSR-VARIANT". Ensemble > 0 runs the
// self-ensemble of that many orientations (model.EnsembleSizes), labelled
// "+SEn". BackProject > 0 adds that many back-projection steps
// (model.BackProjected), labelled "+BP".
type OmniHSR struct {
	M           *model.Model
	Ensemble    int
	BackProject int
}

// Name is "OmniHSR" (or "OmniHSR-VARIANT"), with "+SEn" for an ensemble
// and "+BP" with back-projection.
func (o OmniHSR) Name() string {
	n := "OmniHSR"
	if v := o.M.Cfg.Variant; v != model.VariantOmniHSR {
		n += "-" + v
	}
	if o.Ensemble > 0 {
		n += fmt.Sprintf("+SE%d", o.Ensemble)
	}
	if o.BackProject > 0 {
		n += "+BP"
	}
	return n
}

// Upscale runs the model.
func (o OmniHSR) Upscale(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	switch {
	case o.Ensemble > 0 && o.BackProject > 0:
		return nil, fmt.Errorf("method: %s: the self-ensemble and back-projection are not combined", o.Name())
	case o.Ensemble > 0:
		return o.M.UpscaleEnsemble(lr, h, w, o.Ensemble)
	case o.BackProject > 0:
		return o.M.UpscaleBackProjected(lr, h, w, o.BackProject)
	}
	return o.M.Upscale(lr, h, w)
}
