module example.com/realshapes

go 1.12
