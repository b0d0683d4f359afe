package main

// labelPkgsUsage is the help of --label-pkgs, the same for every verb.
const labelPkgsUsage = "Go packages: label these packages (patterns, e.g. a dependency's import path example.com/dep/...) instead of the ones whose tests or fuzz target run; a dependency's module is copied and replaced in a private -modfile (your go.mod and module cache are never written)"
