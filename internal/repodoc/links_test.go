package repodoc

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

var (
	// mdLink matches an inline Markdown link or image: [text](target) or
	// ![alt](target "title").
	mdLink = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// mdHeading matches an ATX heading.
	mdHeading = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*#*\s*$`)
	// fence matches a fenced code block, whose text holds no links.
	fence = regexp.MustCompile("(?ms)^```.*?^```")
	// inlineCode matches a code span.
	inlineCode = regexp.MustCompile("`[^`\n]*`")
)

// slug is the anchor GitHub gives a heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func slug(h string) string {
	h = strings.ToLower(strings.TrimSpace(inlineCode.ReplaceAllStringFunc(h, func(s string) string { return strings.Trim(s, "`") })))
	var b strings.Builder
	for _, r := range h {
		switch {
		case r == ' ':
			b.WriteByte('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors returns the heading anchors of a Markdown text (a repeated
// heading gets -1, -2, ... as on GitHub).
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, m := range mdHeading.FindAllStringSubmatch(fence.ReplaceAllString(text, ""), -1) {
		s := slug(m[1])
		if n := seen[s]; n > 0 {
			out[s+"-"+strconv.Itoa(n)] = true
		} else {
			out[s] = true
		}
		seen[s]++
	}
	return out
}

// Every relative link in the repository's tracked Markdown resolves: the
// file or folder exists, and an anchor (#section) names a heading of the
// Markdown file it points into.
func TestMarkdownLinksResolve(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not on PATH: cannot list the tracked files")
	}
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "*.md")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("git ls-files: %v (not a git checkout?)", err)
	}
	files := strings.Fields(string(out))
	if len(files) == 0 {
		t.Fatal("no Markdown file found")
	}
	cache := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, bool) {
		if a, ok := cache[path]; ok {
			return a, true
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, false
		}
		cache[path] = anchors(string(b))
		return cache[path], true
	}
	links := 0
	for _, f := range files {
		path := filepath.Join(root, f)
		b, err := os.ReadFile(path)
		if err != nil {
			continue // listed but deleted in the work tree
		}
		text := inlineCode.ReplaceAllString(fence.ReplaceAllString(string(b), ""), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			links++
			file, anchor, _ := strings.Cut(target, "#")
			dest := path
			if file != "" {
				dest = filepath.Join(filepath.Dir(path), filepath.FromSlash(file))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %q: %s does not exist", f, target, rel(dest))
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			a, _ := anchorsOf(dest)
			if !a[strings.ToLower(anchor)] {
				t.Errorf("%s: link %q: no heading with anchor #%s in %s", f, target, anchor, rel(dest))
			}
		}
	}
	if links == 0 {
		t.Fatal("found no relative link: the pattern no longer matches")
	}
	t.Logf("%d relative links in %d Markdown files resolve", links, len(files))
}

// rel names path from the repository's root.
func rel(path string) string {
	r, err := filepath.Rel(root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}
