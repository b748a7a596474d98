package model

import (
	"crypto/sha256"
	_ "embed"
	"sync"

	"github.com/omnihsr/omnihsr/internal/nn"
)

// defaultWeights is the model shipped inside the binary (weights/default.omw;
// its model card is weights/README.md).
//
//go:embed weights/default.omw
var defaultWeights []byte

// noiseWeights is the noise-aware companion of the default model
// (weights/noise.omw, same model card): trained with synthetic sensor noise
// on its inputs and the noise level as an input, it renders the inputs whose
// estimated noise feature is above its configuration's NoiseGate.
//
//go:embed weights/noise.omw
var noiseWeights []byte

var (
	defaultOnce  sync.Once
	defaultModel *Model
	defaultErr   error
)

// Default returns the embedded default model with its noise-aware
// companion attached (WithNoisy): clean inputs are rendered by the model
// itself, noisy ones by the companion. Callers share one instance;
// inference does not modify it.
func Default() (*Model, error) {
	defaultOnce.Do(func() {
		if len(defaultWeights) == 0 {
			defaultErr = ErrNoDefault
			return
		}
		m, err := decodeEmbedded(defaultWeights, "embedded default model")
		if err != nil {
			defaultErr = err
			return
		}
		n, err := decodeEmbedded(noiseWeights, "embedded noise-aware model")
		if err != nil {
			defaultErr = err
			return
		}
		defaultModel, defaultErr = m.WithNoisy(n, n.Cfg.NoiseGate)
	})
	return defaultModel, defaultErr
}

func decodeEmbedded(b []byte, name string) (*Model, error) {
	f, err := nn.DecodeCheckpoint(b, name)
	if err != nil {
		return nil, err
	}
	return FromCheckpoint(f)
}

// DefaultMeta returns the training metadata stored with the embedded model.
func DefaultMeta() []byte {
	f, err := nn.DecodeCheckpoint(defaultWeights, "embedded default model")
	if err != nil {
		return nil
	}
	return f.Meta
}

// WeightFile is a weight file embedded in the binary and its SHA-256.
type WeightFile struct {
	Name   string // the file's name in internal/model/weights
	SHA256 [32]byte
}

// EmbeddedWeights lists the weight files embedded in the binary (the
// default model, then its noise-aware companion) with their SHA-256, which
// equal `sha256sum internal/model/weights/*.omw` of the source tree it was built
// from.
func EmbeddedWeights() []WeightFile {
	return []WeightFile{
		{"default.omw", sha256.Sum256(defaultWeights)},
		{"noise.omw", sha256.Sum256(noiseWeights)},
	}
}
