package model

import (
	_ "embed"
	"sync"

	"github.com/omnihsr/omnihsr/nn"
)

// defaultWeights is the model shipped inside the binary (weights/default.omw;
// its model card is weights/README.md).
//
//go:embed weights/default.omw
var defaultWeights []byte

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultErr   error
)

// Default returns the embedded default model. Callers share one instance;
// inference does not modify it.
func Default() (*Model, error) {
	defaultOnce.Do(func() {
		if len(defaultWeights) == 0 {
			defaultErr = ErrNoDefault
			return
		}
		f, err := nn.DecodeCheckpoint(defaultWeights, "embedded default model")
		if err != nil {
			defaultErr = err
			return
		}
		defaultModel, defaultErr = FromCheckpoint(f)
	})
	return defaultModel, defaultErr
}

// DefaultMeta returns the training metadata stored with the embedded model.
func DefaultMeta() []byte {
	f, err := nn.DecodeCheckpoint(defaultWeights, "embedded default model")
	if err != nil {
		return nil
	}
	return f.Meta
}
