#version 330 core

// The overlay images are premultiplied RGBA (Go's image.RGBA); they are
// blended with ONE, ONE_MINUS_SRC_ALPHA. One texel per pixel: fetched by
// its integer coordinates, with no filtering or level of detail to work
// out (a software rasterizer runs this for every pixel an overlay
// repaints).
in vec2 texel;
uniform sampler2D tex;
out vec4 fragColor;

void main() {
    fragColor = texelFetch(tex, ivec2(texel), 0);
}
