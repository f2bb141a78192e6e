module github.com/interpdemo/interpdemo/input

go 1.24.0
