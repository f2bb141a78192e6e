#version 330 core

// One vertex per ball. Positions arrive as the world's fixed-point integers
// (GL converts them to float); the projection folds in the 1/256 scale.
layout(location = 0) in vec2 lastPos;
layout(location = 1) in vec2 nextPos;

uniform mat4 proj;
// Where between last (0) and next (1) to draw: percentWithinTick when
// interpolating, 1 with interpolation off, 1 + percent when extrapolating.
// This uniform is the only thing that changes on a frame with no tick.
uniform float alpha;
uniform float pointSize;  // sprite size in pixels, anti-aliasing margin included
uniform int highlightFirst; // 1: ball highlightBall gets the player's colour (ball 0 unless set)
uniform int highlightBall;  // the player's ball: yours in a network game (0 by default)
// The depth of ball i is 1 - depthStep * (i + 1) in clip space: later
// balls, drawn over earlier ones, are nearer. depthStep is 2 / (balls + 1),
// so every ball has a depth of its own, even at a million balls in a
// 24-bit depth buffer. Only the occlusion culling uses depths.
uniform float depthStep;
// Occlusion culling (cull == 1): hiZ holds, per cell of cullCell x
// cullCell window pixels, the farthest depth of the occluders' opaque
// cores there (1 where there is none). A ball whose sprite lies only over
// cells that nearer cores cover entirely is hidden: it is moved out of the
// clip volume, and the rasterizer never sees it.
uniform int cull;
uniform sampler2D hiZ;
uniform int cullCell;
uniform vec4 viewport; // x, y, width, height of the viewport in window pixels

flat out vec3 color;

vec3 palette(int i) {
    // A cheap integer hash of the ball index picks a hue.
    uint h = uint(i) * 2654435761u;
    h ^= h >> 15;
    float t = float(h & 1023u) / 1023.0;
    return 0.55 + 0.4 * cos(6.28318 * (t + vec3(0.0, 0.33, 0.67)));
}

bool hidden(vec4 clip) {
    vec2 w = viewport.xy + (clip.xy * 0.5 + 0.5) * viewport.zw; // window pixels
    float depth = clip.z * 0.5 + 0.5;
    ivec2 last = textureSize(hiZ, 0) - 1;
    ivec2 lo = clamp(ivec2(floor((w - 0.5 * pointSize) / float(cullCell))), ivec2(0), last);
    ivec2 hi = clamp(ivec2(floor((w + 0.5 * pointSize) / float(cullCell))), ivec2(0), last);
    // Nearer by at least half the gap between two balls' depths (the gap
    // is depthStep/2 in window depth): a ball's own core, stored with
    // rounding, never hides it; the next ball's always may.
    float limit = depth - 0.25 * depthStep;
    for (int y = lo.y; y <= hi.y; y++) {
        for (int x = lo.x; x <= hi.x; x++) {
            if (texelFetch(hiZ, ivec2(x, y), 0).r >= limit) {
                return false;
            }
        }
    }
    return true;
}

void main() {
    vec2 p = mix(lastPos, nextPos, alpha);
    gl_Position = proj * vec4(p, 0.0, 1.0);
    gl_Position.z = 1.0 - depthStep * (float(gl_VertexID) + 1.0);
    gl_PointSize = pointSize;
    if (cull == 1 && hidden(gl_Position)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: dropped
    }
    color = (highlightFirst == 1 && gl_VertexID == highlightBall) ? vec3(1.0, 0.85, 0.2) : palette(gl_VertexID);
}
