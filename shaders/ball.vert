#version 330 core

// One vertex per ball, a point sprite; or, compiled with QUADS defined,
// six per ball, the two triangles of a square (render/quads.go). Positions
// arrive as the world's fixed-point integers (GL converts them to float);
// the projection folds in the 1/256 scale.
#ifdef QUADS
// A square's six vertices read their ball's positions from buffer
// textures over the same buffers the points read as attributes; in
// WebGL2, which has no buffer textures, compiled with TEX2D_POSITIONS,
// from 2D textures of texWidth texels a row, copies of those buffers
// (internal/web/sprites.go).
#ifdef TEX2D_POSITIONS
uniform isampler2D lastTex;
uniform isampler2D nextTex;
uniform int texWidth;
#else
uniform isamplerBuffer lastTex;
uniform isamplerBuffer nextTex;
#endif
#define BALL (gl_VertexID / 6)
#else
layout(location = 0) in vec2 lastPos;
layout(location = 1) in vec2 nextPos;
#define BALL gl_VertexID
#endif

uniform mat4 proj;
// Where between last (0) and next (1) to draw: percentWithinTick when
// interpolating, 1 with interpolation off, 1 + percent when extrapolating.
// This uniform is the only thing that changes on a frame with no tick.
uniform float alpha;
uniform float pointSize;  // sprite size in pixels, anti-aliasing margin included
uniform int highlightFirst; // 1: ball highlightBall gets the player's colour (ball 0 unless set)
uniform int highlightBall;  // the player's ball: yours in a network game (0 by default)
// The viewport in window pixels (x, y from the bottom left, w, h).
uniform vec4 viewport;

#ifdef CELL_CULL
// Occlusion culling (cellCull == 1, render/cellcull.go): cells holds, for
// every row of cells of cellSize x cellSize pixels of the world's view,
// windows of cellWin cells: texel (x, y) is the first ball from which on
// every ball covers each of the cells x-(cellWin-1) to x of row y at full
// opacity. A ball whose disc reaches only cells that later balls cover is
// moved out of the clip volume, and the rasterizer never sees it.
// cellOrigin is the view's top left in GL's window coordinates (y from
// the bottom); cellReach how far from its centre the disc has coverage,
// in pixels.
uniform int cellCull;
uniform isampler2D cells;
uniform vec2 cellOrigin;
uniform float cellReach;
uniform int cellWin;
uniform int cellSize;

bool hidden(vec4 clip) {
    vec2 w = viewport.xy + (clip.xy * 0.5 + 0.5) * viewport.zw; // window pixels
    vec2 v = vec2(w.x - cellOrigin.x, cellOrigin.y - w.y);      // the view's, from its top left
    float size = float(cellSize);
    int y0 = int(floor((v.y - cellReach) / size));
    int y1 = int(floor((v.y + cellReach) / size));
    ivec2 n = textureSize(cells, 0);
    for (int y = y0; y <= y1; y++) {
        // The row's pixel centres nearest the ball's centre, and the
        // pixel columns whose centres the disc reaches there.
        float top = float(y) * size + 0.5;
        float dy = v.y - clamp(v.y, top, top + size - 1.0);
        float h2 = cellReach * cellReach - dy * dy;
        if (h2 <= 0.0 || y < 0 || y >= n.y) {
            continue; // the disc misses the row, or the row is outside the view
        }
        float h = sqrt(h2);
        // The first and last cell reached in the view, and the windows
        // from the one and to the other.
        int a = max(int(floor(ceil(v.x - h - 0.5) / size)), 0);
        int b = min(int(floor(floor(v.x + h - 0.5) / size)), n.x - cellWin);
        if (a > b) {
            continue; // outside the view
        }
        if (min(texelFetch(cells, ivec2(a + cellWin - 1, y), 0).r, texelFetch(cells, ivec2(b, y), 0).r) <= BALL) {
            return false;
        }
    }
    return true;
}
#endif

#ifdef QUADS
// No flat attribute, which would keep Mesa's llvmpipe from rasterizing
// the square as a rectangle: the colour, the same at every vertex, is
// interpolated to itself. q is the offset from the ball's centre in
// pixels, which the disc's edge is measured by (a point sprite's
// gl_PointCoord, scaled).
#ifdef GL_ES
// GLSL ES 3.00 has no noperspective; with w = 1 everywhere (an
// orthographic projection) perspective-correct interpolation is the same.
out vec3 color;
out vec2 q;
#else
noperspective out vec3 color;
noperspective out vec2 q;
#endif
const vec2 corners[6] = vec2[6](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
                                vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0));
#else
flat out vec3 color;
#endif

vec3 palette(int i) {
    // A cheap integer hash of the ball index picks a hue.
    uint h = uint(i) * 2654435761u;
    h ^= h >> 15;
    float t = float(h & 1023u) / 1023.0;
    return 0.55 + 0.4 * cos(6.28318 * (t + vec3(0.0, 0.33, 0.67)));
}

void main() {
#if defined(QUADS) && defined(TEX2D_POSITIONS)
    ivec2 at = ivec2(BALL % texWidth, BALL / texWidth);
    vec2 p = mix(vec2(texelFetch(lastTex, at, 0).xy), vec2(texelFetch(nextTex, at, 0).xy), alpha);
#elif defined(QUADS)
    vec2 p = mix(vec2(texelFetch(lastTex, BALL).xy), vec2(texelFetch(nextTex, BALL).xy), alpha);
#else
    vec2 p = mix(lastPos, nextPos, alpha);
#endif
    gl_Position = proj * vec4(p, 0.0, 1.0);
#ifdef QUADS
    // The corner, pointSize / 2 pixels from the centre each way: the
    // square a point sprite covers.
    vec2 corner = corners[gl_VertexID - 6 * BALL];
    gl_Position.xy += corner * (pointSize / viewport.zw);
    q = corner * (0.5 * pointSize);
#else
    gl_PointSize = pointSize;
#endif
#ifdef CELL_CULL
    if (cellCull == 1 && hidden(gl_Position)) {
        gl_Position = vec4(2.0, 2.0, 2.0, 1.0); // outside the clip volume: dropped
    }
#endif
    color = (highlightFirst == 1 && BALL == highlightBall) ? vec3(1.0, 0.85, 0.2) : palette(BALL);
}
