package capi

import (
	"errors"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/internal/memlimit"
)

// Issue 39, the C ABI's poorly handled options: "scale": "nan" was
// refused as a string although strings are the documented form of
// non-finite numbers; "size": [1, 2, 3] dropped a value; output_size took
// any size; each is now an option error naming the option.
func TestHostileOptions(t *testing.T) {
	for _, tc := range []struct{ json, want string }{
		{`{"scale": "nan"}`, "scale NaN: want a finite number > 0"},
		{`{"scale": "inf"}`, "scale +Inf: want a finite number > 0"},
		{`{"size": [1, 2, 3]}`, "size: 3 values; want two"},
		{`{"size": [5]}`, "size: 1 values; want two"},
		{`{"size": [3000000000, 4]}`, "size 3000000000x4: want a height and width between 1 and 2^31-1"},
	} {
		_, _, err := OutputSize(4, 4, tc.json)
		if StatusOf(err) != StatusOption || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v (status %d); want an option error with %q", tc.json, err, StatusOf(err), tc.want)
		}
	}
	if o, _, err := parseOptions(`{"scales": ["2", 3.5]}`); err != nil || len(o.Scales) != 2 || o.Scales[0] != 2 {
		t.Errorf(`"scales": ["2", 3.5]: %v, %v`, o.Scales, err)
	}
}

// Issue 39: a 64 MiB option string was echoed whole into the last error.
// Options over 4 MiB are refused unread; a message kept is bounded, and
// says how much was cut.
func TestErrorBounded(t *testing.T) {
	huge := `{"` + strings.Repeat("x", 64<<20) + `": 1}`
	_, _, err := parseOptions(huge)
	if StatusOf(err) != StatusOption || len(err.Error()) > 200 || !strings.Contains(err.Error(), "more than the 4 MiB options may take") {
		t.Errorf("64 MiB of options: %.300v", err)
	}
	_, _, err = parseOptions(`{"` + strings.Repeat("x", 1<<20) + `": 1}`)
	if err == nil {
		t.Fatal("a 1 MiB unknown key accepted")
	}
	msg := BoundError(err.Error())
	if len(msg) > maxErrorBytes+64 || !strings.Contains(msg, "more bytes cut)") || !strings.HasPrefix(msg, "libomnihsr: invalid option") {
		t.Errorf("kept %d bytes: %.200q", len(msg), msg)
	}
	if m := BoundError("short é"); m != "short é" {
		t.Errorf("short message changed: %q", m)
	}
	cut := BoundError(strings.Repeat("é", maxErrorBytes)) // 2 bytes each: cut inside one
	if !strings.HasPrefix(cut, strings.Repeat("é", maxErrorBytes/2)+"...") {
		t.Errorf("cut not at a character boundary: %.40q", cut[maxErrorBytes-8:])
	}
}

// Issue 39, failure 2: the memory check counts the caller's buffer too:
// the library renders the output, then copies it into the caller's (or its
// own malloc'd) buffer, so an output that fits once but not twice is
// refused before any work.
func TestArrayOutputCountsTheCallersBuffer(t *testing.T) {
	const h, w, b = 100, 100, 3 // 120000 bytes of float32
	t.Setenv(memlimit.Env, "200000")
	err := CheckArrayOutput(4, 4, b, `{"size": [100, 100]}`)
	if !errors.Is(err, hsi.ErrTooLarge) || !strings.Contains(err.Error(), "copied into the caller's buffer") {
		t.Errorf("%dx%dx%d under a 200000-byte limit: %v; want ErrTooLarge", h, w, b, err)
	}
	t.Setenv(memlimit.Env, "240000")
	if err := CheckArrayOutput(4, 4, b, `{"size": [100, 100]}`); err != nil {
		t.Errorf("%dx%dx%d under a 240000-byte limit: %v", h, w, b, err)
	}
	if err := CheckArrayOutput(4, 4, b, `{"scale": "nan"}`); StatusOf(err) != StatusOption {
		t.Errorf("a bad scale: %v; want an option error", err)
	}
}
