#!/usr/bin/env python3
"""Draws the page's icons (host/web/page/src/icon-180.png, icon-192.png, icon-512.png): a white
question mark on askhost's blue, full bleed, the mark inside the middle 60% so that a launcher's
mask (a circle, a squircle) never cuts it. Run once when the design changes; build.mjs copies the
PNGs into dist/ with the rest.

    icons.py [SRC_DIR]
"""
import math
import os
import struct
import sys
import zlib

BLUE = (0x1D, 0x4F, 0x91)
WHITE = (0xFF, 0xFF, 0xFF)
SAMPLES = 4  # per side, for smooth edges


def inside(x, y):
    """Whether the point (in 0..1, y down) is on the question mark."""
    cx, cy, outer, inner = 0.5, 0.39, 0.165, 0.095
    d = math.hypot(x - cx, y - cy)
    if inner <= d <= outer:
        angle = math.degrees(math.atan2(y - cy, x - cx))  # -180..180, 90 is straight down
        if not 90 < angle < 180:  # the hook leaves out the lower left quarter
            return True
    if abs(x - 0.5) <= 0.035 and 0.45 <= y <= 0.635:
        return True
    return math.hypot(x - 0.5, y - 0.735) <= 0.05


def png(size):
    rows = []
    n = SAMPLES * SAMPLES
    for py in range(size):
        row = bytearray([0])
        for px in range(size):
            hit = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    if inside((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size):
                        hit += 1
            a = hit / n
            row += bytes(round(WHITE[i] * a + BLUE[i] * (1 - a)) for i in range(3))
        rows.append(bytes(row))

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"".join(rows), 9)) + chunk(b"IEND", b"")


def main():
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "src")
    for size in (180, 192, 512):
        with open(os.path.join(src, "icon-%d.png" % size), "wb") as f:
            f.write(png(size))


if __name__ == "__main__":
    main()
