#!/usr/bin/env python3
"""Writes the seed corpus of fuzz_query (fuzz/corpus/query/) in the byte
encoding that fuzz_query.c decodes. Run from anywhere:

    python3 fuzz/make_query_seeds.py [OUTDIR]

Each seed is a 3D section followed by a 2D section; see the comments of
fuzz_query.c (read_input3 / read_input2) for the order of the fields.
"""
import math
import os
import random
import struct
import sys

SPECIALS = [
    0.0, -0.0, 1.0, -1.0, 0.5, 1e-3, math.nan, -math.nan,
    math.inf, -math.inf, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300,
    1e-160, 1e-30, 1e-15, 1e-10, 1e-6, 1e6, 1e10, 1e15,
    1e30, -1e30, 1e160, 1e300, -1e300, 1.7976931348623157e308, -1.7976931348623157e308, 3.4028234663852886e38,
    1.401298464324817e-45, 1.0000000000000002,
]


def num(x):
    """One number: a grid byte, a special, or a raw double."""
    x = float(x)
    if math.isfinite(x) and x * 16 == int(x * 16) and -88 <= x * 16 < 88 and not (x == 0 and math.copysign(1, x) < 0):
        return bytes([int(x * 16) + 88])
    for i, s in enumerate(SPECIALS):
        if (math.isnan(x) and math.isnan(s) and math.copysign(1, x) == math.copysign(1, s)) or \
           (not math.isnan(x) and x == s and math.copysign(1, x) == math.copysign(1, s)):
            return bytes([0xB0 + i])
    return bytes([0xF0]) + struct.pack('<d', x)


def vec(*xs):
    return b''.join(num(x) for x in xs)


def margin(m=0.0, raw=False):
    if m == 0:
        return bytes([0])
    return bytes([2 if raw else 1]) + num(m)


# ---- 3D shapes ----

def point(m=0.0):
    return bytes([0]) + margin(m)

def segment(a, b, m=0.0):
    return bytes([1]) + vec(*a) + vec(*b) + margin(m)

def triangle(a, b, c, m=0.0):
    return bytes([2]) + vec(*a) + vec(*b) + vec(*c) + margin(m)

def box(h, m=0.0, raw=False):
    return bytes([3 | (0x80 if raw else 0)]) + vec(*h) + margin(m, raw)

def sphere(r, m=0.0, raw=False):
    return bytes([4 | (0x80 if raw else 0)]) + num(r) + margin(m, raw)

def capsule(a, b, r, m=0.0):
    return bytes([5]) + vec(*a) + vec(*b) + num(r) + margin(m)

def cylinder(r, h, m=0.0):
    return bytes([6]) + num(r) + num(h) + margin(m)

def cone(r, h, m=0.0):
    return bytes([7]) + num(r) + num(h) + margin(m)

def ellipsoid(r, m=0.0):
    return bytes([8]) + vec(*r) + margin(m)

def polytope(verts, layout=0, m=0.0):
    return bytes([9, len(verts), layout]) + b''.join(vec(*v) for v in verts) + margin(m)


def generated_hull(kind, c, extent, seed, m=0.0):
    """The hull of a generated cloud of 64 + 16 (c mod 64) points (layout bits 2 and 3; kind in the high nibble):
    c % 41 vertices are read (the first gives the extents), then the seed byte."""
    verts = ([extent] + [(0, 0, 0)] * 40)[:c % 41]
    return bytes([9, c, 12 | (kind << 4)]) + b''.join(vec(*v) for v in verts) + bytes([seed]) + margin(m)

def custom(mode, c, h, r, k=0.0, radius=0.0, m=0.0):
    return bytes([10, mode]) + vec(*c) + vec(*h) + vec(*r) + num(k) + num(radius) + margin(m)

def unknown3():
    return bytes([11]) + margin()

def null3():
    return bytes([12]) + margin()


