package main

import (
	"os"
	"path/filepath"

	"github.com/omnihsr/omnihsr/hsi/formats"
)

// inputSet holds the files the scenes of a job are read from, by path and
// (local files) by identity, so that an output that would replace one of
// them, under its name or through a link, is refused before the job
// starts, as `omnihsr upscale` refuses it (formats.CheckOutput).
type inputSet struct {
	byPath map[string]string    // a file read -> the scene
	byID   map[[2]uint64]string // device and inode -> the scene
}

func newInputSet(paths []string) *inputSet {
	s := &inputSet{byPath: map[string]string{}, byID: map[[2]uint64]string{}}
	for _, p := range paths {
		if isRemote(p) {
			s.byPath[p] = p
			continue
		}
		for _, r := range formats.ReadFiles(p) {
			s.byPath[filepath.Clean(r)] = p
			if fi, err := os.Stat(r); err == nil && fi.Mode().IsRegular() {
				if id, ok := fileID(fi); ok {
					s.byID[id] = p
				}
			}
		}
	}
	return s
}

// holds returns the scene one of whose files writing out would replace.
func (s *inputSet) holds(out string) (string, bool) {
	for _, w := range formats.WriteFiles(out) {
		if isRemote(w) {
			if in, ok := s.byPath[w]; ok {
				return in, true
			}
			continue
		}
		if in, ok := s.byPath[filepath.Clean(w)]; ok {
			return in, true
		}
		if fi, err := os.Stat(w); err == nil {
			if id, ok := fileID(fi); ok {
				if in, ok := s.byID[id]; ok {
					return in, true
				}
			}
		}
	}
	return "", false
}
