package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/omnihsr/omnihsr/internal/helptext"
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

// Every help text fits a terminal of helptext.Width columns: no line is
// longer unless it is a single word (a path, a URL) after its indentation.
func TestHelpFitsTerminal(t *testing.T) {
	topics := [][]string{{"help"}, {"help", "formats"}}
	for _, c := range commands {
		topics = append(topics, []string{"help", c.name})
	}
	for _, args := range topics {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		for n, line := range strings.Split(out.String(), "\n") {
			w := helptext.Columns(line)
			if w > helptext.Width && len(strings.Fields(strings.TrimSuffix(line, `\`))) > 1 {
				t.Errorf("%v: line %d is %d columns: %q", args, n+1, w, line)
			}
		}
	}
	// A bad flag prints the command's help too, to stderr, wrapped the same.
	var out, errb bytes.Buffer
	if code := run([]string{"info", "-nosuch"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "-var string\n    \tMATLAB variable to read (default: the largest numeric array); convert\n") {
		t.Errorf("info -nosuch: exit %d, stderr not the wrapped help:\n%s", code, errb.String())
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

// The command list holds every name once, the daily commands before the
// paper's reproduction commands, which help prints under their own heading;
// the flags of every command parse afresh each time (no state is kept
// between runs).
func TestCommandList(t *testing.T) {
	seen := map[string]bool{}
	var out, errb bytes.Buffer
	run([]string{"help"}, &out, &errb)
	heading := strings.Index(out.String(), "Reproducing the paper")
	if heading < 0 {
		t.Fatalf("help has no heading for the reproduction commands:\n%s", out.String())
	}
	daily := true
	for _, c := range commands {
		if seen[c.name] {
			t.Errorf("command %s listed twice", c.name)
		}
		seen[c.name] = true
		if c.name == firstReproduction {
			daily = false
		}
		at := strings.Index(out.String(), "\n  "+c.name+" ")
		if at < 0 || (at < heading) != daily {
			t.Errorf("help lists %s at %d, the reproduction heading at %d (daily: %v)", c.name, at, heading, daily)
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