def t3(pos=(0, 0, 0), quat=None, axis=None, angle=0.0, zero=False):
    out = vec(*pos)
    if zero:
        return out + bytes([4])
    if quat is not None:
        return out + bytes([1]) + vec(*quat)
    if axis is not None:
        return out + bytes([3]) + vec(*axis) + num(angle)
    return out + bytes([0])


def options(trace=False, tolerance=None, max_iterations=None, max_epa=None, max_distance=None):
    b = 1 if trace else 0
    tail = b''
    if tolerance is not None:
        b |= 2 << 1
        tail += num(tolerance)
    if max_iterations is not None:
        b |= 2 << 3
        tail += struct.pack('<i', max_iterations)
    if max_epa is not None:
        b |= 2 << 5
        tail += struct.pack('<i', max_epa)
    if max_distance is not None:
        b |= 0x80
        tail += num(max_distance)
    return bytes([b]) + tail


def cache3(directions=None, count=None):
    if not directions:
        return bytes([0])
    n = len(directions) if count is None else count
    return bytes([n & 0xFF]) + b''.join(vec(*d) for d in directions[:4])


def input3(a, b, ta=None, tb=None, opt=None, cache=None, origin=(-5, 0, 0), direction=(1, 0, 0), max_t=10,
           translation=(-3, 0, 0), target=0, ea=None, eb=None, toi_target=0, extra=((1, 2, 3), (-1, 0.5, 0))):
    ta = ta or t3()
    tb = tb or t3((2.5, 0, 0))
    return (a + b + ta + tb + (opt or options()) + (cache or cache3()) + vec(*origin) + vec(*direction) +
            num(max_t) + vec(*translation) + num(target) + (ea or ta) + (eb or t3((-1, 0, 0))) + num(toi_target) +
            vec(*extra[0]) + vec(*extra[1]))


# ---- 2D shapes ----

def point2(m=0.0):
    return bytes([0]) + margin(m)

def segment2(a, b, m=0.0):
    return bytes([1]) + vec(*a) + vec(*b) + margin(m)

def triangle2(a, b, c, m=0.0):
    return bytes([2]) + vec(*a) + vec(*b) + vec(*c) + margin(m)

def box2(h, m=0.0):
    return bytes([3]) + vec(*h) + margin(m)

def circle(r, m=0.0, raw=False):
    return bytes([4 | (0x80 if raw else 0)]) + num(r) + margin(m, raw)

def ellipse(r, m=0.0):
    return bytes([5]) + vec(*r) + margin(m)

def capsule2(a, b, r, m=0.0):
    return bytes([6]) + vec(*a) + vec(*b) + num(r) + margin(m)

def polygon(verts, layout=0, m=0.0):
    return bytes([7, len(verts), layout]) + b''.join(vec(*v) for v in verts) + margin(m)

def custom2(mode, c, h, r, k=0.0, radius=0.0, m=0.0):
    return bytes([8, mode]) + vec(*c) + vec(*h) + vec(*r) + num(k) + num(radius) + margin(m)


def t2(pos=(0, 0), angle=None, cs=None, zero=False):
    out = vec(*pos)
    if zero:
        return out + bytes([3])
    if cs is not None:
        return out + bytes([2]) + vec(*cs)
    if angle is not None:
        return out + bytes([1]) + num(angle)
    return out + bytes([0])


def cache2(directions=None, count=None):
    if not directions:
        return bytes([0])
    n = len(directions) if count is None else count
    return bytes([n & 0xFF]) + b''.join(vec(*d) for d in directions[:3])


def input2(a, b, ta=None, tb=None, opt=None, cache=None, origin=(-5, 0), direction=(1, 0), max_t=10,
           translation=(-3, 0), target=0, ea=None, eb=None, toi_target=0, extra=((1, 2), (-1, 0.5))):
    ta = ta or t2()
    tb = tb or t2((2.5, 0))
    return (a + b + ta + tb + (opt or options()) + (cache or cache2()) + vec(*origin) + vec(*direction) +
            num(max_t) + vec(*translation) + num(target) + (ea or ta) + (eb or t2((-1, 0))) + num(toi_target) +
            vec(*extra[0]) + vec(*extra[1]))


