#version 330 core

// An anti-aliased ring three pixels wide, just inside the sprite's edge.
flat in vec4 tint;

uniform float pointSize; // sprite size in pixels
uniform float radiusPx;  // the ring's outer radius in pixels

out vec4 fragColor;

void main() {
    float d = length(gl_PointCoord - vec2(0.5)) * pointSize;
    float a = clamp(radiusPx + 0.5 - d, 0.0, 1.0) * clamp(d - (radiusPx - 3.0) + 0.5, 0.0, 1.0);
    if (a <= 0.0) {
        discard;
    }
    fragColor = tint * a;
}
