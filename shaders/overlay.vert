#version 330 core

// A textured rectangle in window pixels (origin top left), for the HUD and
// the frame-time graph. No vertex buffer: the four corners of the triangle
// strip come from gl_VertexID.
uniform vec4 rect;      // x, y, width, height in window pixels
uniform vec2 window;    // window size in pixels
uniform vec2 texScale;  // the part of the texture to show (1 = all of it)

out vec2 uv;

void main() {
    int k = gl_VertexID < 3 ? gl_VertexID : gl_VertexID - 2; if (gl_VertexID == 3) k = 0;
    vec2 corner = vec2(float(k == 1 || k == 2), float(k >= 2));
    vec2 p = rect.xy + corner * rect.zw;
    uv = corner * texScale;
    gl_Position = vec4(p.x / window.x * 2.0 - 1.0, 1.0 - p.y / window.y * 2.0, 0.0, 1.0);
}
