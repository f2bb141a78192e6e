module github.com/interpdemo/interpdemo

go 1.24.0

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/mathgl v1.2.0
	github.com/interpdemo/interpdemo/loop v0.0.0
	github.com/interpdemo/interpdemo/netplay v0.0.0
	github.com/veandco/go-sdl2 v0.4.39
	golang.org/x/image v0.30.0
	golang.org/x/sys v0.35.0
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	golang.org/x/text v0.28.0 // indirect
)

// The library's modules, in this repository until they are published.
replace (
	github.com/interpdemo/interpdemo/loop => ./loop
	github.com/interpdemo/interpdemo/netplay => ./netplay
)
