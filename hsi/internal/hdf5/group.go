package hdf5

import (
	"fmt"
	"strings"
)

// Root returns the root group.
func (f *File) Root() (*Object, error) {
	o, err := f.object("", f.rootAddr)
	if err != nil {
		return nil, err
	}
	o.Path = "/"
	return o, nil
}

// Members lists the members of group o in file order (name order for a
// group whose links are stored densely).
func (o *Object) Members() ([]*Object, error) {
	if o.Kind != KindGroup {
		return nil, fmt.Errorf("hdf5: %s is not a group", o.Path)
	}
	links, err := o.f.groupLinks(o.msgs)
	if err != nil {
		return nil, fmt.Errorf("hdf5: group %s: %w", o.Path, err)
	}
	out := make([]*Object, 0, len(links))
	for _, l := range links {
		m, err := o.f.object(l.name, l.addr)
		if err != nil {
			return nil, err
		}
		m.Path = strings.TrimSuffix(o.Path, "/") + "/" + l.name
		out = append(out, m)
	}
	return out, nil
}

// Child returns the member of group o named name.
func (o *Object) Child(name string) (*Object, error) {
	if o.Kind != KindGroup {
		return nil, fmt.Errorf("hdf5: %s is not a group", o.Path)
	}
	links, err := o.f.groupLinks(o.msgs)
	if err != nil {
		return nil, fmt.Errorf("hdf5: group %s: %w", o.Path, err)
	}
	for _, l := range links {
		if l.name == name {
			m, err := o.f.object(l.name, l.addr)
			if err != nil {
				return nil, err
			}
			m.Path = strings.TrimSuffix(o.Path, "/") + "/" + l.name
			return m, nil
		}
	}
	return nil, fmt.Errorf("hdf5: %s has no member %q", o.Path, name)
}

// Open returns the object at a slash-separated path such as
// "/group/dataset" (the leading slash is optional).
func (f *File) Open(path string) (*Object, error) {
	o, err := f.Root()
	if err != nil {
		return nil, err
	}
	for _, part := range strings.Split(strings.Trim(path, "/"), "/") {
		if part == "" {
			continue
		}
		if o, err = o.Child(part); err != nil {
			return nil, err
		}
	}
	return o, nil
}

// Walk calls fn for every object below group o, depth first, in member
// order; groups reached twice (hard links forming a cycle) are visited once.
func (o *Object) Walk(fn func(*Object) error) error {
	seen := map[uint64]bool{o.Addr: true}
	var walk func(g *Object, depth int) error
	walk = func(g *Object, depth int) error {
		if depth > maxGroupDepth {
			return fmt.Errorf("hdf5: groups nested too deep at %s", g.Path)
		}
		mem, err := g.Members()
		if err != nil {
			return err
		}
		for _, m := range mem {
			if seen[m.Addr] {
				continue
			}
			seen[m.Addr] = true
			if err := fn(m); err != nil {
				return err
			}
			if m.Kind == KindGroup {
				if err := walk(m, depth+1); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return walk(o, 0)
}

// AttrNums returns the numeric attribute named n (nil when absent or not numeric).
func (o *Object) AttrNums(n string) []float64 {
	if a, ok := o.Attrs[n]; ok {
		return a.Nums
	}
	return nil
}
