package repodoc

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the dependency column of docs/ARCHITECTURE.md from go list")

const (
	root       = "../.."
	archPath   = "docs/ARCHITECTURE.md"
	convPath   = "docs/CONVENTIONS.md"
	section    = "## Packages"
	newHeading = "### New packages (describe each and move it to its group)"
)

// listed is the part of `go list -json` output the table needs.
type listed struct {
	ImportPath string
	Name       string
	Doc        string
	Standard   bool
	Imports    []string
	Module     *struct{ Path string }
	DepOnly    bool
}

// goList returns the module's packages and the module path of every package
// they depend on.
func goList(t *testing.T) (mod string, pkgs []listed, moduleOf map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: cannot list the packages")
	}
	cmd := exec.Command("go", "list", "-deps", "-json", "./...")
	// The table is of the linux/amd64 build (other platforms drop
	// golang.org/x/sys/cpu with the assembly), whatever runs the test.
	cmd.Env = append(os.Environ(), "GOOS=linux", "GOARCH=amd64")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps -json ./...: %v\n%s", err, stderr.String())
	}
	moduleOf = map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listed
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list output: %v", err)
		}
		if p.Module != nil {
			moduleOf[p.ImportPath] = p.Module.Path
		}
		if !p.DepOnly && !p.Standard {
			pkgs = append(pkgs, p)
			if p.Module != nil {
				mod = p.Module.Path
			}
		}
	}
	if mod == "" || len(pkgs) == 0 {
		t.Fatal("go list found no package of the module")
	}
	return mod, pkgs, moduleOf
}

// rootPkg names the package at the module root in the table.
const rootPkg = "omnihsr"

// relPkg is a package's name in the table: its import path relative to
// the module, rootPkg for the module root.
func relPkg(mod, path string) string {
	if path == mod {
		return rootPkg
	}
	return strings.TrimPrefix(path, mod+"/")
}

// depCell is the "depends on" cell of a package: the module's packages it
// imports, then other modules, then cgo; "nothing" when there are none.
func depCell(mod string, p listed, moduleOf map[string]string) string {
	var own, other []string
	cgo := false
	for _, imp := range p.Imports {
		switch m := moduleOf[imp]; {
		case imp == "C":
			cgo = true
		case m == mod:
			own = append(own, relPkg(mod, imp))
		case m != "":
			if !slices.Contains(other, m) {
				other = append(other, m)
			}
		}
	}
	slices.Sort(own)
	slices.Sort(other)
	for i, o := range own {
		own[i] = "`" + o + "`"
	}
	cell := strings.Join(own, ", ")
	if len(other) > 0 {
		if cell != "" {
			cell += "; "
		}
		cell += strings.Join(other, ", ")
	}
	if cgo {
		if cell != "" {
			cell += "; "
		}
		cell += "cgo"
	}
	if cell == "" {
		return "nothing"
	}
	return cell
}

// row is one package row of the table: | `pkg` | holds | depends on |.
type row struct {
	line       int    // index into the document's lines
	group      string // the ### heading above the row
	pkg, holds string
	deps       string
}

var rowRE = regexp.MustCompile("^\\| `([^`]+)` \\| (.*) \\| ([^|]*) \\|$")

// tableRows returns the package rows of the Packages section and the range
// of lines [start, end) the section covers.
func tableRows(t *testing.T, lines []string) (rows []row, start, end int) {
	t.Helper()
	start = slices.Index(lines, section)
	if start < 0 {
		t.Fatalf("%s has no %q section", archPath, section)
	}
	end = len(lines)
	for i := start + 1; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], "## ") {
			end = i
			break
		}
	}
	group := ""
	for i := start; i < end; i++ {
		if strings.HasPrefix(lines[i], "### ") {
			group = lines[i]
		}
		if m := rowRE.FindStringSubmatch(lines[i]); m != nil {
			rows = append(rows, row{line: i, group: group, pkg: m[1], holds: m[2], deps: m[3]})
		}
	}
	return rows, start, end
}

