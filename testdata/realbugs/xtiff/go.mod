module example.com/realbugs/xtiff

go 1.22

require golang.org/x/image v0.17.0
