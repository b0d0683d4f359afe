module example.com/goguards

go 1.22
