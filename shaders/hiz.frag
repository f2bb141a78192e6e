#version 330 core

// One cell of the hierarchical depth used to cull hidden balls: the
// farthest depth among the cell's pixels of the depth texture.
uniform sampler2D depth;
uniform int cell;

out float farthest;

void main() {
    ivec2 base = ivec2(gl_FragCoord.xy) * cell;
    ivec2 size = textureSize(depth, 0) - 1;
    float z = 0.0;
    for (int y = 0; y < cell; y++) {
        for (int x = 0; x < cell; x++) {
            z = max(z, texelFetch(depth, min(base + ivec2(x, y), size), 0).r);
        }
    }
    farthest = z;
}