// The package table of docs/ARCHITECTURE.md matches go list: every package
// once, with its imports.
func TestArchitectureTableMatchesGoList(t *testing.T) {
	mod, pkgs, moduleOf := goList(t)
	want := map[string]listed{}
	for _, p := range pkgs {
		want[relPkg(mod, p.ImportPath)] = p
	}
	path := filepath.Join(root, archPath)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	rows, _, end := tableRows(t, lines)

	var problems []string
	seen := map[string]bool{}
	var stale []int
	for _, r := range rows {
		p, ok := want[r.pkg]
		switch {
		case seen[r.pkg]:
			problems = append(problems, fmt.Sprintf("`%s` has two rows", r.pkg))
			stale = append(stale, r.line)
		case !ok:
			problems = append(problems, fmt.Sprintf("`%s` is in the table but not in the module", r.pkg))
			stale = append(stale, r.line)
		default:
			if got := depCell(mod, p, moduleOf); got != r.deps {
				problems = append(problems, fmt.Sprintf("`%s` depends on\n\t%s\nbut the table says\n\t%s", r.pkg, got, r.deps))
				lines[r.line] = fmt.Sprintf("| `%s` | %s | %s |", r.pkg, r.holds, got)
			}
		}
		seen[r.pkg] = true
	}
	var missing []string
	for name, p := range want {
		if !seen[name] {
			problems = append(problems, fmt.Sprintf("`%s` is missing from the table", name))
			missing = append(missing, fmt.Sprintf("| `%s` | %s | %s |", name, synopsis(p), depCell(mod, p, moduleOf)))
		}
	}
	if lp := layering(mod, rows, want); len(lp) > 0 {
		t.Errorf("%s: the front door and the core must not depend on the tools:\n%s", archPath, strings.Join(lp, "\n"))
	}
	if len(problems) == 0 {
		return
	}
	slices.Sort(problems[len(problems)-len(missing):])
	if !*update {
		t.Fatalf("%s, section %q, is out of date with go list:\n%s\n\nRun `go test ./internal/repodoc -update` to rewrite the dependency column and append rows for new packages, then describe and place them.",
			archPath, section, strings.Join(problems, "\n"))
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		add := []string{newHeading, "", "| package | holds | depends on |", "|---|---|---|"}
		add = append(add, missing...)
		add = append(add, "")
		lines = slices.Insert(lines, end, add...)
	}
	slices.Sort(stale)
	for i := len(stale) - 1; i >= 0; i-- {
		lines = slices.Delete(lines, stale[i], stale[i]+1)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("rewrote %s:\n%s", archPath, strings.Join(problems, "\n"))
}

// The headings of the groups of the package table: the front door and the
// core (the engine a library user compiles) may import only the core and
// the shared internals, never the paper-reproduction tools (evaluation,
// report, figures, benchmarks, training, the viewer).
const (
	frontGroup  = "### Front door"
	coreGroup   = "### Core"
	sharedGroup = "### Shared internals"
)

// layering checks that the front door and the core import nothing of this
// module but core packages and the shared internals, with no exception, and
// that the front door's dependencies (go list -deps .) hold nothing else.
func layering(mod string, rows []row, pkgs map[string]listed) []string {
	engine, allowed := map[string]bool{}, map[string]bool{}
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.group, coreGroup):
			engine[r.pkg], allowed[r.pkg] = true, true
		case strings.HasPrefix(r.group, frontGroup):
			engine[r.pkg] = true
		case strings.HasPrefix(r.group, sharedGroup):
			allowed[r.pkg] = true
		}
	}
	var out []string
	for _, r := range rows {
		p, ok := pkgs[r.pkg]
		if !engine[r.pkg] || !ok {
			continue
		}
		for _, imp := range p.Imports {
			name, own := strings.CutPrefix(imp, mod+"/")
			if own && !allowed[name] {
				out = append(out, fmt.Sprintf("`%s` imports `%s`, which is neither in the core nor a shared internal", r.pkg, name))
			}
		}
	}
	// What `go list -deps .` lists of this module: the front door, the
	// core and the shared internals only.
	reached := map[string]bool{}
	var walk func(pkg, from string)
	walk = func(pkg, from string) {
		if reached[pkg] {
			return
		}
		reached[pkg] = true
		if !engine[pkg] && !allowed[pkg] {
			out = append(out, fmt.Sprintf("`go list -deps .` lists `%s` (imported by `%s`), which is neither the front door, the core nor a shared internal", pkg, from))
		}
		for _, imp := range pkgs[pkg].Imports {
			if name, own := strings.CutPrefix(imp, mod+"/"); own {
				walk(name, pkg)
			}
		}
	}
	walk(rootPkg, rootPkg)
	return out
}

