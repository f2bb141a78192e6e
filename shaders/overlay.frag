#version 330 core

// The overlay images are premultiplied RGBA (Go's image.RGBA); they are
// blended with ONE, ONE_MINUS_SRC_ALPHA.
in vec2 uv;
uniform sampler2D tex;
out vec4 fragColor;

void main() {
    fragColor = texture(tex, uv);
}
