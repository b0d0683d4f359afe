module example.com/fuzzexp

go 1.22
