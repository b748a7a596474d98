package view

import (
	"container/list"
	"sync"
)

// Cache is a least-recently-used cache of encoded tiles whose total size
// in bytes never exceeds its budget. It is safe for concurrent use.
type Cache struct {
	mu     sync.Mutex
	budget int64
	used   int64
	order  *list.List // front: most recently used
	items  map[string]*list.Element
	hits   int64
	misses int64
}

type cacheEntry struct {
	key  string
	data []byte
}

// NewCache returns a cache holding at most budget bytes (0 or less: none).
func NewCache(budget int64) *Cache {
	return &Cache{budget: budget, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value stored under key.
func (c *Cache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok {
		c.misses++
		return nil, false
	}
	c.hits++
	c.order.MoveToFront(e)
	return e.Value.(*cacheEntry).data, true
}

// Put stores data under key, evicting the least recently used entries
// until the total fits the budget. A value larger than the budget is not
// stored.
func (c *Cache) Put(key string, data []byte) {
	n := int64(len(data))
	c.mu.Lock()
	defer c.mu.Unlock()
	if n > c.budget {
		return
	}
	if e, ok := c.items[key]; ok {
		c.used -= int64(len(e.Value.(*cacheEntry).data))
		c.order.Remove(e)
		delete(c.items, key)
	}
	for c.used+n > c.budget {
		last := c.order.Back()
		ent := last.Value.(*cacheEntry)
		c.used -= int64(len(ent.data))
		c.order.Remove(last)
		delete(c.items, ent.key)
	}
	c.items[key] = c.order.PushFront(&cacheEntry{key, data})
	c.used += n
}

// Budget returns the cache's budget in bytes.
func (c *Cache) Budget() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.budget
}

// SetBudget changes the budget, evicting the least recently used entries
// until the total fits it.
func (c *Cache) SetBudget(budget int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.budget = budget
	for c.used > c.budget {
		last := c.order.Back()
		ent := last.Value.(*cacheEntry)
		c.used -= int64(len(ent.data))
		c.order.Remove(last)
		delete(c.items, ent.key)
	}
}

// Used returns the bytes held and the number of entries.
func (c *Cache) Used() (bytes int64, entries int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.used, len(c.items)
}

// CacheStats describes a cache: its budget and contents in bytes, its
// entries, and the lookups that found their key (hits) or not (misses).
type CacheStats struct {
	Budget  int64 `json:"budget"`
	Bytes   int64 `json:"bytes"`
	Entries int   `json:"entries"`
	Hits    int64 `json:"hits"`
	Misses  int64 `json:"misses"`
}

// Stats returns the cache's statistics.
func (c *Cache) Stats() CacheStats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return CacheStats{c.budget, c.used, len(c.items), c.hits, c.misses}
}