// synopsis is the first sentence of a package's documentation without the
// "Package x" or "Command x" prefix, for a new row.
func synopsis(p listed) string {
	s := p.Doc
	for _, pre := range []string{"Package " + p.Name + " ", "Command " + filepath.Base(p.ImportPath) + " "} {
		s = strings.TrimPrefix(s, pre)
	}
	return strings.ReplaceAll(s, "|", "/")
}

var (
	headingRE = regexp.MustCompile(`(?m)^## ([0-9]+)\. `)
	// sectionRefRE matches "CONVENTIONS.md section 3", "CONVENTIONS.md)
	// section 6" and "CONVENTIONS.md sections 2 and 3".
	sectionRefRE = regexp.MustCompile(`CONVENTIONS\.md\)?,? sections? ([0-9]+)(?: and ([0-9]+))?`)
)

// Every "docs/CONVENTIONS.md section N" in the repository's text names a
// section of that document.
func TestConventionsSectionReferences(t *testing.T) {
	conv, err := os.ReadFile(filepath.Join(root, convPath))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, m := range headingRE.FindAllStringSubmatch(string(conv), -1) {
		have[m[1]] = true
	}
	if len(have) == 0 {
		t.Fatalf("%s has no numbered sections (## N. Title)", convPath)
	}
	refs := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "out" || name == "runs" || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(name) {
		case ".go", ".md", ".py", ".sh":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		// Comments wrap lines: join them so a reference split over two lines counts.
		text := regexp.MustCompile(`\n\s*(//|#)?\s*`).ReplaceAllString(string(b), " ")
		for _, m := range sectionRefRE.FindAllStringSubmatch(text, -1) {
			for _, n := range m[1:] {
				if n == "" {
					continue
				}
				refs++
				if !have[n] {
					rel, _ := filepath.Rel(root, path)
					t.Errorf("%s refers to %s section %s, which does not exist", rel, convPath, n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if refs == 0 {
		t.Fatal("found no reference to a section of docs/CONVENTIONS.md: the pattern no longer matches the code's references")
	}
	t.Logf("%d section references checked", refs)
}

// The repository describes the code as it is: no work periods or open
// issues in code, comments or docs (history goes to git log and
// CHANGELOG.md), and no pointer to the development-only ../shared documents.
// The patterns are assembled from pieces so that this file does not match them.
func TestNoDevelopmentHistory(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: cannot list the tracked files")
	}
	checks := []struct{ what, pattern string }{
		{"development history", `(?i)\bsessions? [0-9]|\bthis ` + `session\b|\bissue #?[0-9]+ (is|was) `},
		{"a pointer to ../shared documents", `shared` + `/docs/|\.\./shared` + `/paper`},
	}
	for _, c := range checks {
		cmd := exec.Command("git", "grep", "-n", "-I", "-P", c.pattern)
		cmd.Dir = root
		out, err := cmd.Output()
		var ee *exec.ExitError
		switch {
		case err == nil:
			t.Errorf("%s in tracked files:\n%s", c.what, out)
		case errors.As(err, &ee) && ee.ExitCode() == 1: // no match
		default:
			t.Skipf("git grep: %v (not a git checkout?)", err)
		}
	}
}
