// Package shaders holds the GLSL sources of the renderer as plain .glsl
// files, embedded at build time so they read and diff as GLSL.
package shaders

import _ "embed"

// Ball shaders: one point sprite per ball, placed on the GPU between its
// last and next logic positions, shaded as an anti-aliased disc (ball.frag
// also draws the ghost rings, and is the reference the lean disc.frag is
// compared with).
var (
	//go:embed ball.vert
	BallVert string
	//go:embed ball.frag
	BallFrag string
	//go:embed disc.frag
	DiscFrag string
)

// Overlay shaders: a textured rectangle in window pixels (HUD, graph).
var (
	//go:embed overlay.vert
	OverlayVert string
	//go:embed overlay.frag
	OverlayFrag string
)

// Marker shaders: a few rings at positions given as uniforms (the rollback
// ghosts: predicted and corrected positions).
var (
	//go:embed marker.vert
	MarkerVert string
	//go:embed marker.frag
	MarkerFrag string
)
