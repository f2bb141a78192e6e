#version 330 core

// A textured rectangle in window pixels (origin top left), for the HUD and
// the frame-time graph, one texel per pixel. No vertex buffer: the four
// corners of the triangle strip come from gl_VertexID.
uniform vec4 rect;      // x, y, width, height in window pixels
uniform vec2 window;    // window size in pixels

out vec2 texel; // the texel under the pixel: its centre interpolates to k + 0.5

void main() {
    vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
    vec2 p = rect.xy + corner * rect.zw;
    texel = corner * rect.zw;
    gl_Position = vec4(p.x / window.x * 2.0 - 1.0, 1.0 - p.y / window.y * 2.0, 0.0, 1.0);
}
