package eval

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/omnihsr/omnihsr/hsi"
	"github.com/omnihsr/omnihsr/hsi/formats"
	"github.com/omnihsr/omnihsr/internal/scenes"
)

// DefaultScenesTSV returns the shared scene list
// (../shared/data/hsi/scenes.tsv, or under $OMNIHSR_SHARED), or "" when
// it does not exist.
func DefaultScenesTSV() string {
	p, ok := scenes.DefaultList()
	if !ok {
		return ""
	}
	return p
}

// TSVScenes returns the scenes of a scene list whose split column equals
// split ("" or "all" = every row). Scene.File is the row's file column
// (relative to the list), so outputs do not depend on where the data lives.
func TSVScenes(path, split string) ([]*Scene, error) {
	all, err := scenes.Parse(path)
	if err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	if split == "all" {
		split = ""
	}
	sel := scenes.Filter(all, split)
	if len(sel) == 0 {
		return nil, fmt.Errorf("eval: %s lists no scene of split %q", path, split)
	}
	dir := filepath.Dir(path)
	out := make([]*Scene, 0, len(sel))
	for _, s := range sel {
		rel, err := filepath.Rel(dir, s.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = s.File
		}
		out = append(out, &Scene{
			Name:   s.Name(),
			File:   filepath.ToSlash(rel),
			Sensor: s.Sensor,
			Load:   func() (*hsi.Cube, error) { return scenes.Load(s) },
		})
	}
	return out, nil
}

// FileScenes returns one scene per file, read by extension with
// formats.Read and opts; sensor ("" = unknown, i.e. remote sensing) picks
// the seven protocol's geometry.
func FileScenes(paths []string, opts hsi.ReadOptions, sensor string) []*Scene {
	out := make([]*Scene, 0, len(paths))
	for _, p := range paths {
		base := filepath.Base(p)
		out = append(out, &Scene{
			Name:   strings.TrimSuffix(base, filepath.Ext(base)),
			File:   p,
			Sensor: sensor,
			Load: func() (*hsi.Cube, error) {
				c, _, err := formats.Read(p, opts)
				return c, err
			},
		})
	}
	return out
}
