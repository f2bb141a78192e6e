#version 330 core

// Rings at a few positions given as uniforms (no vertex buffer): one point
// sprite per marker, gl_VertexID picks it. Used by the rollback ghosts to
// show where a remote ball was predicted and where the correction put it.
const int maxMarkers = 16;

uniform vec4 marker[maxMarkers]; // x, y in window pixels (origin top left); z, w unused
uniform vec4 color[maxMarkers];  // premultiplied RGBA
uniform vec2 window;             // window size in pixels
uniform float pointSize;         // sprite size in pixels

flat out vec4 tint;

void main() {
    vec2 p = marker[gl_VertexID].xy;
    gl_Position = vec4(p.x / window.x * 2.0 - 1.0, 1.0 - p.y / window.y * 2.0, 0.0, 1.0);
    gl_PointSize = pointSize;
    tint = color[gl_VertexID];
}
