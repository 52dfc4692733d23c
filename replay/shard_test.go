package replay

import (
	"fmt"
	"reflect"
	"testing"
)

func TestPartitionLogs(t *testing.T) {
	tests := []struct {
		name  string
		paths []string
		size  []int64
		n     int
		want  [][]int
	}{
		{"one shard", []string{"a", "b"}, []int64{1, 2}, 1, [][]int{{0, 1}}},
		{"largest first", []string{"a", "b", "c", "d"}, []int64{10, 1, 9, 2}, 2, [][]int{{0, 1}, {2, 3}}},
		{"equal sizes by path", []string{"b", "a", "c"}, []int64{5, 5, 5}, 3, [][]int{{1}, {0}, {2}}},
		{"more shards than logs", []string{"a"}, []int64{3}, 3, [][]int{{0}, nil, nil}},
		{"zero sizes spread", []string{"a", "b", "c", "d"}, []int64{0, 0, 0, 0}, 2, [][]int{{0, 2}, {1, 3}}},
		{"huge log alone", []string{"big", "x", "y", "z"}, []int64{100, 1, 1, 1}, 2, [][]int{{0}, {1, 2, 3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PartitionLogs(tt.paths, tt.size, tt.n); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestPartitionLogsCovers: every log is in exactly one shard and the
// shards' bytes differ by at most the largest log.
func TestPartitionLogsCovers(t *testing.T) {
	var paths []string
	var size []int64
	for i := 0; i < 500; i++ {
		paths = append(paths, fmt.Sprintf("logs/%03d.jsonl", (i*7919)%500))
		size = append(size, int64((i*104729)%10007+1))
	}
	for n := 1; n <= 7; n++ {
		seen := make([]int, len(paths))
		var min, max, largest int64 = 1 << 62, 0, 0
		for _, s := range PartitionLogs(paths, size, n) {
			var sum int64
			for _, i := range s {
				seen[i]++
				sum += size[i]
				largest = maxInt64(largest, size[i])
			}
			min, max = minInt64(min, sum), maxInt64(max, sum)
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: log %d in %d shards", n, i, c)
			}
		}
		if max-min > largest {
			t.Errorf("n=%d: shards hold %d..%d bytes, more apart than the largest log (%d)", n, min, max, largest)
		}
	}
}

func minInt64(a, b int64) int64 {
	if a < b {
		return a
	}
	return b
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
