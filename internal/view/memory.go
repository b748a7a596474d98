package view

import (
	"container/list"
	"slices"
	"sync"

	"github.com/omnihsr/omnihsr/internal/model"
)

// Memory is the viewer's memory budget: the model's encodings of the
// scenes, the prepared zoom levels (the model's output for a grid, with
// its restrictions to the band choices shown) and the tile cache together
// stay within Total bytes. The scenes' cubes themselves are not counted.
//
//   - An encoding is kept once made (it takes the longest to redo), and
//     so is the filled copy of a scene with no-data that bicubic spectra
//     next to no-data read.
//   - The tile cache holds at most its own budget, reserved within Total.
//   - Prepared levels take the rest and are evicted first, least recently
//     used first, across all scenes; the level used last is always kept,
//     since the tiles being rendered need it.
//   - When the encodings and that one level leave less than the tile
//     cache's budget, the tile cache gets what is left (possibly nothing).
//
// It is safe for concurrent use.
type Memory struct {
	mu     sync.Mutex
	total  int64
	tiles  *Cache
	tileMB int64 // the tile cache's own budget
	enc    map[keptKey]int64
	encSum int64      // bytes of the encodings and filled copies
	levels *list.List // of *level; front: most recently used
	used   int64      // bytes of the levels
	hits   int64
	misses int64
	evict  int64
}

// keptKey names what a scene keeps for good: its encoding or its filled
// copy.
type keptKey struct {
	s      *Scene
	filled bool
}

// level is a prepared zoom level of a scene.
type level struct {
	s     *Scene
	h, w  int
	out   *model.Output
	bands []bandOutput // most recent first, at most maxBicubic
	bytes int64
	elem  *list.Element // nil once evicted
}

// bandOutput is an output restricted to some bands (model.Output.Bands).
type bandOutput struct {
	bands []int
	out   *model.Output
}

// NewMemory returns a budget of total bytes over the tile cache tiles
// (whose own budget is reserved within it).
func NewMemory(total int64, tiles *Cache) *Memory {
	m := &Memory{total: total, tiles: tiles, enc: map[keptKey]int64{}, levels: list.New()}
	m.tileMB = tiles.Budget()
	return m
}

// addKept counts the encoding of scene s, or its filled copy.
func (m *Memory) addKept(s *Scene, filled bool, bytes int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := keptKey{s, filled}
	m.encSum += bytes - m.enc[k]
	m.enc[k] = bytes
	m.enforce()
}

// find returns the prepared gh x gw level of scene s, marking it used
// and counting a hit.
func (m *Memory) find(s *Scene, gh, gw int) *level {
	m.mu.Lock()
	defer m.mu.Unlock()
	for e := m.levels.Front(); e != nil; e = e.Next() {
		if l := e.Value.(*level); l.s == s && l.h == gh && l.w == gw {
			m.levels.MoveToFront(e)
			m.hits++
			return l
		}
	}
	return nil
}

// has reports whether the gh x gw level of scene s is prepared, without
// marking it used.
func (m *Memory) has(s *Scene, gh, gw int) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for e := m.levels.Front(); e != nil; e = e.Next() {
		if l := e.Value.(*level); l.s == s && l.h == gh && l.w == gw {
			return true
		}
	}
	return false
}

// add keeps a newly prepared level, counting a miss, and evicts others
// as the budget says.
func (m *Memory) add(l *level) {
	l.bytes = l.out.Bytes()
	m.mu.Lock()
	defer m.mu.Unlock()
	m.misses++
	l.elem = m.levels.PushFront(l)
	m.used += l.bytes
	m.enforce()
}

// addBands keeps the output of level l restricted to some bands, most
// recent first, at most maxBicubic (none once l is evicted).
func (m *Memory) addBands(l *level, bo bandOutput) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if l.elem == nil {
		return
	}
	l.bands = append([]bandOutput{bo}, l.bands...)
	m.used += bo.out.Bytes()
	for len(l.bands) > maxBicubic {
		m.used -= l.bands[len(l.bands)-1].out.Bytes()
		l.bands = l.bands[:len(l.bands)-1]
	}
	m.enforce()
}

// bandsOf returns the output of level l restricted to bands, if kept.
func (m *Memory) bandsOf(l *level, bands []int) *model.Output {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, bo := range l.bands {
		if slices.Equal(bo.bands, bands) {
			l.bands = append([]bandOutput{bo}, slices.Delete(l.bands, i, i+1)...)
			return bo.out
		}
	}
	return nil
}

// levelBytes is what level l holds, its band outputs included.
func levelBytes(l *level) int64 {
	n := l.bytes
	for _, bo := range l.bands {
		n += bo.out.Bytes()
	}
	return n
}

// enforce evicts levels, least recently used first and never the most
// recent, until the encodings, the levels and the tile cache's budget fit
// the total, then gives the tile cache what is left up to its own budget.
// m.mu is held.
func (m *Memory) enforce() {
	for m.levels.Len() > 1 && m.encSum+m.used+m.tileMB > m.total {
		e := m.levels.Back()
		l := e.Value.(*level)
		m.used -= levelBytes(l)
		m.levels.Remove(e)
		l.elem = nil
		m.evict++
	}
	m.tiles.SetBudget(max(0, min(m.tileMB, m.total-m.encSum-m.used)))
}

// MemoryStats describes the memory budget: the total, the bytes of the
// encodings (with the filled copies of scenes with no-data), of the
// prepared levels and of the tile cache, the prepared
// levels (most recently used first), and the lookups of a level that
// found it prepared (hits) or prepared it (misses) and the levels
// evicted.
type MemoryStats struct {
	Total     int64        `json:"total"`
	Used      int64        `json:"used"`
	Encodings int64        `json:"encodings"`
	Levels    int64        `json:"levels"`
	Tiles     int64        `json:"tiles"`
	Prepared  []LevelStats `json:"prepared"`
	Hits      int64        `json:"hits"`
	Misses    int64        `json:"misses"`
	Evicted   int64        `json:"evicted"`
}

// LevelStats describes a prepared level: the scene, the grid, its bytes.
type LevelStats struct {
	Scene string `json:"scene"`
	H     int    `json:"gh"`
	W     int    `json:"gw"`
	Bytes int64  `json:"bytes"`
}

// Stats returns the budget's statistics.
func (m *Memory) Stats() MemoryStats {
	tiles, _ := m.tiles.Used()
	m.mu.Lock()
	defer m.mu.Unlock()
	st := MemoryStats{Total: m.total, Encodings: m.encSum, Levels: m.used, Tiles: tiles,
		Hits: m.hits, Misses: m.misses, Evicted: m.evict, Prepared: []LevelStats{}}
	st.Used = st.Encodings + st.Levels + st.Tiles
	for e := m.levels.Front(); e != nil; e = e.Next() {
		l := e.Value.(*level)
		st.Prepared = append(st.Prepared, LevelStats{l.s.Name, l.h, l.w, levelBytes(l)})
	}
	return st
}
