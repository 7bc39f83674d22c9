#!/usr/bin/env python3
"""Counts the pixels of a PNG screenshot that differ from a background colour.

Usage: png_pixels.py FILE R G B TOP BOTTOM
Prints "DIFFERENT TOTAL" for the rows TOP <= y < height - BOTTOM (the
animation page's picture, without its tool bar and status line). Decodes
8-bit RGB and RGBA, non-interlaced PNG (what chromium writes) with the
standard library only; anything else is an error (exit status 1).
"""
import struct
import sys
import zlib


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG file")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if header is None:
        raise ValueError("no IHDR chunk")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace != 0:
        raise ValueError("unsupported PNG: depth %d, colour type %d, interlace %d" % (depth, colour, interlace))
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        # Reconstruction of the five PNG filter types (PNG specification, 9.2).
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
            elif kind != 0:
                raise ValueError("bad filter type %d" % kind)
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    path, r, g, b, top, bottom = sys.argv[1], *map(int, sys.argv[2:7])
    try:
        width, height, bpp, rows = decode(path)
    except (OSError, ValueError, zlib.error, struct.error) as e:
        print("png_pixels: %s: %s" % (path, e), file=sys.stderr)
        return 1
    different = total = 0
    for y in range(top, max(top, height - bottom)):
        line = rows[y]
        for x in range(width):
            o = x * bpp
            total += 1
            if line[o] != r or line[o + 1] != g or line[o + 2] != b:
                different += 1
    print(different, total)
    return 0


if __name__ == "__main__":
    sys.exit(main())
