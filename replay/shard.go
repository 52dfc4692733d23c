package replay

import "sort"

// PartitionLogs splits logs into n shards balanced by size: the largest
// first, each to the shard with the fewest bytes so far (ties: the lower
// shard), equal sizes in path order. It depends on nothing but the paths
// and sizes, so every machine of a CI matrix computes the same partition
// from the same checkout. It returns, per shard (0-based), the indexes of
// its logs in ascending order.
func PartitionLogs(paths []string, size []int64, n int) [][]int {
	out := make([][]int, n)
	if n <= 0 {
		return out
	}
	order := make([]int, len(paths))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if size[i] != size[j] {
			return size[i] > size[j]
		}
		return paths[i] < paths[j]
	})
	load := make([]int64, n)
	for _, i := range order {
		best := 0
		for s := 1; s < n; s++ {
			if load[s] < load[best] {
				best = s
			}
		}
		load[best] += size[i]
		// A log of no size (unreadable, stdin) still costs a little, so
		// a tree of them is spread too.
		if size[i] == 0 {
			load[best]++
		}
		out[best] = append(out[best], i)
	}
	for s := range out {
		sort.Ints(out[s])
	}
	return out
}
