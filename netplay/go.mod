module github.com/interpdemo/interpdemo/netplay

go 1.24.0
