package repodoc

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxPublic bounds the module's public surface: the exported identifiers
// of every package outside internal/, cmd/ and scripts/.
const maxPublic = 400

// publicPackages parses the non-test files of the module's public packages
// (every directory below root but internal/, cmd/, scripts/, testdata/, the
// non-Go trees and nested modules), keyed by the directory relative to root.
func publicPackages(t *testing.T) map[string][]*ast.File {
	t.Helper()
	pkgs := map[string][]*ast.File{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel == "." {
				return nil
			}
			name := d.Name()
			if name == "internal" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") ||
				rel == "cmd" || rel == "scripts" {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		if f.Name.Name == "main" {
			return nil
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		pkgs[dir] = append(pkgs[dir], f)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// exported lists a file's exported identifiers: top-level functions, types,
// variables and constants, and the exported methods of exported types,
// each with the declaration's node for the internal-type check.
func exported(f *ast.File) (names []string, nodes []ast.Node) {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if !d.Name.IsExported() {
				continue
			}
			name := d.Name.Name
			if d.Recv != nil {
				recv := receiverName(d.Recv.List[0].Type)
				if !ast.IsExported(recv) {
					continue
				}
				name = recv + "." + name
			}
			names, nodes = append(names, name), append(nodes, d.Type)
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					if s.Name.IsExported() {
						names, nodes = append(names, s.Name.Name), append(nodes, exportedPart(s.Type))
					}
				case *ast.ValueSpec:
					for _, n := range s.Names {
						if n.IsExported() {
							var node ast.Node = n
							if s.Type != nil {
								node = s.Type
							}
							names, nodes = append(names, n.Name), append(nodes, node)
						}
					}
				}
			}
		}
	}
	return names, nodes
}

func receiverName(e ast.Expr) string {
	for {
		switch x := e.(type) {
		case *ast.StarExpr:
			e = x.X
		case *ast.IndexExpr:
			e = x.X
		case *ast.IndexListExpr:
			e = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}

// exportedPart is what of a type declaration a caller sees: a struct's
// exported fields, an interface's methods, any other type whole.
func exportedPart(e ast.Expr) ast.Node {
	st, ok := e.(*ast.StructType)
	if !ok {
		return e
	}
	var fields []*ast.Field
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			if ast.IsExported(receiverName(f.Type)) || isSelector(f.Type) {
				fields = append(fields, f)
			}
			continue
		}
		for _, n := range f.Names {
			if n.IsExported() {
				fields = append(fields, f)
				break
			}
		}
	}
	return &ast.FieldList{List: fields}
}

func isSelector(e ast.Expr) bool {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	_, ok := e.(*ast.SelectorExpr)
	return ok
}

// TestPublicSurface keeps the public API small and self-contained: at most
// maxPublic exported identifiers outside internal/, cmd/ and scripts/, and
// no exported signature, field or type that names a type of an internal
// package (which a caller could not name).
func TestPublicSurface(t *testing.T) {
	pkgs := publicPackages(t)
	total := 0
	var counts, leaks []string
	for dir, files := range pkgs {
		n := 0
		for _, f := range files {
			internal := map[string]string{} // local name -> import path
			for _, im := range f.Imports {
				path, _ := strconv.Unquote(im.Path.Value)
				if !strings.Contains("/"+path+"/", "/internal/") {
					continue
				}
				name := path[strings.LastIndex(path, "/")+1:]
				if im.Name != nil {
					name = im.Name.Name
				}
				internal[name] = path
			}
			names, nodes := exported(f)
			n += len(names)
			for i, node := range nodes {
				ast.Inspect(node, func(x ast.Node) bool {
					if _, ok := x.(*ast.BlockStmt); ok {
						return false
					}
					sel, ok := x.(*ast.SelectorExpr)
					if !ok {
						return true
					}
					if id, ok := sel.X.(*ast.Ident); ok {
						if path, ok := internal[id.Name]; ok {
							leaks = append(leaks, fmt.Sprintf("%s: %s names %s.%s (%s)", dir, names[i], id.Name, sel.Sel.Name, path))
						}
					}
					return true
				})
			}
		}
		total += n
		counts = append(counts, fmt.Sprintf("%4d %s", n, dir))
	}
	slices.Sort(counts)
	t.Logf("%d exported identifiers in %d public packages:\n%s", total, len(pkgs), strings.Join(counts, "\n"))
	if total > maxPublic {
		t.Errorf("%d exported identifiers outside internal/, cmd/ and scripts/, more than %d: move tools under internal/ or unexport", total, maxPublic)
	}
	slices.Sort(leaks)
	for _, l := range leaks {
		t.Errorf("exported API names a type of an internal package, which callers cannot name: %s", l)
	}
}
