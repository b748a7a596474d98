package eval

import (
	"context"
	"fmt"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/adapt"
	"github.com/omnihsr/omnihsr/internal/model"
)

// AdaptName is the label of Adapted with the step count of `-adapt auto`.
const AdaptName = "OmniHSR+adapt"

// The notes of Adapted (Record.Note): what per-scene adaptation did.
const (
	NoteAdapted  = "adapted"     // the check kept the copy fine-tuned on the input
	NoteRouted   = "routed"      // the check chose the other member of the model pair, not the fine-tune
	NoteCheckNo  = "check: no"   // the check refused: the shipped model renders
	NoteTooSmall = "too small"   // the input is too small for the check, or to judge a fine-tune: the shipped model renders
	NoteOff      = "off"         // Steps 0: adaptation off
	NoteNone     = "not checked" // a constant input: the shipped model renders
)

// Adapted is the model with per-scene adaptation (package adapt) as
// `omnihsr upscale -adapt` runs it: adapt.Run on the low-resolution input
// for the effective factor of the output, then the model it returns
// renders. Steps is the step count (adapt.Auto for `auto`). Its note is
// one of the Note constants.
type Adapted struct {
	M     *model.Model
	Steps int
}

// Name is AdaptName for `auto`, else "OmniHSR+adaptN".
func (a Adapted) Name() string {
	if a.Steps == adapt.Auto {
		return AdaptName
	}
	return fmt.Sprintf("OmniHSR+adapt%d", a.Steps)
}

// Upscale is UpscaleNote without a context and a note.
func (a Adapted) Upscale(lr *hsi.Cube, h, w int) (*hsi.Cube, error) {
	out, _, err := a.UpscaleNote(context.Background(), lr, h, w)
	return out, err
}

// UpscaleNote adapts the model to lr, renders, and says what adaptation did.
func (a Adapted) UpscaleNote(ctx context.Context, lr *hsi.Cube, h, w int) (*hsi.Cube, string, error) {
	m, rep, err := adapt.Run(ctx, a.M, lr, adapt.Options{Steps: a.Steps, Factor: model.EffectiveFactor(lr.H, lr.W, h, w)})
	if err != nil {
		return nil, "", err
	}
	out, err := m.Upscale(lr, h, w)
	if err != nil {
		return nil, "", err
	}
	if a.Steps == 0 {
		return out, NoteOff, nil
	}
	return out, AdaptNote(rep), nil
}

// AdaptNote is the note of an adaptation report.
func AdaptNote(rep adapt.Report) string {
	switch {
	case rep.Choice == "adapted":
		return NoteAdapted
	case rep.Choice == "other":
		return NoteRouted
	case rep.TooSmall:
		return NoteTooSmall
	case rep.Check == "":
		return NoteNone
	}
	return NoteCheckNo
}
