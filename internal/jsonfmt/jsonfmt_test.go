package jsonfmt

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

func TestMarshal(t *testing.T) {
	type rec struct {
		Name string    `json:"name"`
		RMSE []float64 `json:"rmse"`
		Tags []string  `json:"tags"`
		Nil  []any     `json:"nil"`
	}
	for _, tc := range []struct {
		name string
		v    any
		want string
	}{
		{"numbers on one line", rec{"a", []float64{1, -2.5, 3e-9}, []string{"x", "y"}, []any{nil, 1.5}},
			"{\n \"name\": \"a\",\n \"rmse\": [1, -2.5, 3e-9],\n \"tags\": [\n  \"x\",\n  \"y\"\n ],\n \"nil\": [null, 1.5]\n}\n"},
		{"nested", map[string][][]int{"m": {{1, 2}, {3}}}, "{\n \"m\": [\n  [1, 2],\n  [3]\n ]\n}\n"},
		{"empty array", []int{}, "[]\n"},
		{"scalar", 4, "4\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Marshal(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tc.want {
				t.Errorf("got\n%s\nwant\n%s", b, tc.want)
			}
			if !json.Valid(b) {
				t.Errorf("not valid JSON: %s", b)
			}
		})
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("a func marshalled without error")
	}
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.json")
	if err := Write(p, []float64{1, 2}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "[1, 2]\n" {
		t.Errorf("file holds %q", b)
	}
	if err := Write(p, make(chan int)); err == nil {
		t.Error("unencodable value written")
	}
	if b, _ := os.ReadFile(p); string(b) != "[1, 2]\n" {
		t.Errorf("a failed write changed the file: %q", b)
	}
}
