module github.com/interpdemo/interpdemo/cmd/bench/engines/raylib

go 1.24.0

require (
	github.com/gen2brain/raylib-go/raylib v0.55.1
	github.com/interpdemo/interpdemo v0.0.0
	github.com/interpdemo/interpdemo/loop v0.0.0
)

require (
	github.com/ebitengine/purego v0.7.1 // indirect
	github.com/interpdemo/interpdemo/physics v0.0.0 // indirect
	golang.org/x/exp v0.0.0-20240506185415-9bf2ced13842 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace (
	github.com/interpdemo/interpdemo => ../../../..
	github.com/interpdemo/interpdemo/loop => ../../../../loop
	github.com/interpdemo/interpdemo/netplay => ../../../../netplay
	github.com/interpdemo/interpdemo/physics => ../../../../physics
)
