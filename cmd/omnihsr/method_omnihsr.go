package main

import (
	"github.com/omnihsr/omnihsr/eval"
	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/model"
)

// evalWeights is the weight file of `omnihsr eval -weights` ("" = default).
var evalWeights string

// omnihsrMethod is the OmniHSR model as an evaluation method. A weight
// file of an ablation variant (model.Config.Variant) is labelled
// "OmniHSR-VARIANT" so that its rows are never mistaken for the model's.
type omnihsrMethod struct{ m *model.Model }

func (o omnihsrMethod) Name() string {
	if v := o.m.Cfg.Variant; v != model.VariantOmniHSR {
		return "OmniHSR-" + v
	}
	return "OmniHSR"
}

func (o omnihsrMethod) Upscale(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	return o.m.Upscale(lr, h, w)
}

func init() {
	eval.Register("omnihsr", func() (eval.Method, error) {
		m, err := loadModel(evalWeights)
		if err != nil {
			return nil, err
		}
		return omnihsrMethod{m}, nil
	})
}
