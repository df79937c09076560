package tui

// lru is a small least-recently-used cache: the explorer keeps analyses
// and diffs for the last few steps visited, so memory stays bounded on a
// large module however long the session.
type lru[K comparable, V any] struct {
	max   int
	order []K // least recent first
	m     map[K]V
}

func newLRU[K comparable, V any](n int) *lru[K, V] {
	return &lru[K, V]{max: n, m: map[K]V{}}
}

func (c *lru[K, V]) touch(k K) {
	for i, x := range c.order {
		if x == k {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
	c.order = append(c.order, k)
}

// get returns the value for k and marks it most recently used.
func (c *lru[K, V]) get(k K) (V, bool) {
	v, ok := c.m[k]
	if ok {
		c.touch(k)
	}
	return v, ok
}

// put stores v, evicting the least recently used entry when full.
func (c *lru[K, V]) put(k K, v V) {
	c.m[k] = v
	c.touch(k)
	for len(c.order) > c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
}

func (c *lru[K, V]) clear() {
	c.m = map[K]V{}
	c.order = nil
}
