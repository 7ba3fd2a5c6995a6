package config

// The words of a config problem: an unknown key and its nearest known one, and the caret diagram
// under the line a problem is on (config check).

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unknownKey is the problem for a key the schema does not know, with the closest known key.
func unknownKey(key, shown string) string {
	msg := "unknown key '" + shown + "'"
	if near := suggestKey(key); near != "" {
		msg += " (did you mean '" + near + "'?)"
	}
	return msg
}

// suggestKey returns the known key closest to key: one in the same table a typo away, else the
// same name in another table.
func suggestKey(key string) string {
	table, leaf := tableOf(key), leafOf(key)
	var same []string
	for i := range schema {
		if tableOf(schema[i].key) == table {
			same = append(same, leafOf(schema[i].key))
		}
	}
	if near := closest(leaf, same); near != "" {
		if table == "" {
			return near
		}
		return table + "." + near
	}
	for i := range schema {
		if leafOf(schema[i].key) == leaf {
			return schema[i].key
		}
	}
	return ""
}

func leafOf(key string) string { return key[strings.LastIndexByte(key, '.')+1:] }

// closest returns the candidate within a small edit distance of s (the nearest), or "".
func closest(s string, candidates []string) string {
	if len(s) > 64 {
		return ""
	}
	best, bestD := "", 3
	if len(s) <= 4 {
		bestD = 2
	}
	for _, c := range candidates {
		if d := distance(s, c, bestD); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// distance is the edit distance between a and b (insert, delete, substitute, swap of two
// neighbours), or limit when it is at least limit.
func distance(a, b string, limit int) int {
	if a == b {
		return 0
	}
	if abs(len(a)-len(b)) >= limit || len(b) > 64 {
		return limit
	}
	a, b = strings.ToLower(a), strings.ToLower(b)
	var rows [3][66]int
	prev2, prev, cur := &rows[0], &rows[1], &rows[2]
	for j := 0; j <= len(b); j++ {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin >= limit {
			return limit
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit)
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// finish turns problems into Errors in line order, each with its line and column (and, with
// context, the caret diagram), in one pass over the file.
func finish(name string, data []byte, probs []problem, context bool) Errors {
	if len(probs) == 0 {
		return nil
	}
	slices.SortStableFunc(probs, func(a, b problem) int { return a.off - b.off })
	// Line starts, once: every position is then a binary search.
	starts := []int{0}
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	lineOf := func(off int) int {
		i, found := slices.BinarySearch(starts, off)
		if !found {
			i--
		}
		return i // 0-based
	}
	out := make(Errors, len(probs))
	for i, p := range probs {
		off := min(p.off, len(data))
		l := lineOf(off)
		msg := p.msg
		if p.ref >= 0 {
			msg += " (first on line " + strconv.Itoa(lineOf(p.ref)+1) + ")"
		}
		e := &Error{File: name, Line: l + 1, Col: utf8.RuneCount(data[starts[l]:off]) + 1, Msg: msg}
		if context {
			e.Context = diagram(data, starts, l, off, p.n, msg)
		}
		out[i] = e
	}
	return out
}

// diagram is the caret view of a problem: the line before, the line, and a ~ under the bytes.
func diagram(data []byte, starts []int, l, off, n int, msg string) string {
	lineText := func(i int) string {
		end := len(data)
		if i+1 < len(starts) {
			end = starts[i+1] - 1
		}
		return strings.TrimRight(string(data[starts[i]:end]), "\r")
	}
	num := strconv.Itoa(l + 1)
	pad := strings.Repeat(" ", len(num))
	var b strings.Builder
	if l > 0 {
		prev := strconv.Itoa(l)
		b.WriteString(strings.Repeat(" ", len(num)-len(prev)) + prev + "| " + lineText(l-1) + "\n")
	}
	text := lineText(l)
	b.WriteString(num + "| " + text + "\n")
	col := utf8.RuneCount(data[starts[l]:off])
	width := utf8.RuneCount(data[off:min(off+n, starts[l]+len(text))])
	b.WriteString(pad + "| " + strings.Repeat(" ", col) + strings.Repeat("~", max(width, 1)) + " " + msg)
	return b.String()
}