# ---- the seeds ----

def seeds():
    rnd = random.Random(20240611)
    cube = [(x, y, z) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    tetra = [(0, 0, 1), (1, 0, -0.5), (-0.5, 0.875, -0.5), (-0.5, -0.875, -0.5)]
    square = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    cloud = [tuple(round(rnd.uniform(-2, 2) * 16) / 16 for _ in range(3)) for _ in range(40)]
    cloud2 = [tuple(round(rnd.uniform(-2, 2) * 16) / 16 for _ in range(2)) for _ in range(40)]
    ring2 = [(round(2 * math.cos(k * 0.4) * 16) / 16, round(2 * math.sin(k * 0.4) * 16) / 16) for k in range(16)]

    yield 'box-sphere-separated', input3(box((1, 1, 1)), sphere(0.5)) + input2(box2((1, 1)), circle(0.5))
    yield 'box-sphere-penetrating', (input3(box((1, 1, 1)), sphere(0.5), tb=t3((1.25, 0, 0))) +
                                     input2(box2((1, 1)), circle(0.5), tb=t2((1.25, 0))))
    yield 'cube-tetra-rotated', (input3(polytope(cube), polytope(tetra), tb=t3((1.5, 0.5, 0), axis=(1, 1, 0), angle=0.75)) +
                                 input2(polygon(square), triangle2((0, 1), (1, -0.5), (-1, -0.5)), tb=t2((1.5, 0.5), angle=0.75)))
    yield 'capsule-cylinder-touching', (input3(capsule((0, 0, -1), (0, 0, 1), 0.5), cylinder(1, 1), tb=t3((1.5, 0, 0))) +
                                        input2(capsule2((0, -1), (0, 1), 0.5), box2((1, 1)), tb=t2((1.5, 0))))
    # Solids of revolution on one axis, deep: gjk_penetration answers them
    # in the plane of the axes (src/axial.c); B flipped by a half turn in
    # the second, the rounding of cos(pi/2) turning it off parallel.
    yield 'cone-cylinder-coaxial-deep', (input3(cone(1, 1), cylinder(0.75, 0.5), tb=t3((0, 0, 0.25))) +
                                         input2(triangle2((-1, -1), (1, -1), (0, 1)), box2((0.75, 0.5)), tb=t2((0, 0.25))))
    yield 'capsule-cone-coaxial-flipped', (input3(capsule((0, 0, -0.5), (0, 0, 0.5), 0.25, m=0.125), cone(1, 0.75),
                                                  tb=t3((0, 0, -0.25), axis=(1, 0, 0), angle=math.pi)) +
                                           input2(capsule2((0, -0.5), (0, 0.5), 0.25), triangle2((-1, 0.75), (1, 0.75), (0, -0.75)),
                                                  tb=t2((0, -0.25))))
    yield 'spheroid-cylinder-coaxial', (input3(ellipsoid((0.5, 0.5, 1)), cylinder(0.75, 0.5), tb=t3((0.0625, 0, 0.5))) +
                                        input2(ellipse((0.5, 1)), box2((0.75, 0.5)), tb=t2((0.0625, 0.5))))
    yield 'cone-ellipsoid', (input3(cone(1, 1), ellipsoid((2, 1, 0.5)), tb=t3((0, 0, 2.25), axis=(0, 1, 0), angle=1.5)) +
                             input2(ellipse((2, 1)), ellipse((0.5, 1.5)), tb=t2((2, 1), angle=1)))
    yield 'triangle-segment', (input3(triangle((0, 0, 0), (2, 0, 0), (0, 2, 0)), segment((0.5, 0.5, -1), (0.5, 0.5, 1)), tb=t3()) +
                               input2(triangle2((0, 0), (2, 0), (0, 2)), segment2((0.5, -1), (0.5, 3)), tb=t2()))
    yield 'point-inside-box', (input3(box((1, 2, 3)), point(), tb=t3((0.25, 0.5, -0.5))) +
                               input2(box2((1, 2)), point2(), tb=t2((0.25, 0.5))))
    yield 'custom-box-margins', (input3(custom(0, (0.5, 0, 0), (1, 0.5, 0.25), (0.5, 0.5, 0.5), radius=2, m=0.125), box((1, 1, 1), m=0.25)) +
                                 input2(custom2(0, (0.5, 0), (1, 0.5), (0.5, 0.25), radius=2, m=0.125), box2((1, 1), m=0.25)))
    yield 'custom-nan', (input3(custom(4, (0, 0, 0), (1, 1, 1), (0, 0, 0), k=0.5), sphere(1)) +
                         input2(custom2(4, (0, 0), (1, 1), (0, 0), k=0.5), circle(1)))
    yield 'custom-inf', (input3(sphere(1), custom(5, (0, 0, 0), (1, 1, 1), (1, 1, 1), k=-0.5)) +
                         input2(circle(1), custom2(5, (0, 0), (1, 1), (1, 1), k=-0.5)))
    yield 'custom-huge', (input3(custom(6, (1, 0, 0), (0, 0, 0), (0, 0, 0)), point()) +
                          input2(custom2(6, (1, 0), (0, 0), (0, 0)), point2()))
    yield 'custom-not-a-support', (input3(custom(7, (0, 0, 0), (1, 2, 3), (0.5, 0, 0)), box((1, 1, 1)), tb=t3((1, 1, 0))) +
                                   input2(custom2(7, (0, 0), (1, 2), (0.5, 0)), box2((1, 1)), tb=t2((1, 1))))
    yield 'cloud40-cloud40', (input3(polytope(cloud), polytope(cloud[::-1], layout=1), tb=t3((1, 0.5, 0.25), quat=(0.5, 0.5, 0.5, 0.5))) +
                              input2(polygon(cloud2), polygon(ring2), tb=t2((1, 0.5), angle=0.5)))
    yield 'degenerate-clouds', (input3(polytope(cloud[:12], layout=2), polytope(cloud[:9], layout=3), tb=t3((0.5, 0, 0))) +
                                input2(polygon(cloud2[:10], layout=1), polygon(cloud2[:9], layout=2), tb=t2((0.5, 0))))
    # layout bit 2: the polytope as a hull (gjk_hull_create, gjk_make_hull): a cloud against a box,
    # a flat cloud (a flat hull) against a sphere inside it, and a cloud's hull against its plain list.
    yield 'hull-cloud40-box', (input3(polytope(cloud, layout=4), box((0.5, 0.25, 0.75)), tb=t3((0.25, 0.5, 0.125))) +
                               input2(point2(), circle(1)))
    yield 'hull-flat-sphere', (input3(polytope(cloud[:12], layout=5), sphere(0.25), tb=t3((0.125, 0, 0))) +
                               input2(point2(), circle(1)))
    yield 'hull-vs-polytope', (input3(polytope(cloud, layout=4), polytope(cloud), tb=t3((1.5, 0.25, 0))) +
                               input2(point2(), circle(1)))
    for kind, name in enumerate(['ellipsoid', 'cylinder', 'capped-cylinder', 'box-grid', 'cut-sphere', 'cone']):
        yield 'generated-hull-' + name, (input3(generated_hull(kind, 42 + kind, (1, 0.75, 0.5), 17 + kind),
                                                sphere(0.25) if kind % 2 else box((0.25, 0.5, 0.125)),
                                                tb=t3((0.5, 0.25, 0.125 * kind))) +
                                         input2(point2(), circle(1)))
    yield 'identical-boxes', (input3(box((1, 1, 1)), box((1, 1, 1)), tb=t3()) + input2(box2((1, 1)), box2((1, 1)), tb=t2()))
    yield 'concentric-spheres', (input3(sphere(1), sphere(2), tb=t3()) + input2(circle(1), circle(2), tb=t2()))
    yield 'far-from-origin', (input3(box((1, 1, 1)), sphere(0.5), ta=t3((1e6, -1e6, 1e6)), tb=t3((1e6 + 1.75, -1e6, 1e6)),
                                     origin=(1e6 - 5, -1e6, 1e6)) +
                              input2(box2((1, 1)), circle(0.5), ta=t2((1e6, -1e6)), tb=t2((1e6 + 1.75, -1e6)), origin=(1e6 - 5, -1e6)))
    yield 'huge-values', (input3(sphere(1e30), box((1e300, 1, 1)), tb=t3((1e30, 0, 0))) +
                          input2(circle(1e30), box2((1e300, 1)), tb=t2((1e30, 0))))
    yield 'tiny-values', (input3(sphere(1e-10), box((1e-10, 1e-10, 1e-10)), tb=t3((3e-10, 0, 0))) +
                          input2(circle(1e-10), box2((1e-10, 1e-10)), tb=t2((3e-10, 0))))
    yield 'denormals', (input3(sphere(5e-324), segment((0, 0, 0), (5e-324, 0, 0)), tb=t3((1e-300, 0, 0))) +
                        input2(circle(5e-324), segment2((0, 0), (5e-324, 0)), tb=t2((1e-300, 0))))
    yield 'nan-quaternion', (input3(box((1, 1, 1)), box((1, 1, 1)), tb=t3((3, 0, 0), quat=(math.nan, 0, 0, 0))) +
                             input2(box2((1, 1)), box2((1, 1)), tb=t2((3, 0), cs=(math.nan, 0))))
    yield 'zero-quaternion', (input3(box((1, 1, 1)), box((1, 1, 1)), tb=t3((3, 0, 0), zero=True)) +
                              input2(box2((1, 1)), box2((1, 1)), tb=t2((3, 0), zero=True)))
    yield 'non-unit-quaternion', (input3(box((1, 1, 1)), box((1, 0.5, 0.25)), tb=t3((2, 0, 0), quat=(2, 0, 0, 2))) +
                                  input2(box2((1, 1)), box2((1, 0.5)), tb=t2((2, 0), cs=(3, 4))))
    yield 'inf-position', (input3(sphere(1), sphere(1), tb=t3((math.inf, 0, 0))) + input2(circle(1), circle(1), tb=t2((math.inf, 0))))
    yield 'negative-radius', (input3(sphere(-1, raw=True), box((1, -1, 1), raw=True)) + input2(circle(1, m=-0.5, raw=True), box2((1, 1))))
    yield 'invalid-shapes', (input3(unknown3(), null3()) + input2(bytes([9]) + margin(), bytes([10]) + margin()))
    yield 'empty-polytope', (input3(polytope([]), bytes([9, 255, 0]) + margin()) + input2(polygon([]), bytes([7, 254, 0]) + margin()))
    yield 'options-tight', (input3(ellipsoid((3, 1, 0.25)), cylinder(0.5, 2), tb=t3((1, 1, 0), axis=(1, 0, 0), angle=0.5),
                                   opt=options(trace=True, tolerance=1e-14, max_iterations=3, max_epa=2)) +
                            input2(ellipse((3, 0.25)), capsule2((0, -2), (0, 2), 0.5), tb=t2((1, 1), angle=0.5),
                                   opt=options(trace=True, tolerance=1e-14, max_iterations=3, max_epa=2)))
    yield 'options-max-distance', (input3(box((1, 1, 1)), sphere(0.5), tb=t3((5, 0, 0)), opt=options(max_distance=1)) +
                                   input2(box2((1, 1)), circle(0.5), tb=t2((5, 0)), opt=options(max_distance=1)))
    yield 'options-invalid', (input3(box((1, 1, 1)), sphere(0.5), opt=options(tolerance=math.nan, max_iterations=-1)) +
                              input2(box2((1, 1)), circle(0.5), opt=options(tolerance=-1, max_distance=math.inf)))
    yield 'options-trace-epa', (input3(polytope(cube), polytope(cube), tb=t3((0.5, 0.25, 0.125)), opt=options(trace=True)) +
                                input2(polygon(square), polygon(square), tb=t2((0.5, 0.25)), opt=options(trace=True)))
    yield 'garbage-cache', (input3(box((1, 1, 1)), sphere(0.5), cache=cache3([(0, 0, 0), (1, 0, 0), (0, 1, 0), (-1, -1, -1)])) +
                            input2(box2((1, 1)), circle(0.5), cache=cache2([(0, 0), (1, 0), (0, 1)])))
    yield 'garbage-cache-nan', (input3(box((1, 1, 1)), sphere(0.5), cache=cache3([(math.nan, 0, 0)], count=7)) +
                                input2(box2((1, 1)), circle(0.5), cache=cache2([(math.inf, 0)], count=5)))
    yield 'garbage-cache-same', (input3(box((1, 1, 1)), sphere(0.5), cache=cache3([(1, 0, 0), (1, 0, 0), (1, 0, 0)])) +
                                 input2(box2((1, 1)), circle(0.5), cache=cache2([(1, 0), (1, 0), (1, 0)])))
    yield 'garbage-cache-huge', (input3(box((1, 1, 1)), sphere(0.5), cache=cache3([(1e300, 1e300, 0), (5e-324, 0, 0)])) +
                                 input2(box2((1, 1)), circle(0.5), cache=cache2([(1e300, -1e300), (0, 5e-324)])))
    yield 'ray-inside', (input3(sphere(2), point(), origin=(0.5, 0, 0)) + input2(circle(2), point2(), origin=(0.5, 0)))
    yield 'ray-grazing', (input3(box((1, 1, 1)), point(), origin=(-5, 1, 0), direction=(1, 0, 0)) +
                          input2(box2((1, 1)), point2(), origin=(-5, 1), direction=(1, 0)))
    yield 'ray-miss-short', (input3(box((1, 1, 1)), point(), origin=(-5, 0, 0), direction=(1, 0, 0), max_t=2) +
                             input2(box2((1, 1)), point2(), origin=(-5, 0), direction=(1, 0), max_t=2))
    yield 'shapecast-target', (input3(box((1, 1, 1)), sphere(0.5), target=0.25) + input2(box2((1, 1)), circle(0.5), target=0.25))
    yield 'toi-rotating', (input3(box((2, 0.125, 2)), box((0.125, 2, 0.125)), tb=t3((0, 3, 0)),
                                  eb=t3((0, 1, 0), axis=(0, 0, 1), angle=1.5), toi_target=0.0625) +
                           input2(box2((2, 0.125)), box2((0.125, 2)), tb=t2((0, 3)), eb=t2((0, 1), angle=1.5), toi_target=0.0625))
    yield 'toi-both-moving', (input3(sphere(0.5), capsule((0, -1, 0), (0, 1, 0), 0.25), ta=t3((-3, 0, 0)), tb=t3((3, 0, 0)),
                                     ea=t3((3, 0, 0)), eb=t3((-3, 0, 0), axis=(0, 0, 1), angle=3)) +
                              input2(circle(0.5), capsule2((0, -1), (0, 1), 0.25), ta=t2((-3, 0)), tb=t2((3, 0)),
                                     ea=t2((3, 0)), eb=t2((-3, 0), angle=3)))
    yield 'rounded-everything', (input3(triangle((0, 0, 0), (1, 0, 0), (0, 1, 0), m=0.5), segment((0, 0, 0), (0, 0, 1), m=0.5),
                                        tb=t3((0.25, 0.25, 0.75))) +
                                 input2(triangle2((0, 0), (1, 0), (0, 1), m=0.5), segment2((0, 0), (0, 1), m=0.5), tb=t2((0.25, 0.75))))
    yield 'empty', b''


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'corpus', 'query')
    os.makedirs(out, exist_ok=True)
    for name, data in seeds():
        with open(os.path.join(out, name + '.bin'), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()
