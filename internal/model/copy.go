package model

import "fmt"

// CopyWeights returns a copy of m with weights of its own (a noise
// companion, if any, shared), so that the copy can be trained while m
// stays as it is: per-scene adaptation fine-tunes such a copy.
func (m *Model) CopyWeights() (*Model, error) {
	n, err := New(m.Cfg, 0)
	if err != nil {
		return nil, err
	}
	src, dst := m.Params(), n.Params()
	if len(src) != len(dst) {
		return nil, fmt.Errorf("model: copy: %d parameters, want %d", len(src), len(dst))
	}
	for i, p := range src {
		if len(dst[i].T.Data) != len(p.T.Data) {
			return nil, fmt.Errorf("model: copy: parameter %s has %d values, want %d", p.Name, len(p.T.Data), len(dst[i].T.Data))
		}
		copy(dst[i].T.Data, p.T.Data)
	}
	c := *m
	c.Enc, c.FiLM, c.Head, c.Geo, c.Op = n.Enc, n.FiLM, n.Head, n.Geo, n.Op
	return &c, nil
}
