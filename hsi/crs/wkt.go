package crs

import (
	"fmt"
	"strconv"
	"strings"
)

// Node is one WKT element: KEYWORD[arg, arg, ...]. An argument is a quoted
// string (without its quotes), a bare token (a number or an enumeration
// such as "north"), or a nested element.
type Node struct {
	Key  string
	Args []Arg
}

// Arg is one argument of a WKT element.
type Arg struct {
	Text   string // the string or token when Node is nil
	Quoted bool   // Text was a quoted string
	Node   *Node
}

// Parse reads a WKT text.
func Parse(wkt string) (*Node, error) {
	p := parser{s: strings.TrimSpace(wkt)}
	n, err := p.node()
	if err != nil {
		return nil, fmt.Errorf("crs: WKT: %w", err)
	}
	p.space()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("crs: WKT: text after the closing bracket at offset %d", p.i)
	}
	return n, nil
}

type parser struct {
	s string
	i int
}

func (p *parser) space() {
	for p.i < len(p.s) && strings.ContainsRune(" \t\r\n", rune(p.s[p.i])) {
		p.i++
	}
}

func (p *parser) node() (*Node, error) {
	p.space()
	start := p.i
	for p.i < len(p.s) && (isAlnum(p.s[p.i]) || p.s[p.i] == '_') {
		p.i++
	}
	if p.i == start {
		return nil, fmt.Errorf("want a keyword at offset %d", p.i)
	}
	n := &Node{Key: strings.ToUpper(p.s[start:p.i])}
	p.space()
	if p.i >= len(p.s) || (p.s[p.i] != '[' && p.s[p.i] != '(') {
		return nil, fmt.Errorf("%s: want '[' at offset %d", n.Key, p.i)
	}
	closing := byte(']')
	if p.s[p.i] == '(' {
		closing = ')'
	}
	p.i++
	for {
		p.space()
		if p.i >= len(p.s) {
			return nil, fmt.Errorf("%s: unclosed bracket", n.Key)
		}
		c := p.s[p.i]
		switch {
		case c == closing:
			p.i++
			return n, nil
		case c == ',':
			p.i++
			continue
		case c == '"':
			j := p.i + 1
			var b strings.Builder
			for {
				if j >= len(p.s) {
					return nil, fmt.Errorf("%s: unclosed string", n.Key)
				}
				if p.s[j] == '"' {
					if j+1 < len(p.s) && p.s[j+1] == '"' { // "" is a quote
						b.WriteByte('"')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(p.s[j])
				j++
			}
			n.Args = append(n.Args, Arg{Text: b.String(), Quoted: true})
			p.i = j + 1
		default:
			j := p.i
			for j < len(p.s) && (isAlnum(p.s[j]) || strings.IndexByte("_.+-", p.s[j]) >= 0) {
				j++
			}
			k := j
			for k < len(p.s) && strings.IndexByte(" \t\r\n", p.s[k]) >= 0 {
				k++
			}
			if k < len(p.s) && (p.s[k] == '[' || p.s[k] == '(') && j > p.i {
				child, err := p.node()
				if err != nil {
					return nil, err
				}
				n.Args = append(n.Args, Arg{Node: child})
				continue
			}
			if j == p.i {
				return nil, fmt.Errorf("%s: unexpected %q at offset %d", n.Key, c, p.i)
			}
			n.Args = append(n.Args, Arg{Text: p.s[p.i:j]})
			p.i = j
		}
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// Name returns the first quoted argument ("" if none).
func (n *Node) Name() string {
	if n == nil {
		return ""
	}
	for _, a := range n.Args {
		if a.Node == nil && a.Quoted {
			return a.Text
		}
	}
	return ""
}

// Child returns the first child element with one of the keywords.
func (n *Node) Child(keys ...string) *Node {
	if n == nil {
		return nil
	}
	for _, a := range n.Args {
		if a.Node == nil {
			continue
		}
		for _, k := range keys {
			if a.Node.Key == k {
				return a.Node
			}
		}
	}
	return nil
}

// Children returns every child element with the keyword.
func (n *Node) Children(key string) []*Node {
	if n == nil {
		return nil
	}
	var out []*Node
	for _, a := range n.Args {
		if a.Node != nil && a.Node.Key == key {
			out = append(out, a.Node)
		}
	}
	return out
}

// Num returns the i-th bare (unquoted, non-element) argument as a number.
func (n *Node) Num(i int) (float64, bool) {
	if n == nil {
		return 0, false
	}
	k := 0
	for _, a := range n.Args {
		if a.Node != nil || a.Quoted {
			continue
		}
		if k == i {
			v, err := strconv.ParseFloat(a.Text, 64)
			return v, err == nil
		}
		k++
	}
	return 0, false
}

// authority returns the EPSG code of an AUTHORITY["EPSG","c"] or
// ID["EPSG",c] child, or 0.
func (n *Node) authority() int {
	a := n.Child("AUTHORITY", "ID")
	if a == nil || !strings.EqualFold(a.Name(), "EPSG") {
		return 0
	}
	if len(a.Args) < 2 || a.Args[1].Node != nil {
		return 0
	}
	c, err := strconv.Atoi(strings.TrimSpace(a.Args[1].Text))
	if err != nil || c <= 0 {
		return 0
	}
	return c
}
