module example.com/decisions

go 1.22
