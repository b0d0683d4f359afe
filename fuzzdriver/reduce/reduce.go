package reduce

import "sort"

// Cover returns the indices of a subset of the inputs covering every item
// some input covers: repeatedly the input that covers the most items not
// yet covered, the smaller one (size[i]) on a tie, then the earlier one.
// The indices come back sorted.
func Cover(items [][]string, size []int) []int {
	need := map[string]bool{}
	for _, is := range items {
		for _, it := range is {
			need[it] = true
		}
	}
	used := make([]bool, len(items))
	var chosen []int
	for len(need) > 0 {
		best, gain := -1, 0
		for i, is := range items {
			if used[i] {
				continue
			}
			g := 0
			seen := map[string]bool{}
			for _, it := range is {
				if need[it] && !seen[it] {
					seen[it] = true
					g++
				}
			}
			if g > gain || (g == gain && g > 0 && best >= 0 && size[i] < size[best]) {
				best, gain = i, g
			}
		}
		if best < 0 {
			break // cannot happen: every needed item is some input's
		}
		used[best] = true
		chosen = append(chosen, best)
		for _, it := range items[best] {
			delete(need, it)
		}
	}
	sort.Ints(chosen)
	return chosen
}

// Union returns the distinct items of the inputs idx (all inputs when idx
// is nil), sorted.
func Union(items [][]string, idx []int) []string {
	set := map[string]bool{}
	add := func(i int) {
		for _, it := range items[i] {
			set[it] = true
		}
	}
	if idx == nil {
		for i := range items {
			add(i)
		}
	} else {
		for _, i := range idx {
			add(i)
		}
	}
	out := make([]string, 0, len(set))
	for it := range set {
		out = append(out, it)
	}
	sort.Strings(out)
	return out
}

// Extend returns a small set of the inputs covering every item they cover
// beyond base (items base already has count for nothing): Cover over what
// each input adds. Generated tests for what a suite misses are such a set.
func Extend(base []string, items [][]string, size []int) []int {
	have := map[string]bool{}
	for _, it := range base {
		have[it] = true
	}
	adds := make([][]string, len(items))
	for i, is := range items {
		for _, it := range is {
			if !have[it] {
				adds[i] = append(adds[i], it)
			}
		}
	}
	return Cover(adds, size)
}

// ExtendAdds is Extend with what each chosen input adds: keep in Extend's
// order, and adds[k] the items input keep[k] covers that neither base nor
// an earlier chosen input does, each once, in the input's order. An input
// that adds nothing after all is left out, so no adds[k] is empty.
func ExtendAdds(base []string, items [][]string, size []int) (keep []int, adds [][]string) {
	have := map[string]bool{}
	for _, it := range base {
		have[it] = true
	}
	for _, i := range Extend(base, items, size) {
		var add []string
		for _, it := range items[i] {
			if !have[it] {
				add = append(add, it)
				have[it] = true
			}
		}
		if len(add) > 0 {
			keep = append(keep, i)
			adds = append(adds, add)
		}
	}
	return keep, adds
}
