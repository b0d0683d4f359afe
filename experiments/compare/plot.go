package compare

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// palette holds one color per guiding criterion (Okabe-Ito, readable by
// color-blind readers); none is always the first, black-ish.
var palette = []color.NRGBA{
	{0x33, 0x33, 0x33, 0xff}, // none
	{0xd5, 0x5e, 0x00, 0xff},
	{0x00, 0x72, 0xb2, 0xff},
	{0x00, 0x9e, 0x73, 0xff},
	{0xcc, 0x79, 0xa7, 0xff},
	{0xe6, 0x9f, 0x00, 0xff},
	{0x56, 0xb4, 0xe9, 0xff},
}

func colorOf(i int) color.NRGBA { return palette[i%len(palette)] }

// Plots writes, for every benchmark and measuring criterion, the coverage
// over time as dir/coverage-BENCH-MEASURE.EXT for each extension (png,
// svg), and returns the files written.
func (r *Report) Plots(dir string, exts ...string) ([]string, error) {
	var files []string
	for _, br := range r.Results {
		for _, m := range br.Measures {
			fig, err := r.coveragePlot(br, m)
			if err != nil {
				return files, err
			}
			for _, ext := range exts {
				f := filepath.Join(dir, plotName(br.Bench, m)+"."+ext)
				if err := fig.save(18*vg.Centimeter, 10*vg.Centimeter, f); err != nil {
					return files, fmt.Errorf("plot %s: %w", f, err)
				}
				files = append(files, f)
			}
		}
	}
	return files, nil
}

// stepAt is the covered count of a run at time t: the last sample at or
// before t (0 before the first sample).
func stepAt(s Series, m string, t float64) int {
	cov := s.Covered[m]
	i := sort.Search(len(s.ElapsedS), func(i int) bool { return s.ElapsedS[i] > t })
	if i == 0 || i-1 >= len(cov) {
		return 0
	}
	return cov[i-1]
}

// figure is a plot with its legend drawn beside the axes, where it hides
// neither an axis nor a curve.
type figure struct {
	p      *plot.Plot
	legend plot.Legend
}

