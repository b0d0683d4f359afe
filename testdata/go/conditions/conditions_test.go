package conditions

import "testing"

func TestConditions(t *testing.T) {
	if Calls(0, 0, 0) != 1 || Calls(0, 1, 0) != 0 || Calls(1, 0, 0) != 0 {
		t.Error("Calls")
	}
	if !Five(1, 1, 0, 0, 1) || Five(1, 0, 0, 0, 1) || !Five(1, 0, 3, 0, 1) || Five(0, 1, 1, 1, 1) {
		t.Error("Five")
	}
	if !Ret(1, 1) || Ret(0, 1) || !Assign(0, 1) || Assign(0, 0) || Arg(1, 1) || !Arg(0, 1) {
		t.Error("Ret, Assign, Arg")
	}
	if Init(false, false) != 1 || Init(true, false) != 0 || Post(5, 1) != 3 {
		t.Error("Init, Post")
	}
	if Goto([]int{1, 2, 9}, 5) != -1 || Goto([]int{1, 2, 3, 4}, 5) != 4 {
		t.Error("Goto")
	}
	if !Same(4, 0) || Same(0, 0) {
		t.Error("Same")
	}
	if got := Retry(3); got != 3 {
		t.Errorf("Retry(3) = %d, want 3", got)
	}
}
