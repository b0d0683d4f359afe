package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"text/template"
	"time"

	"github.com/labelcov/labelcov/fuzzdriver/compare"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// slurmArray is the --slurm-array value N[%K]: N array tasks, at most K
// running at once (0: no limit).
type slurmArray struct{ tasks, throttle int }

func parseSlurmArray(s string) (slurmArray, error) {
	n, k, throttled := strings.Cut(s, "%")
	a := slurmArray{}
	var err error
	if a.tasks, err = strconv.Atoi(n); err != nil || a.tasks < 1 {
		return a, fmt.Errorf("--slurm-array %q: want N or N%%K, N array tasks (at least 1), at most K running at once", s)
	}
	if throttled {
		if a.throttle, err = strconv.Atoi(k); err != nil || a.throttle < 1 {
			return a, fmt.Errorf("--slurm-array %q: the K of N%%K (tasks running at once) must be at least 1", s)
		}
	}
	return a, nil
}

// slurmOnlyFlags go into the script's header, not into its compare commands;
// the tasks get --shard and --out of their own, and their --workers from
// --cpus-per-task; --md and --note are the merge's.
var slurmOnlyFlags = map[string]bool{"slurm-script": true, "slurm-array": true, "shard": true, "out": true,
	"workers": true, "md": true, "note": true}

// slurmScript is what the script needs beyond the grid.
type slurmScript struct {
	Command    string // the compare command that wrote the script
	Grid       string // the grid in words
	Cells      int
	Tasks      int
	PerTask    int    // campaigns per task, at most
	Throttle   int    // tasks running at once, 0: no limit
	CPUs       int    // --cpus-per-task: campaigns a task runs at once
	Time       string // time limit of a task
	Budget     time.Duration
	Exe        string // the labelcov binary (quoted)
	Dir        string // the working directory of every command (quoted)
	Out        string // --out (quoted)
	Tail       string // the grid's flags, quoted
	MergeFlags string // --md, --note of the merge, quoted
}

// writeSlurmScript writes the job-array script of grid g (instead of running
// it): each of N array tasks runs its shard i/N into OUT/shards/i, with
// --cpus-per-task campaigns at a time, and a job that depends on the whole
// array (afterok) merges the shards into OUT.
func writeSlurmScript(cmd *cobra.Command, o *compareOptions, g compare.Grid) error {
	if o.shard != "" {
		return errors.New("--shard does not go with --slurm-script: every task of the array runs its own shard")
	}
	cells := len(g.Cells())
	arr := slurmArray{tasks: cells}
	if o.slurmArray != "" {
		var err error
		if arr, err = parseSlurmArray(o.slurmArray); err != nil {
			return err
		}
		if arr.tasks > cells {
			return fmt.Errorf("--slurm-array %s: the grid has %d campaign(s), so at most %d tasks", o.slurmArray, cells, cells)
		}
	}
	cpus := 1
	if cmd.Flags().Changed("workers") {
		cpus = o.workers
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("locating the labelcov binary: %w", err)
	}
	wd, err := os.Getwd()
	if err != nil {
		return err
	}
	var tail []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if slurmOnlyFlags[f.Name] {
			return
		}
		tail = append(tail, flagArg(f))
	})
	var merge []string
	for _, name := range []string{"md", "note"} {
		if f := cmd.Flags().Lookup(name); f.Changed {
			merge = append(merge, flagArg(f))
		}
	}
	perTask := (cells + arr.tasks - 1) / arr.tasks
	waves := (perTask + cpus - 1) / cpus
	s := slurmScript{
		Command: commandLine(cmd, nil), Cells: cells, Tasks: arr.tasks, PerTask: perTask, Throttle: arr.throttle, CPUs: cpus,
		Time:   slurmTime(time.Duration(waves) * campaignLimit(g.Budget)),
		Budget: g.Budget, Exe: shellQuote(exe), Dir: shellQuote(wd), Out: shellQuote(o.out),
		Tail: strings.Join(tail, " "), MergeFlags: strings.Join(merge, " "),
		Grid: fmt.Sprintf("%s; criteria %s; %d run(s)", strings.Join(g.Benches, ","), strings.Join(g.Criteria, ","), g.Runs),
	}
	var b strings.Builder
	if err := slurmTemplate.Execute(&b, s); err != nil {
		return err
	}
	if err := o.guard.WriteFile("--slurm-script", o.slurmScript, []byte(b.String()), 0o755); err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%s: %d campaign(s) in %d Slurm array task(s) of at most %d, then the merge into %s; submit with: bash %s\n",
		o.slurmScript, cells, arr.tasks, perTask, o.out, shellQuote(o.slurmScript))
	return nil
}

