package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestHelpListsCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help"}, &out, &errb); code != 0 {
		t.Fatalf("help exit %d: %s", code, errb.String())
	}
	for _, c := range commands {
		name := c.name
		if !strings.Contains(out.String(), name) {
			t.Errorf("help does not list %s", name)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"nosuch"}, &out, &errb); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(errb.String(), "unknown command") {
		t.Fatalf("stderr %q", errb.String())
	}
}

func TestEveryCommandHasHelp(t *testing.T) {
	for _, c := range commands {
		name := c.name
		var out, errb bytes.Buffer
		if code := run([]string{"help", name}, &out, &errb); code != 0 || out.Len() == 0 {
			t.Errorf("help %s: exit %d, %q", name, code, errb.String())
		}
	}
}

// The command list is sorted (help prints it in order) and every name is
// there once; the flags of every command parse afresh each time (no state
// is kept between runs).
func TestCommandList(t *testing.T) {
	for i, c := range commands {
		if i > 0 && commands[i-1].name >= c.name {
			t.Errorf("commands out of order or repeated: %s before %s", commands[i-1].name, c.name)
		}
		if c.summary == "" || c.usage == "" || c.flags == nil {
			t.Errorf("%s: missing summary, usage or flags", c.name)
		}
		if lookup(c.name) != c {
			t.Errorf("lookup(%q) does not find it", c.name)
		}
		fs1, r1 := newFlagSet(c, io.Discard)
		fs2, r2 := newFlagSet(c, io.Discard)
		if fs1 == fs2 || r1 == r2 {
			t.Errorf("%s: two flag sets share their options", c.name)
		}
	}
}
