module github.com/interpdemo/interpdemo/atomicfile

go 1.24.0

require golang.org/x/sys v0.41.0
