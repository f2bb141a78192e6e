module github.com/interpdemo/interpdemo

go 1.24.0

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71
	github.com/go-gl/mathgl v1.2.0
	github.com/interpdemo/interpdemo/atomicfile v0.0.0
	github.com/interpdemo/interpdemo/input v0.0.0
	github.com/interpdemo/interpdemo/loop v0.0.0
	github.com/interpdemo/interpdemo/netplay v0.0.0
	github.com/interpdemo/interpdemo/netplay/webrtc v0.0.0
	github.com/interpdemo/interpdemo/physics v0.0.0
	github.com/interpdemo/interpdemo/replay v0.0.0
	github.com/pion/logging v0.2.4
	github.com/pion/turn/v5 v5.1.3
	github.com/veandco/go-sdl2 v0.4.39
	golang.org/x/image v0.30.0
	golang.org/x/sys v0.41.0
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/coder/websocket v1.8.15 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pion/datachannel v1.6.3 // indirect
	github.com/pion/dtls/v3 v3.1.15 // indirect
	github.com/pion/ice/v4 v4.4.8 // indirect
	github.com/pion/interceptor v0.1.51 // indirect
	github.com/pion/mdns/v2 v2.2.2 // indirect
	github.com/pion/randutil v0.1.0 // indirect
	github.com/pion/rtcp v1.2.20 // indirect
	github.com/pion/rtp v1.10.6 // indirect
	github.com/pion/sctp v1.12.0 // indirect
	github.com/pion/sdp/v3 v3.0.20 // indirect
	github.com/pion/srtp/v3 v3.1.3 // indirect
	github.com/pion/stun/v4 v4.0.1 // indirect
	github.com/pion/transport/v5 v5.1.4 // indirect
	github.com/pion/webrtc/v4 v4.2.26 // indirect
	github.com/wlynxg/anet v0.0.5 // indirect
	golang.org/x/crypto v0.48.0 // indirect
	golang.org/x/net v0.50.0 // indirect
	golang.org/x/text v0.34.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

// The library's modules, in this repository until they are published.
replace (
	github.com/interpdemo/interpdemo/atomicfile => ./atomicfile
	github.com/interpdemo/interpdemo/input => ./input
	github.com/interpdemo/interpdemo/loop => ./loop
	github.com/interpdemo/interpdemo/netplay => ./netplay
	github.com/interpdemo/interpdemo/netplay/webrtc => ./netplay/webrtc
	github.com/interpdemo/interpdemo/physics => ./physics
	github.com/interpdemo/interpdemo/replay => ./replay
)