// flagArg is --name value, quoted for a shell.
func flagArg(f *pflag.Flag) string {
	if f.Value.Type() == "bool" {
		return "--" + f.Name + "=" + f.Value.String()
	}
	v := f.Value.String()
	if sv, ok := f.Value.(pflag.SliceValue); ok {
		v = strings.Join(sv.GetSlice(), ",")
	}
	return "--" + f.Name + " " + shellQuote(v)
}

// campaignLimit is the wall-clock time one campaign of budget b may take:
// the budget, then replaying the corpus on the yardstick and minimizing
// the findings, and starting up (a tenth of the budget and a minute).
func campaignLimit(b time.Duration) time.Duration {
	return b + b/10 + time.Minute
}

// slurmTime formats a task's time limit (plus 5 minutes for the report of
// the shard) as Slurm's D-HH:MM:SS, rounded up to the minute.
func slurmTime(d time.Duration) string {
	d += 5 * time.Minute
	m := int((d + time.Minute - 1) / time.Minute)
	return fmt.Sprintf("%d-%02d:%02d:00", m/(24*60), m/60%24, m%60)
}

var slurmTemplate = template.Must(template.New("slurm").Parse(`#!/bin/bash
# A labelcov comparison grid as a Slurm job array, written by
#   {{.Command}}
# {{.Cells}} campaign(s) of {{.Budget}} (benchmarks {{.Grid}})
# in {{.Tasks}} array task(s) of at most {{.PerTask}} campaign(s), {{.CPUs}} CPU(s) and as many campaigns
# at a time per task{{if .Throttle}}, at most {{.Throttle}} task(s) running at once{{end}}; then the report.
#
# Submit it with "bash THIS-SCRIPT" (not sbatch): that submits the array below
# and a merge job that starts once every task succeeded (afterok). Task i runs
# "compare --shard i/{{.Tasks}}" into OUT/shards/i, log OUT/slurm/labelcov-compare-ARRAYID_i.out;
# the merge job "compare --merge" into OUT. A task stopped by scancel or its
# time limit exits 3 and Slurm cancels the merge: submit the script again,
# finished campaigns are kept and unfinished ones rerun.
# Site options (partition, account, QOS): export SBATCH_PARTITION=... and
# SBATCH_ACCOUNT=... before submitting, or add #SBATCH lines below.
#
#SBATCH --job-name=labelcov-compare
#SBATCH --array=1-{{.Tasks}}{{if .Throttle}}%{{.Throttle}}{{end}}
#SBATCH --cpus-per-task={{.CPUs}}
#SBATCH --time={{.Time}}
set -euo pipefail

# The binary that wrote this script; set LABELCOV to use another one.
labelcov=${LABELCOV:-{{.Exe}}}
script=$(realpath -- "$0")
cd {{.Dir}}
out={{.Out}}

if [ -z "${SLURM_ARRAY_TASK_ID:-}" ]; then
  mkdir -p "$out/slurm"
  array=$(sbatch --parsable --output="$out/slurm/%x-%A_%a.out" "$script")
  array=${array%%;*}
  merge=$(sbatch --parsable --job-name=labelcov-merge --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --cpus-per-task=1 --time=0-01:00:00 --output="$out/slurm/%x-%j.out" <<'MERGE'
#!/bin/bash
set -euo pipefail
cd {{.Dir}}
exec "${LABELCOV:-{{.Exe}}}" compare --merge --out {{.Out}} {{with .MergeFlags}}{{.}} {{end}}{{.Out}}/shards/*
MERGE
  )
  echo "submitted job array $array ({{.Tasks}} task(s)) and merge job ${merge%%;*}; the report goes to $out"
  exit 0
fi

# Task i of the array: its shard of the grid. --workers defaults to
# SLURM_CPUS_PER_TASK.
exec "$labelcov" compare {{.Tail}} --shard "$SLURM_ARRAY_TASK_ID/{{.Tasks}}" --out "$out/shards/$SLURM_ARRAY_TASK_ID"
`))
