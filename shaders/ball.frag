#version 330 core

// The disc is computed analytically from the fragment's distance to the
// ball's centre (the sprite coordinate, or a square's offset): no texture
// fetch. The edge is anti-aliased over one pixel.
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
// crossing the edge would be blended twice there. Compiled with
// WHOLE_FRAME defined, for frames painted whole, there is no test (see
// disc.frag).
uniform vec4 clip;
uniform float ring;        // 0: filled disc; > 0: ring of this width (ghost markers)
uniform float opacity;

out vec4 fragColor;

void main() {
#ifndef WHOLE_FRAME
    if (any(lessThan(gl_FragCoord.xy, clip.xy)) || any(greaterThanEqual(gl_FragCoord.xy, clip.zw))) {
        discard;
    }
#endif
    float d = DISTANCE;
    float a = clamp(radiusPx + 0.5 - d, 0.0, 1.0);
    if (ring > 0.0) {
        a *= clamp(d - (radiusPx - ring) + 0.5, 0.0, 1.0);
    }
    if (a <= 0.0) {
        discard;
    }
    // Premultiplied alpha, like the overlays: one blend function
    // (ONE, ONE_MINUS_SRC_ALPHA) serves every draw.
    float k = a * opacity;
    fragColor = vec4(color * k, k);
}
