module example.com/realbugs/gotomlv2

go 1.22

require github.com/pelletier/go-toml/v2 v2.0.0-beta.3
