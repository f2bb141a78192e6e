module github.com/interpdemo/interpdemo/examples/ebiten

go 1.24.0

require (
	github.com/hajimehoshi/ebiten/v2 v2.8.8
	github.com/interpdemo/interpdemo/input v0.0.0
	github.com/interpdemo/interpdemo/loop v0.0.0
	github.com/interpdemo/interpdemo/physics v0.0.0
)

require (
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/jezek/xgb v1.1.1 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace (
	github.com/interpdemo/interpdemo/input => ../../input
	github.com/interpdemo/interpdemo/loop => ../../loop
	github.com/interpdemo/interpdemo/physics => ../../physics
)
