module example.com/realbugs/gotoml

go 1.22

require github.com/pelletier/go-toml v1.9.4
