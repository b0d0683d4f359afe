package realshapes

// IsSimpleName reports whether a path component has no special byte, as
// gjson's isSimpleName: a switch of more than eight case expressions, whose
// "an earlier case matched" temporaries no MC/DC label reads.
func IsSimpleName(component string) bool {
	for i := 0; i < len(component); i++ {
		if component[i] < ' ' {
			return false
		}
		switch component[i] {
		case '[', ']', '{', '}', '(', ')', '#', '|', '!':
			return false
		}
	}
	return true
}

// Both gives MC/DC a decision in the file.
func Both(a, b bool) bool { return a && b }
