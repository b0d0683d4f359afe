module example.com/realbugs/bstoml

go 1.22

require github.com/BurntSushi/toml v1.0.0
