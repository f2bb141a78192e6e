module github.com/interpdemo/interpdemo/loop

go 1.24.0
