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
uniform int highlightFirst; // 1: ball 0 (the player's) gets its own colour

flat out vec3 color;

vec3 palette(int i) {
    // A cheap integer hash of the ball index picks a hue.
    uint h = uint(i) * 2654435761u;
    h ^= h >> 15;
    float t = float(h & 1023u) / 1023.0;
    return 0.55 + 0.4 * cos(6.28318 * (t + vec3(0.0, 0.33, 0.67)));
}

void main() {
    vec2 p = mix(lastPos, nextPos, alpha);
    gl_Position = proj * vec4(p, 0.0, 1.0);
    gl_PointSize = pointSize;
    color = (gl_VertexID == 0 && highlightFirst == 1) ? vec3(1.0, 0.85, 0.2) : palette(gl_VertexID);
}
