module github.com/interpdemo/interpdemo/examples/ebiten-netplay

go 1.24.0

require (
	github.com/hajimehoshi/ebiten/v2 v2.8.8
	github.com/interpdemo/interpdemo/input v0.0.0
	github.com/interpdemo/interpdemo/loop v0.0.0
	github.com/interpdemo/interpdemo/netplay v0.0.0
	github.com/interpdemo/interpdemo/netplay/webrtc v0.0.0
	github.com/jezek/xgb v1.1.1
)

require (
	github.com/coder/websocket v1.8.15 // indirect
	github.com/ebitengine/gomobile v0.0.0-20240911145611-4856209ac325 // indirect
	github.com/ebitengine/hideconsole v1.0.0 // indirect
	github.com/ebitengine/purego v0.8.0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/pion/datachannel v1.6.3 // indirect
	github.com/pion/dtls/v3 v3.1.15 // indirect
	github.com/pion/ice/v4 v4.4.8 // indirect
	github.com/pion/interceptor v0.1.51 // indirect
	github.com/pion/logging v0.2.4 // indirect
	github.com/pion/mdns/v2 v2.2.2 // indirect
	github.com/pion/randutil v0.1.0 // indirect
	github.com/pion/rtcp v1.2.20 // indirect
	github.com/pion/rtp v1.10.6 // indirect
	github.com/pion/sctp v1.12.0 // indirect
	github.com/pion/sdp/v3 v3.0.20 // indirect
	github.com/pion/srtp/v3 v3.1.3 // indirect
	github.com/pion/stun/v4 v4.0.1 // indirect
	github.com/pion/transport/v5 v5.1.4 // indirect
	github.com/pion/turn/v5 v5.1.3 // indirect
	github.com/pion/webrtc/v4 v4.2.26 // indirect
	github.com/wlynxg/anet v0.0.5 // indirect
	golang.org/x/crypto v0.48.0 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/net v0.50.0 // indirect
	golang.org/x/sync v0.8.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
	golang.org/x/time v0.14.0 // indirect
)

replace (
	github.com/interpdemo/interpdemo/input => ../../input
	github.com/interpdemo/interpdemo/loop => ../../loop
	github.com/interpdemo/interpdemo/netplay => ../../netplay
	github.com/interpdemo/interpdemo/netplay/webrtc => ../../netplay/webrtc
)