// save writes the figure to path in the format its extension names.
func (f *figure) save(w, h vg.Length, path string) error {
	c, err := draw.NewFormattedCanvas(w, h, strings.TrimPrefix(filepath.Ext(path), "."))
	if err != nil {
		return err
	}
	dc := draw.New(c)
	lw := f.legend.Rectangle(dc).Size().X + 3*vg.Millimeter
	f.p.Draw(draw.Crop(dc, 0, -lw, 0, 0))
	// Top-aligned with the axes: below the title.
	titleH := f.p.Title.TextStyle.Rectangle(f.p.Title.Text).Size().Y + f.p.Title.Padding
	f.legend.Draw(draw.Crop(dc, w-lw+2*vg.Millimeter, 0, 0, -titleH-vg.Millimeter))
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(out); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// timeAxisMin is where the logarithmic time axis starts: the power of ten
// at or below the first coverage sample, so the curves start at the left
// edge and no decade of the plot is empty (finds made before it are drawn
// at the edge), and at most a tenth of the budget.
func timeAxisMin(first, budget float64) float64 {
	if first <= 0 || math.IsInf(first, 1) {
		first = budget / 10
	}
	x := math.Pow(10, math.Floor(math.Log10(first)))
	return math.Max(math.Min(x, budget/10), budget*1e-6)
}

// yRange is the coverage axis for curves between lo and hi percent: the
// span where the campaign spends its time, but at least 10 points, never
// below 0 and ending at hi (a flat 100 % line sits at the top of a 90–100
// axis, not in the middle of 99–101).
func yRange(lo, hi float64) (float64, float64) {
	const minSpan = 10
	if hi-lo < minSpan {
		lo = math.Max(hi-minSpan, 0)
		if hi-lo < minSpan {
			hi = lo + minSpan
		}
	}
	return lo, hi
}

func (r *Report) coveragePlot(br BenchReport, m string) (*figure, error) {
	p := plot.New()
	total := br.Totals[m]
	p.Title.Text = fmt.Sprintf("%s: %s coverage over time", br.Bench, m)
	p.X.Label.Text = "campaign time (s, log scale)"
	p.Y.Label.Text = fmt.Sprintf("%s covered (%% of %d)", m, total)
	budget := r.BudgetS
	for _, rr := range br.Runs {
		if n := len(rr.Series.ElapsedS); n > 0 {
			budget = math.Max(budget, rr.Series.ElapsedS[n-1])
		}
	}
	// Coverage of fuzzing campaigns moves most in the first moments: a
	// logarithmic time axis from the first coverage sample shows both
	// ends (earlier finds sit at its left edge).
	first := math.Inf(1)
	for _, rr := range br.Runs {
		if len(rr.Series.ElapsedS) > 0 && rr.Series.ElapsedS[0] > 0 {
			first = math.Min(first, rr.Series.ElapsedS[0])
		}
	}
	xmin := timeAxisMin(first, budget)
	var grid []float64
	const points = 400
	for i := 0; i <= points; i++ {
		grid = append(grid, xmin*math.Pow(budget/xmin, float64(i)/points))
	}
	pct := func(c int) float64 {
		if total == 0 {
			return 0
		}
		return 100 * float64(c) / float64(total)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	type curve struct {
		crit                string
		idx                 int
		med, bandLo, bandHi plotter.XYs
		finds               []float64
	}
	var curves []curve
	for ci, crit := range r.Criteria {
		var runs []RunReport
		for _, rr := range br.Runs {
			if rr.Criterion == crit {
				runs = append(runs, rr)
			}
		}
		if len(runs) == 0 {
			continue
		}
		cv := curve{crit: crit, idx: ci}
		vals := make([]float64, len(runs))
		// Coverage is sampled (every StatsInterval): the curves start
		// where every run has its first sample (finds are timed exactly).
		start := 0.0
		for _, rr := range runs {
			if len(rr.Series.ElapsedS) > 0 {
				start = math.Max(start, rr.Series.ElapsedS[0])
			}
		}
		for _, t := range append([]float64{start}, grid...) {
			if t < start {
				continue
			}
			for i, rr := range runs {
				vals[i] = pct(stepAt(rr.Series, m, t))
			}
			sort.Float64s(vals)
			med := vals[len(vals)/2]
			if len(vals)%2 == 0 {
				med = (vals[len(vals)/2-1] + vals[len(vals)/2]) / 2
			}
			// Coverage is a step function: hold the previous value up to t.
			if n := len(cv.med); n > 0 {
				cv.med = append(cv.med, plotter.XY{X: t, Y: cv.med[n-1].Y})
				cv.bandLo = append(cv.bandLo, plotter.XY{X: t, Y: cv.bandLo[n-1].Y})
				cv.bandHi = append(cv.bandHi, plotter.XY{X: t, Y: cv.bandHi[n-1].Y})
			}
			cv.med = append(cv.med, plotter.XY{X: t, Y: med})
			cv.bandLo = append(cv.bandLo, plotter.XY{X: t, Y: vals[0]})
			cv.bandHi = append(cv.bandHi, plotter.XY{X: t, Y: vals[len(vals)-1]})
			hi = math.Max(hi, vals[len(vals)-1])
		}
		for _, rr := range runs {
			if c := rr.Series.Covered[m]; len(c) > 0 {
				lo = math.Min(lo, pct(c[0]))
			}
			for _, f := range rr.Findings {
				cv.finds = append(cv.finds, math.Max(f.TimeS, xmin))
			}
		}
		curves = append(curves, cv)
	}
	if len(curves) == 0 || math.IsInf(lo, 1) || math.IsInf(hi, -1) {
		lo, hi = 0, 100
	}
	// The curves start at 0 at time 0; scale to where they spend the
	// campaign (from the lowest value after 0) so differences show.
	lo, hi = yRange(lo, hi)
	span := hi - lo
	lane := span * 0.07 // each criterion's find ticks get a lane of their own, readable
	lanes := float64(len(curves))
	p.Y.Min = lo - (lanes+0.1)*lane
	p.Y.Max = hi + 0.05*span
	p.X.Min, p.X.Max = xmin, budget
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	// The legend goes beside the axes (figure.save), never over them.
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true

	p.Add(plotter.NewGrid())
	for j, cv := range curves {
		c := colorOf(cv.idx)
		band := append(plotter.XYs{}, cv.bandHi...)
		for i := len(cv.bandLo) - 1; i >= 0; i-- {
			band = append(band, cv.bandLo[i])
		}
		poly, err := plotter.NewPolygon(clip(band, p.Y.Min))
		if err != nil {
			return nil, err
		}
		poly.Color = color.NRGBA{c.R, c.G, c.B, 0x38}
		poly.LineStyle.Width = 0
		line, err := plotter.NewLine(clip(cv.med, p.Y.Min))
		if err != nil {
			return nil, err
		}
		line.LineStyle = draw.LineStyle{Color: c, Width: vg.Points(1.5)}
		if cv.idx > 0 {
			line.LineStyle.Dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(2)}, {vg.Points(2), vg.Points(2)},
				{vg.Points(6), vg.Points(2), vg.Points(2), vg.Points(2)}}[cv.idx%4]
		}
		y1 := lo - float64(j)*lane - 0.15*lane
		ticks := &tickMarks{xs: cv.finds, y0: y1 - 0.7*lane, y1: y1, style: draw.LineStyle{Color: c, Width: vg.Points(1)}}
		p.Add(poly, line, ticks)
		legend.Add(fmt.Sprintf("%s (%d runs)", cv.crit, countRuns(br, cv.crit)), line)
	}
	return &figure{p: p, legend: legend}, nil
}

// clip raises points below y to y, so the area under the tick lanes stays
// free (curves start at 0 at time 0).
func clip(xys plotter.XYs, y float64) plotter.XYs {
	out := make(plotter.XYs, len(xys))
	for i, p := range xys {
		if p.Y < y {
			p.Y = y
		}
		out[i] = p
	}
	return out
}

func countRuns(br BenchReport, crit string) int {
	n := 0
	for _, rr := range br.Runs {
		if rr.Criterion == crit {
			n++
		}
	}
	return n
}

// tickMarks draws a short vertical line at each x between y0 and y1.
type tickMarks struct {
	xs     []float64
	y0, y1 float64
	style  draw.LineStyle
}

func (t *tickMarks) Plot(c draw.Canvas, plt *plot.Plot) {
	trX, trY := plt.Transforms(&c)
	for _, x := range t.xs {
		px := trX(x)
		c.StrokeLine2(t.style, px, trY(t.y0), px, trY(t.y1))
	}
}

func (t *tickMarks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	for _, x := range t.xs {
		xmin, xmax = math.Min(xmin, x), math.Max(xmax, x)
	}
	// No ticks: +Inf/-Inf leave the axis as it is (0 would drag a
	// logarithmic axis to 0, which gonum refuses with a panic).
	return xmin, xmax, t.y0, t.y1
}
