module example.com/conditions

go 1.22
