module example.com/realbugs/xtext

go 1.22

require golang.org/x/text v0.3.4
