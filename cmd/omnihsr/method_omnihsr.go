package main

import (
	"github.com/omnihsr/omnihsr/eval"
	"github.com/omnihsr/omnihsr/model"
	"github.com/omnihsr/omnihsr/report"
)

// evalWeights is the weight file of `omnihsr eval -weights` ("" = default).
var evalWeights string

// The OmniHSR model as an evaluation method (report.Method): a weight file
// of an ablation variant (model.Config.Variant) is labelled
// "OmniHSR-VARIANT" so that its rows are never mistaken for the model's.
// "omnihsr-se" is the same model with the self-ensemble over the 8 flips
// and rotations of the input (labelled "OmniHSR+SE8"; 8x the time);
// "omnihsr-bp" adds one back-projection step onto the input (labelled
// "OmniHSR+BP").
func init() {
	for name, method := range map[string]report.Method{
		"omnihsr":    {},
		"omnihsr-se": {Ensemble: 8},
		"omnihsr-bp": {BackProject: model.BackProjectSteps},
	} {
		eval.Register(name, func() (eval.Method, error) {
			m, err := loadModel(evalWeights)
			if err != nil {
				return nil, err
			}
			mm := method
			mm.M = m
			return mm, nil
		})
	}
}
