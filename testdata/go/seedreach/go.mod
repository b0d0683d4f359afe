module example.com/seedreach

go 1.22
