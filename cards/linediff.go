package cards

// Op is one line of a line diff.
type Op struct {
	Kind byte // ' ' unchanged, '-' removed, '+' added
	Text string
}

// maxDiffCells bounds the LCS table; past it the diff is drawn as all old
// lines removed then all new lines added (still exact about content, only
// less minimal), after trimming the common head and tail.
const maxDiffCells = 4 << 20

// LineDiff is a minimal line diff of a and b (longest common subsequence,
// ties resolved removals first), for display only.
func LineDiff(a, b []string) []Op {
	// common head and tail cost nothing and keep the table small
	head := 0
	for head < len(a) && head < len(b) && a[head] == b[head] {
		head++
	}
	tail := 0
	for tail < len(a)-head && tail < len(b)-head && a[len(a)-1-tail] == b[len(b)-1-tail] {
		tail++
	}
	ops := make([]Op, 0, len(a)+len(b))
	for _, s := range a[:head] {
		ops = append(ops, Op{' ', s})
	}
	ma, mb := a[head:len(a)-tail], b[head:len(b)-tail]
	ops = append(ops, lcsDiff(ma, mb)...)
	for _, s := range a[len(a)-tail:] {
		ops = append(ops, Op{' ', s})
	}
	return ops
}

func lcsDiff(a, b []string) []Op {
	n, m := len(a), len(b)
	var ops []Op
	if n == 0 || m == 0 || (n+1)*(m+1) > maxDiffCells {
		for _, s := range a {
			ops = append(ops, Op{'-', s})
		}
		for _, s := range b {
			ops = append(ops, Op{'+', s})
		}
		return ops
	}
	// L[i][j] = LCS length of a[i:], b[j:]
	w := m + 1
	L := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				L[i*w+j] = L[(i+1)*w+j+1] + 1
			} else if L[(i+1)*w+j] >= L[i*w+j+1] {
				L[i*w+j] = L[(i+1)*w+j]
			} else {
				L[i*w+j] = L[i*w+j+1]
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, Op{' ', a[i]})
			i++
			j++
		case L[(i+1)*w+j] >= L[i*w+j+1]:
			ops = append(ops, Op{'-', a[i]})
			i++
		default:
			ops = append(ops, Op{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, Op{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, Op{'+', b[j]})
	}
	return ops
}
