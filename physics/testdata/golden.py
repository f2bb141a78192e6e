#!/usr/bin/env python3
"""An independent reference implementation of physics/, from its documented
rules (doc.go, spawn.go, hash.go), written in Python with its unbounded
integers, so that the hashes pinned in TestGoldenHash are not just "what the
Go code printed once": this script derives them on its own.

    python3 physics/testdata/golden.py

It covers Tick with single reflections and the player's clamped moves (no
fold, no Step), which is all the golden runs use.
"""
import math
import struct

M = 2**64 - 1
GOLDEN = 0x9E3779B97F4A7C15  # splitmix64 increment


def splitmix(z):
    z &= M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return z ^ (z >> 31)


def int16(v):
    v &= 0xFFFF
    return v - 0x10000 if v >= 0x8000 else v


def random_dir(base):
    """Uniform Q14 unit vector: rejection in the ring 1024..32768, then
    scaled by an integer square root, rounded half away from zero."""
    for j in range(3, 3 + 64):
        r = splitmix(base + j * GOLDEN)
        for _ in range(2):
            a, b = int16(r), int16(r >> 16)
            r >>= 32
            d2 = a * a + b * b
            if d2 < 1 << 20 or d2 > 1 << 30:
                continue
            l = math.isqrt(d2 << 28)

            def scale(v):
                if v < 0:
                    return -((((-v) << 28) + l // 2) // l)
                return ((v << 28) + l // 2) // l

            return scale(a), scale(b)
    return 16384, 0


def fnv1a(data):
    h = 14695981039346656037
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & M
    return h


def run(W, H, R, speed, tick_ns, N, seed, ticks, control=lambda t: (0, 0)):
    K = (speed * 256 * tick_ns + 500_000_000) // 1_000_000_000  # rounded
    lo = [R * 256, R * 256]
    span = [(W - 2 * R) * 256, (H - 2 * R) * 256]
    hi = [lo[0] + span[0], lo[1] + span[1]]
    pos, dirs = [], []
    for i in range(N):
        if i == 0:
            pos.append([W * 256 // 2, H * 256 // 2])
            dirs.append([16384 * 3 // 5, 16384 * 4 // 5])
            continue
        base = splitmix(seed + GOLDEN * (i + 1))
        x = lo[0] + ((splitmix(base + GOLDEN) * (span[0] + 1)) >> 64)
        y = lo[1] + ((splitmix(base + 2 * GOLDEN) * (span[1] + 1)) >> 64)
        pos.append([x, y])
        dirs.append(list(random_dir(base)))
    last = [list(p) for p in pos]
    player = 0
    for t in range(ticks):
        c = control(t)
        last = [list(p) for p in pos]
        first = 0
        if player or c != (0, 0):
            player, first = 1, 1
            for a in range(2):
                pos[0][a] = min(max(pos[0][a] + c[a] * K, lo[a]), hi[a])
        for i in range(first, N):
            for a in range(2):
                q = pos[i][a] + ((dirs[i][a] * K) >> 14)  # floor
                if q > hi[a]:
                    q, dirs[i][a] = 2 * hi[a] - q, -dirs[i][a]
                elif q < lo[a]:
                    q, dirs[i][a] = 2 * lo[a] - q, -dirs[i][a]
                assert lo[a] <= q <= hi[a], "needs a fold: not covered here"
                pos[i][a] = q
    data = struct.pack("<QQBQ", ticks, N, player, 0)
    for arr in (last, pos, dirs):
        for p in arr:
            data += struct.pack("<ii", *p)
    return fnv1a(data)


if __name__ == "__main__":
    ms = 1_000_000
    print("%#018x" % run(640, 480, 8, 400, 40 * ms, 1, 0, 0))
    print("%#018x" % run(640, 480, 8, 400, 40 * ms, 1, 0, 250))
    print("%#018x" % run(640, 480, 8, 400, 40 * ms, 1000, 42, 1000))
    print("%#018x" % run(1920, 1080, 3, 1234, 16 * ms, 100, M, 500,
                         lambda t: (1, -1) if 300 <= t < 320 else (0, 0)))
