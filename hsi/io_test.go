package hsi

import (
	"strings"
	"testing"
)

// TestParseWriteOptions checks the parse functions the command-line flags
// use: every spelling of a valid value gives its constant, "" stays the
// default, and anything else is an error naming the value and the choices.
func TestParseWriteOptions(t *testing.T) {
	il := func(s string) (string, error) { v, err := ParseInterleave(s); return string(v), err }
	co := func(s string) (string, error) { v, err := ParseCompression(s); return string(v), err }
	dr := func(s string) (string, error) { v, err := ParseDriver(s); return string(v), err }
	dt := func(s string) (string, error) {
		v, same, err := ParseDataType(s)
		if same {
			return "same", err
		}
		if v == 0 {
			return "", err
		}
		return v.String(), err
	}
	for _, tc := range []struct {
		parse func(string) (string, error)
		in    string
		want  string // "": the default (or an error)
		err   string // the error wanted, "" for none
	}{
		{il, "", "", ""},
		{il, "bsq", string(BSQ), ""},
		{il, "BIL", string(BIL), ""},
		{il, "Bip", string(BIP), ""},
		{il, "bxx", "", `interleave "bxx" (want bsq, bil or bip)`},
		{il, " bsq", "", `interleave " bsq"`},
		{co, "", "", ""},
		{co, "none", string(NoCompression), ""},
		{co, "DEFLATE", string(Deflate), ""},
		{co, "lzw", string(LZW), ""},
		{co, "Zstd", string(ZSTD), ""},
		{co, "zip", "", `compression "zip" is not supported (none, deflate, lzw, zstd)`},
		{dr, "", "", ""},
		{dr, "gtiff", string(GTiff), ""},
		{dr, " GTiff ", string(GTiff), ""},
		{dr, "cog", string(COG), ""},
		{dr, "PNG", "", `output format "PNG": TIFF output is written as GTiff or COG`},
		{dt, "", "", ""},
		{dt, "same", "same", ""},
		{dt, "SAME", "same", ""},
		{dt, "uint16", "uint16", ""},
		{dt, "double", "float64", ""},
		{dt, "uint7", "", `"uint7"`},
		{dt, "same ", "", `"same "`},
	} {
		got, err := tc.parse(tc.in)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.in, err, tc.err)
		case got != tc.want:
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
}
