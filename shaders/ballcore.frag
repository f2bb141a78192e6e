#version 330 core

// The opaque core of a ball: the square inscribed in the part of the disc
// where the anti-aliased edge has not begun. Drawn, depth only, for the
// nearest balls: the occluders of the occlusion culling (render/cull.go).
flat in vec3 color;

out vec4 fragColor;

void main() {
    fragColor = vec4(color, 1.0);
}
