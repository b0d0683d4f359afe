package realshapes

// Renderer rewrites some bytes of a text, as gomarkdown's smartypants
// renderer.
type Renderer struct {
	callbacks [256]func(prev byte) string
	inQuote   bool
}

func (r *Renderer) amp(angled, nbsp bool) func(prev byte) string {
	return func(prev byte) string {
		if angled && nbsp {
			return "&laquo;&nbsp;"
		}
		if angled {
			return "&laquo;"
		}
		if nbsp || prev == ' ' {
			return "&amp;&nbsp;"
		}
		return "&amp;"
	}
}

func (r *Renderer) quote(prev byte) string {
	r.inQuote = !r.inQuote
	if r.inQuote && prev != ' ' {
		return "&ldquo;"
	}
	return "&rdquo;"
}

// NewRenderer builds a renderer; its grouped var declaration calls methods
// of r, which an earlier spec of the group declares.
func NewRenderer(flags int) *Renderer {
	var (
		r Renderer

		ampAngled  = r.amp(true, flags&4 != 0)
		ampRegular = r.amp(false, flags&4 != 0)

		angled = flags&1 != 0
		width  = flags*2 + 1
		limit  = width - len(r.callbacks)/128
	)

	if angled {
		r.callbacks['&'] = ampAngled
	} else {
		r.callbacks['&'] = ampRegular
	}
	if limit > 2 && flags&2 != 0 {
		r.callbacks['"'] = r.quote
	}
	return &r
}

// Process rewrites text.
func (r *Renderer) Process(text string) string {
	out := ""
	for i := 0; i < len(text); i++ {
		prev := byte(' ')
		if i > 0 {
			prev = text[i-1]
		}
		if cb := r.callbacks[text[i]]; cb != nil {
			out += cb(prev)
			continue
		}
		out += text[i : i+1]
	}
	return out
}
