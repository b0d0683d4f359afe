// Package easy holds the control: a bug any fuzzer finds at once.
package easy

import "strings"

// Fields splits a "key=value;key=value" list; empty elements are skipped
// and values may be quoted.
func Fields(s string) map[string]string {
	out := map[string]string{}
	for _, kv := range strings.Split(s, ";") {
		if kv == "" {
			continue
		}
		i := strings.IndexByte(kv, '=')
		// BUG: an element without '=' gives i == -1.
		k, v := kv[:i], kv[i+1:]
		if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
			v = v[1 : len(v)-1]
		}
		out[k] = v
	}
	return out
}
