// Package sample runs uniformly random inputs through a plan, without
// feedback, and counts per error category how many triggered it
// (`labelcov sample`): the baseline a guided fuzzer must beat. Input i
// depends only on the seed and i (Input), and each input runs through
// package fuzzdriver/runner, so the counts are the same for any number of
// workers. Only Report.Seconds and Report.RunsPerSec depend on the
// machine.
package sample
