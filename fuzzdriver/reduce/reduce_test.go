package reduce

import (
	"reflect"
	"testing"
)

func TestCover(t *testing.T) {
	items := [][]string{
		{"a", "b"},           // 0
		{"a", "b", "c"},      // 1: most new items
		{"d"},                // 2: the only d, but big
		{"d"},                // 3: same, smaller
		{"c"},                // 4: adds nothing after 1
		{"a", "b", "c", "e"}, // 5: four new: first pick
	}
	size := []int{1, 1, 50, 10, 1, 100}
	got := Cover(items, size)
	if want := []int{3, 5}; !reflect.DeepEqual(got, want) {
		t.Fatalf("Cover = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(Union(items, got), Union(items, nil)) {
		t.Fatalf("subset covers %v, all %v", Union(items, got), Union(items, nil))
	}
	// On a tie the smaller input wins.
	if got := Cover([][]string{{"x", "y"}, {"x", "y"}}, []int{9, 3}); !reflect.DeepEqual(got, []int{1}) {
		t.Fatalf("tie: %v", got)
	}
	if got := Cover([][]string{{}, nil}, []int{1, 1}); len(got) != 0 {
		t.Fatalf("nothing to cover: %v", got)
	}
}

func TestExtend(t *testing.T) {
	base := []string{"a", "b"}
	items := [][]string{{"a"}, {"a", "c"}, {"c", "d"}, {"b"}}
	got := Extend(base, items, []int{1, 1, 5, 1})
	if !reflect.DeepEqual(got, []int{2}) {
		t.Fatalf("Extend = %v, want [2] (c and d beyond a, b)", got)
	}
	if got := Extend(base, [][]string{{"a"}, {"b"}}, []int{1, 1}); len(got) != 0 {
		t.Fatalf("nothing new: %v", got)
	}
}

func TestExtendAdds(t *testing.T) {
	base := []string{"a"}
	// Input 2 repeats an item; 0 and 1 overlap in c.
	items := [][]string{{"a", "c", "d"}, {"c", "e"}, {"f", "f", "a"}, {"a"}}
	keep, adds := ExtendAdds(base, items, []int{3, 2, 1, 1})
	if want := Extend(base, items, []int{3, 2, 1, 1}); !reflect.DeepEqual(keep, want) {
		t.Fatalf("keep %v, Extend %v", keep, want)
	}
	seen := map[string]bool{"a": true}
	for k, i := range keep {
		if len(adds[k]) == 0 {
			t.Errorf("input %d kept for nothing", i)
		}
		for _, it := range adds[k] {
			if seen[it] {
				t.Errorf("input %d adds %s again", i, it)
			}
			seen[it] = true
		}
	}
	for _, it := range []string{"c", "d", "e", "f"} {
		if !seen[it] {
			t.Errorf("%s not added", it)
		}
	}
	if keep, adds := ExtendAdds(base, [][]string{{"a"}}, []int{1}); keep != nil || adds != nil {
		t.Errorf("nothing new: %v, %v", keep, adds)
	}
}
