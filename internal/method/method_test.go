package method

import (
	"strings"
	"testing"
)

func TestLookup(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		ok         bool
	}{
		{"omnihsr", "omnihsr", true},
		{" OmniHSR-SE ", "omnihsr-se", true},
		{"BICUBIC", "bicubic", true},
		{"omnihsr-bp", "omnihsr-bp", true},
		{"nearest", "", false},
		{"", "", false},
	} {
		m, err := Lookup(tc.name)
		if (err == nil) != tc.ok || m.Name != tc.want {
			t.Errorf("Lookup(%q) = %q, %v", tc.name, m.Name, err)
		}
		if err != nil && !strings.Contains(err.Error(), "bicubic, omnihsr, omnihsr-bp, omnihsr-se") {
			t.Errorf("Lookup(%q): error %q does not list the methods", tc.name, err)
		}
	}
	if _, err := Lookup(Default); err != nil {
		t.Errorf("the default method %q is not registered", Default)
	}
	for _, m := range All() {
		if m.Doc == "" || m.Ensemble > 0 && m.BackProject > 0 || !m.Model && (m.Ensemble > 0 || m.BackProject > 0) {
			t.Errorf("method %+v: no doc, or options that do not combine", m)
		}
	}
}
