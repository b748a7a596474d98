package main

import (
	"fmt"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/adapt"
)

// TestAdaptHelpMatchesSettings: the figures `help upscale` gives for the
// fine-tune's gates are adapt.Default's.
func TestAdaptHelpMatchesSettings(t *testing.T) {
	help := strings.Join(strings.Fields(upscaleCmd.usage), " ")
	st := adapt.Default
	want := fmt.Sprintf("a fine-tune is tried only on a reduced input of at least %d x %d pixels with at least %d bands", st.TuneMinCheck, st.TuneMinCheck, st.TuneMinBands)
	if !strings.Contains(help, want) {
		t.Errorf("help upscale does not say %q", want)
	}
}
