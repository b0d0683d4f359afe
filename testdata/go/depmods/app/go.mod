module example.com/app

go 1.22

require example.com/dep v0.1.0

replace example.com/dep => ../dep
