module github.com/interpdemo/interpdemo/replay

go 1.24.0

require (
	github.com/interpdemo/interpdemo/atomicfile v0.0.0
	github.com/interpdemo/interpdemo/input v0.0.0
)

require golang.org/x/sys v0.41.0 // indirect

// The repository's own modules, found beside this one until they are
// published.
replace (
	github.com/interpdemo/interpdemo/atomicfile => ../atomicfile
	github.com/interpdemo/interpdemo/input => ../input
)
