#version 330 core

// A ball as the demo draws it: an anti-aliased disc, computed from the
// fragment's distance to the ball's centre (the sprite coordinate, or a
// square's offset; no texture fetch), coverage falling from 1 to 0
// across the pixel at the edge. The same disc as ball.frag's with ring 0
// and opacity 1, without the uniforms and the branch a ghost ring needs:
// a software rasterizer runs this for every fragment of every sprite.
#ifdef QUADS
// Drawn as a square (render/quads.go): q is the offset from the ball's
// centre in pixels.
#ifdef GL_ES
in vec3 color;
in vec2 q;
#else
noperspective in vec3 color;
noperspective in vec2 q;
#endif
#define DISTANCE length(q)
#else
flat in vec3 color;
uniform float pointSize;   // sprite size in pixels
#define DISTANCE (length(gl_PointCoord - vec2(0.5)) * pointSize)
#endif

uniform float radiusPx;    // disc radius in pixels
// The rectangle being repainted, in window coordinates (x0, y0, x1, y1,
// GL's origin at the bottom left). The scissor limits drawing to it as
// well, but Mesa's llvmpipe lets a point sprite through one row below the
// scissor's bottom edge: where two repainted rectangles meet, a sprite
// crossing the edge would be blended twice there. A frame painted whole
// compiles this with WHOLE_FRAME defined and no test: the renderer clears
// the row below the world again instead, and on llvmpipe the test costs
// a fifth of a frame at 10,000 balls.
uniform vec4 clip;

out vec4 fragColor;

void main() {
#ifndef WHOLE_FRAME
    if (any(lessThan(gl_FragCoord.xy, clip.xy)) || any(greaterThanEqual(gl_FragCoord.xy, clip.zw))) {
        discard;
    }
#endif
    float a = clamp(radiusPx + 0.5 - DISTANCE, 0.0, 1.0);
    // Outside the disc a is 0: blended (premultiplied), the fragment
    // leaves the pixel as it was. BLEND_OUTSIDE blends it rather than
    // discarding it, where that is cheaper: on SwiftShader (the page)
    // frames at 10,000 balls ran 11 % faster.
#ifndef BLEND_OUTSIDE
    if (a <= 0.0) {
        discard;
    }
#endif
    fragColor = vec4(color * a, a); // premultiplied alpha
}
