module example.com/fleetfw

go 1.26
