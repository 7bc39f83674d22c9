// libFuzzer harness for the query API of gjk, 3D (gjk.h) and 2D (gjk2d.h).
//
// The bytes become two shapes of any kind (polytopes and polygons of up to 40
// points, hulls of such points or of generated clouds of up to 1072, custom
// shapes whose support function is computed from their user data and may
// answer NaN, infinity or nonsense), margins, poses (quaternions
// that may be zero, non-unit or NaN), options, warm-start caches (garbage
// ones too), a ray, a translation and two sweeps. Every query then runs and
// its answer is checked against the contract of README.md and the headers:
//
//   always     the status is one the query may return; GJK_INVALID_INPUT
//              zeroes every output number; otherwise every number is finite,
//              distance and depth are >= 0, normals are unit or zero (unit
//              where documented), statuses agree with the numbers, cast
//              parameters lie in their range, input that the documentation
//              calls invalid is rejected, iteration counts respect the caps;
//   sane input (every magnitude <= SANE_MAX, proper support functions, the
//              usual options): valid input is answered; witness points,
//              normal and distance agree with each other and with the shapes'
//              support functions (the distance is the largest support gap
//              over a set of test directions, the witness points lie on the
//              shapes); the three queries agree on the status; a garbage
//              cache changes no answer; casts are checked against the
//              Minkowski sum of the moving shape with its path; contact
//              manifolds (the target separation as speculative distance)
//              have points exactly when the penetration answer is within
//              it, none deeper than its signed distance.
//
// A violation prints what was decoded and the answer, then traps.
//
// Numbers are read from one lead byte k (make_query_seeds.py mirrors this):
//   k < 0xB0          (k - 88) / 16: small values on a 1/16 grid
//   0xB0 .. 0xCF      specials[k - 0xB0]: 0, -0, NaN, +-inf, denormals, 1e300 ...
//   0xD0 .. 0xEF      int16 (2 more bytes, little endian) / 4096 * 10^(2(k - 0xD0) - 30)
//   0xF0 .. 0xFF      the next 8 bytes as a little-endian IEEE double
// Past the end of the input every byte reads 0 and every number 0.
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gjk/gjk.h"
#include "gjk/gjk2d.h"
#include "gjk/hull.h"

// ---- precision-aware tolerances of the checks ------------------------------

#if GJK_USE_FLOAT
#define UNIT_TOL 1e-5    // | |n| - 1 | for unit normals
#define CHECK_REL 1e-3   // relative tolerance of the geometric checks
#define REAL_EPS 1.1920929e-7
#define CHECK_FLOOR 1e-15
#define SANE_MAX 1e4
#else
#define UNIT_TOL 1e-6
#define CHECK_REL 1e-6
#define REAL_EPS 2.220446049250313e-16
#define CHECK_FLOOR 1e-140 // squares of smaller lengths underflow
#define SANE_MAX 1e6
#endif

#define MAX_VERTS 40
/// Inputs holding a finite magnitude above this are tagged "[huge input]" in
/// reports: fourth powers of such lengths overflow (REAL_MAX^(1/4) / 10; the
/// tetrahedron cofactors of the signed-volumes sub-algorithm are quartic).
#if GJK_USE_FLOAT
#define HUGE_MARK 4e8
#else
#define HUGE_MARK 1e76
#endif
/// ... and "[tiny input]" when it holds a non-zero magnitude below this: its
/// square is subnormal or zero.
#if GJK_USE_FLOAT
#define TINY_MARK 1e-18
#else
#define TINY_MARK 1e-150
#endif

// ---- reporting ---------------------------------------------------------------

static const char *g_query = "";   // the query being checked
static char g_tags[96];            // features of the input, for reports and GJK_FUZZ_IGNORE:
                                   // "[huge input]" (a magnitude whose square overflows),
                                   // "[tiny input]" (a non-zero magnitude whose square underflows),
                                   // "[max_distance]" (options.max_distance > 0),
                                   // "[tiny rotation]" (a rotation whose square underflows)
static char g_answer[2048];        // its answer, printed on a violation
static char g_detail[512];         // the numbers of the failing geometric check
static void dump_input(void);

/// True when every '&'-separated part of `item` occurs in `text`.
static bool all_parts_in(const char *text, char *item) {
    for (char *part = item; part != NULL;) {
        char *amp = strchr(part, '&');
        if (amp != NULL) {
            *amp = '\0';
        }
        if (strstr(text, part) == NULL) {
            return false;
        }
        part = amp ? amp + 1 : NULL;
    }
    return true;
}

/// GJK_FUZZ_IGNORE="text|text&text|...": violations whose "query: message [tags]"
/// holds one of the texts (every part of an a&b item) are not reported, to
/// explore past known findings.
static bool ignored(const char *what) {
    static int loaded = 0;
    static char list[4096];
    if (!loaded) {
        const char *env = getenv("GJK_FUZZ_IGNORE");
        snprintf(list, sizeof list, "%s", env ? env : "");
        loaded = 1;
    }
    if (list[0] == '\0') {
        return false;
    }
    char full[512];
    snprintf(full, sizeof full, "%s: %s%s", g_query, what, g_tags);
    const char *p = list;
    while (*p) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        char item[512];
        if (n > 0 && n < sizeof item) {
            memcpy(item, p, n);
            item[n] = '\0';
            if (all_parts_in(full, item)) {
                return true;
            }
        }
        p += n + (bar ? 1 : 0);
    }
    return false;
}

static void violation(const char *what, const char *cond, int line) {
    if (ignored(what)) {
        return;
    }
    fprintf(stderr, "\n*** gjk contract violation in %s: %s%s\n    check: %s (fuzz_query.c:%d)\n", g_query, what,
            g_tags, cond, line);
    fprintf(stderr, "    answer: %s\n", g_answer);
    if (g_detail[0] != '\0') {
        fprintf(stderr, "    detail: %s\n", g_detail);
    }
    dump_input();
    fflush(stderr);
    __builtin_trap();
}

#define REQUIRE(cond, what)                                                                                         \
    do {                                                                                                            \
        if (!(cond)) {                                                                                              \
            violation(what, #cond, __LINE__);                                                                       \
        }                                                                                                           \
    } while (0)

// ---- the byte reader ---------------------------------------------------------

typedef struct reader {
    const uint8_t *p;
    size_t n;
    bool huge; ///< A finite number above HUGE_MARK was read.
    bool tiny; ///< A non-zero number below TINY_MARK was read.
} reader;

static unsigned rd_u8(reader *r) {
    if (r->n == 0) {
        return 0;
    }
    --r->n;
    return *r->p++;
}

static uint32_t rd_u32(reader *r) {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
        v |= (uint32_t)rd_u8(r) << (8 * i);
    }
    return v;
}

static const double specials[32] = {
    0.0,     -0.0,    1.0,     -1.0,     0.5,     1e-3,    NAN,      -NAN,
    INFINITY, -INFINITY, 4.9406564584124654e-324, -4.9406564584124654e-324, 2.2250738585072014e-308, 1e-300,
    1e-160,  1e-30,   1e-15,   1e-10,    1e-6,    1e6,     1e10,     1e15,
    1e30,    -1e30,   1e160,   1e300,    -1e300,  DBL_MAX, -DBL_MAX, 3.4028234663852886e38,
    1.401298464324817e-45, 1.0000000000000002,
};

static double rd_double(reader *r) {
    if (r->n == 0) {
        return 0;
    }
    unsigned k = rd_u8(r);
    if (k < 0xB0) {
        return ((int)k - 88) / 16.0;
    }
    if (k < 0xD0) {
        return specials[k - 0xB0];
    }
    if (k < 0xF0) {
        unsigned lo = rd_u8(r), hi = rd_u8(r);
        int m = (int)(lo | hi << 8);
        if (m >= 32768) {
            m -= 65536;
        }
        return m / 4096.0 * pow(10.0, 2 * (int)(k - 0xD0) - 30);
    }
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) {
        bits |= (uint64_t)rd_u8(r) << (8 * i);
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}

/// A double as gjk_real; out-of-range values become infinities explicitly
/// (a double to float conversion that overflows is undefined in C).
static gjk_real to_real(double d) {
#if GJK_USE_FLOAT
    if (d > FLT_MAX) {
        return INFINITY;
    }
    if (d < -FLT_MAX) {
        return -INFINITY;
    }
#endif
    return (gjk_real)d;
}

static double rd_double_marked(reader *r) {
    double d = rd_double(r);
    if (isfinite(d) && fabs(d) > HUGE_MARK) {
        r->huge = true;
    }
    if (d != 0 && fabs(d) < TINY_MARK) {
        r->tiny = true;
    }
    return d;
}
#define rd_double rd_double_marked

static gjk_real rd_real(reader *r) { return to_real(rd_double(r)); }
static gjk_vec3 rd_vec3(reader *r) {
    gjk_real x = rd_real(r), y = rd_real(r);
    return gjk_v3(x, y, rd_real(r));
}
static gjk_vec2 rd_vec2(reader *r) {
    gjk_real x = rd_real(r);
    return gjk_v2(x, rd_real(r));
}

// ---- small double helpers -------------------------------------------------------

static bool fin(double x) { return isfinite(x); }
static double maxd(double a, double b) { return a > b ? a : b; }
/// |x|, or infinity for NaN (so that "<= SANE_MAX" rejects NaN).
static double mag(double x) { return isnan(x) ? INFINITY : fabs(x); }
static double mag3(gjk_vec3 v) { return maxd(mag(v.x), maxd(mag(v.y), mag(v.z))); }
static double mag2(gjk_vec2 v) { return maxd(mag(v.x), mag(v.y)); }
static bool fin3(gjk_vec3 v) { return fin(v.x) && fin(v.y) && fin(v.z); }
static bool fin2(gjk_vec2 v) { return fin(v.x) && fin(v.y); }
static double dot3d(const double *a, const double *b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
/// Length without underflow or overflow of the squares.
static double len3d(const double *a) {
    double m = maxd(fabs(a[0]), maxd(fabs(a[1]), fabs(a[2])));
    if (!(m > 0) || !fin(m)) {
        return m;
    }
    double x = a[0] / m, y = a[1] / m, z = a[2] / m;
    return m * sqrt(x * x + y * y + z * z);
}
static void set3(double *o, gjk_vec3 v) { o[0] = v.x, o[1] = v.y, o[2] = v.z; }
static void set2(double *o, gjk_vec2 v) { o[0] = v.x, o[1] = v.y, o[2] = 0; }
static bool is_zero3(const double *v) { return v[0] == 0 && v[1] == 0 && v[2] == 0; }
static bool unit_or_zero(const double *n) { return is_zero3(n) || fabs(len3d(n) - 1) <= UNIT_TOL; }
static bool unit(const double *n) { return fabs(len3d(n) - 1) <= UNIT_TOL; }

// ---- custom shapes ------------------------------------------------------------------

/// A custom shape: the Minkowski sum of a box (half extents h) and an
/// ellipsoid (radii r), centred at c. Modes 0-3 are that shape; 4 answers
/// NaN and 5 infinity for directions in a cone (pure, but not finite); 6
/// scales the answer by 1e300; 7 is not a support function at all.
typedef struct custom3 {
    int mode;
    gjk_vec3 c, h, r;
    gjk_real k;
} custom3;

typedef struct custom2 {
    int mode;
    gjk_vec2 c, h, r;
    gjk_real k;
} custom2;

enum { CUSTOM_PROPER_MODES = 4 };

/// |(x, y, z)| without squaring tiny or huge parts: scaled by the largest
/// first. Squared, parts near 1e-160 fall into the subnormal range and keep
/// a few bits, and the user shapes' support points (r·r̂ / |r̂|) then leave
/// the shapes the checks measure by up to 1e-4 of r (a point 3.7e-4 outside
/// a custom 2D shape along a garbage cache's direction (1e-160, −5.5) made
/// gjk2_distance's answer 3.7e-4 short of the shapes' gap: seed 924).
static double norm3_scaled(double x, double y, double z) {
    double s = fmax(fabs(x), fmax(fabs(y), fabs(z)));
    if (!(s > 0) || !isfinite(s)) {
        return s;
    }
    x /= s, y /= s, z /= s;
    return s * sqrt(x * x + y * y + z * z);
}

static gjk_vec3 custom3_support(const void *data, gjk_vec3 d) {
    const custom3 *u = data;
    REQUIRE(fin3(d), "a support function was called with a non-finite direction");
    REQUIRE(d.x != 0 || d.y != 0 || d.z != 0, "a support function was called with a zero direction");
    double m = mag3(d);
    double x = d.x / m, y = d.y / m, z = d.z / m;
    double px = u->c.x + (x < 0 ? -u->h.x : u->h.x);
    double py = u->c.y + (y < 0 ? -u->h.y : u->h.y);
    double pz = u->c.z + (z < 0 ? -u->h.z : u->h.z);
    double rx = u->r.x * x, ry = u->r.y * y, rz = u->r.z * z;
    double rl = norm3_scaled(rx, ry, rz);
    if (rl > 0) {
        // The unit vector (r∘x)/|r∘x| made unit again: with subnormal radii
        // the products keep a few bits and it came out up to twice too long,
        // which put the point 0.44 outside the shape along x (seed 929).
        double ex = rx / rl, ey = ry / rl, ez = rz / rl, el = norm3_scaled(ex, ey, ez);
        px += u->r.x * (ex / el);
        py += u->r.y * (ey / el);
        pz += u->r.z * (ez / el);
    }
    double nl = sqrt(x * x + y * y + z * z);
    switch (u->mode) {
    case 4:
        if (x > u->k * nl) {
            px = NAN;
        }
        break;
    case 5:
        if (y > u->k * nl) {
            py = -INFINITY;
        }
        break;
    case 6: px *= 1e300, py *= 1e300, pz *= 1e300; break;
    case 7: {
        double t = px;
        px = py * (z < 0 ? -1 : 1), py = pz, pz = t; // a pure function, but no support function
        break;
    }
    default: break;
    }
    return gjk_v3(to_real(px), to_real(py), to_real(pz));
}

static gjk_vec2 custom2_support(const void *data, gjk_vec2 d) {
    const custom2 *u = data;
    REQUIRE(fin2(d), "a 2D support function was called with a non-finite direction");
    REQUIRE(d.x != 0 || d.y != 0, "a 2D support function was called with a zero direction");
    double m = mag2(d);
    double x = d.x / m, y = d.y / m;
    double px = u->c.x + (x < 0 ? -u->h.x : u->h.x);
    double py = u->c.y + (y < 0 ? -u->h.y : u->h.y);
    double rx = u->r.x * x, ry = u->r.y * y;
    double rl = hypot(rx, ry);
    if (rl > 0) {
        double ex = rx / rl, ey = ry / rl, el = hypot(ex, ey); // unit again (see custom3_support)
        px += u->r.x * (ex / el);
        py += u->r.y * (ey / el);
    }
    double nl = sqrt(x * x + y * y);
    switch (u->mode) {
    case 4:
        if (x > u->k * nl) {
            px = NAN;
        }
        break;
    case 5:
        if (y > u->k * nl) {
            py = INFINITY;
        }
        break;
    case 6: px *= 1e300, py *= 1e300; break;
    case 7: {
        double t = px;
        px = py * (x < 0 ? -1 : 1), py = t;
        break;
    }
    default: break;
    }
    return gjk_v2(to_real(px), to_real(py));
}

// ---- decoded shapes -------------------------------------------------------------

/// One decoded shape. It is built in place: the shape points into the slot.
typedef struct slot3 {
    gjk_shape shape;
    bool null_shape;
    const char *kind;
    gjk_vec3 verts[MAX_VERTS];
    custom3 custom;
    bool doc_invalid; ///< Invalid by the documentation (NaN, negative radius, ...).
    bool sane;        ///< Valid, every magnitude <= SANE_MAX, a proper support function.
    double bound;     ///< A bound on |p| over the shape (local frame), rounding included.
    /// A polytope asked for as a hull (gjk_hull_create on its points): the
    /// hull (NULL when not built, freed after the input), the creation's
    /// error, and the number of points it was built from.
    bool hull_tried;
    gjk_hull *hull;
    gjk_hull_error hull_error;
    const gjk_vec3 *cloud; ///< The points the hull was built from (verts, or a generated cloud).
    int hull_points;
} slot3;

typedef struct slot2 {
    gjk2_shape shape;
    bool null_shape;
    const char *kind;
    gjk_vec2 verts[MAX_VERTS];
    int vert_count; ///< Decoded polygon vertices (0 for other kinds).
    custom2 custom;
    bool doc_invalid;
    bool sane;
    double bound;
} slot2;

static gjk_real nonneg_of(bool raw, gjk_real x) { return raw ? x : (gjk_real)fabs((double)x); }
static bool bad_nonneg(double x) { return !fin(x) || x < 0; }
static double norm3(gjk_vec3 v) {
    double a[3];
    set3(a, v);
    return len3d(a);
}
static double norm2(gjk_vec2 v) {
    double a[3];
    set2(a, v);
    return len3d(a);
}

static gjk_real rd_margin(reader *r, bool raw) {
    unsigned m = rd_u8(r);
    switch (m & 3) {
    case 1: return nonneg_of(raw, rd_real(r));
    case 2: return rd_real(r);
    case 3: return (gjk_real)(m >> 2) / 64;
    default: return 0;
    }
}

#define MAX_CLOUD 1072

/// A number uniform in [0, 1) from a SplitMix64 stream.
static double unit_of(uint64_t *st) {
    uint64_t z = (*st += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return (double)((z ^ (z >> 31)) >> 11) * 0x1.0p-53;
}

/// A cloud of 64 + 16·(c mod 64) points (up to 1072, enough for climbs;
/// larger ones slowed the fuzzer sixfold) of one of six kinds (`kind` % 6: points on an
/// ellipsoid, a cylinder's two rims, a capped cylinder, a box sampled on a
/// grid over its faces, a sphere cut by planes, a cone's rim and apex),
/// extents |e| (1 where not a usable positive number), turned by a rotation
/// drawn from `seed`. Returns the count.
static int generate_cloud(gjk_vec3 *out, unsigned c, unsigned kind, gjk_vec3 e, unsigned seed) {
    uint64_t st = 0x9e3779b97f4a7c15ULL * (seed + 1);
    double ex[3] = {fabs((double)e.x), fabs((double)e.y), fabs((double)e.z)};
    for (int k = 0; k < 3; ++k) {
        if (!(ex[k] > 1e-3 && ex[k] <= SANE_MAX)) {
            ex[k] = 1;
        }
    }
    double q[4], qn = 0;
    for (int k = 0; k < 4; ++k) {
        q[k] = 2 * unit_of(&st) - 1;
        qn += q[k] * q[k];
    }
    qn = sqrt(qn);
    for (int k = 0; k < 4; ++k) {
        q[k] = qn > 0 ? q[k] / qn : (k == 0);
    }
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    const double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)},
                            {2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)},
                            {2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)}};
    int n = 64 + 16 * (int)(c % 64);
    const double pi2 = 6.283185307179586;
    double cn[3][3], co[3];
    for (int k = 0; k < 3; ++k) {
        double t = pi2 * unit_of(&st), h = 2 * unit_of(&st) - 1, rho = sqrt(1 - h * h);
        cn[k][0] = rho * cos(t), cn[k][1] = rho * sin(t), cn[k][2] = h;
        co[k] = 0.3 + 0.6 * unit_of(&st);
    }
    int g = (int)sqrt((double)n / 6);
    if (g < 2) {
        g = 2;
    }
    for (int i = 0; i < n; ++i) {
        double p[3];
        double t = pi2 * unit_of(&st), v = unit_of(&st);
        switch (kind % 6) {
        case 0: { // ellipsoid
            double h = 2 * v - 1, rho = sqrt(1 - h * h);
            p[0] = rho * cos(t), p[1] = rho * sin(t), p[2] = h;
            break;
        }
        case 1: // cylinder rims, evenly spaced
            t = pi2 * (i / 2) / (n / 2);
            p[0] = cos(t), p[1] = sin(t), p[2] = i % 2 ? 1 : -1;
            break;
        case 2: { // capped cylinder: rims and caps
            double rho = v < 0.5 ? 1 : sqrt(2 * v - 1 + 1e-300);
            p[0] = rho * cos(t), p[1] = rho * sin(t), p[2] = unit_of(&st) < 0.5 ? 1 : -1;
            break;
        }
        case 3: { // box grid
            int f = i % 6, a = (i / 6) % (g + 1), b = (i / 6 / (g + 1)) % (g + 1);
            double s1 = -1 + 2.0 * a / g, s2 = -1 + 2.0 * b / g, sg = f % 2 ? 1 : -1;
            p[0] = f / 2 == 0 ? sg : s1;
            p[1] = f / 2 == 1 ? sg : (f / 2 == 0 ? s1 : s2);
            p[2] = f / 2 == 2 ? sg : s2;
            break;
        }
        case 4: { // sphere cut by three planes
            double h = 2 * v - 1, rho = sqrt(1 - h * h);
            p[0] = rho * cos(t), p[1] = rho * sin(t), p[2] = h;
            for (int pass = 0; pass < 4; ++pass) {
                for (int k = 0; k < 3; ++k) {
                    double d = p[0] * cn[k][0] + p[1] * cn[k][1] + p[2] * cn[k][2] - co[k];
                    if (d > 0) {
                        p[0] -= d * cn[k][0], p[1] -= d * cn[k][1], p[2] -= d * cn[k][2];
                    }
                }
            }
            break;
        }
        default: // cone: rim and apex
            if (i == 0) {
                p[0] = 0, p[1] = 0, p[2] = 1;
            } else {
                p[0] = cos(t), p[1] = sin(t), p[2] = -1;
            }
            break;
        }
        double l[3] = {p[0] * ex[0], p[1] * ex[1], p[2] * ex[2]};
        out[i] = gjk_v3(to_real(R[0][0] * l[0] + R[0][1] * l[1] + R[0][2] * l[2]),
                        to_real(R[1][0] * l[0] + R[1][1] * l[1] + R[1][2] * l[2]),
                        to_real(R[2][0] * l[0] + R[2][1] * l[1] + R[2][2] * l[2]));
    }
    return n;
}

static void read_shape3(reader *r, slot3 *s, gjk_vec3 *cloud_buf) {
    memset(s, 0, sizeof *s);
    unsigned t = rd_u8(r);
    bool raw = (t & 0x80) != 0;
    unsigned kind = (t & 0x7f) % 14;
    double big = 0; // the largest magnitude read
    bool ok = true; // documented-valid parameters
    gjk_shape *sh = &s->shape;
    switch (kind) {
    case 0: *sh = gjk_make_point(); s->kind = "point"; break;
    case 1: {
        gjk_vec3 a = rd_vec3(r), b = rd_vec3(r);
        *sh = gjk_make_segment(a, b);
        s->kind = "segment";
        big = maxd(mag3(a), mag3(b));
        ok = fin3(a) && fin3(b);
        s->bound = maxd(norm3(a), norm3(b));
        break;
    }
    case 2: {
        gjk_vec3 a = rd_vec3(r), b = rd_vec3(r), c = rd_vec3(r);
        *sh = gjk_make_triangle(a, b, c);
        s->kind = "triangle";
        big = maxd(mag3(a), maxd(mag3(b), mag3(c)));
        ok = fin3(a) && fin3(b) && fin3(c);
        s->bound = maxd(norm3(a), maxd(norm3(b), norm3(c)));
        break;
    }
    case 3: {
        gjk_vec3 h = rd_vec3(r);
        h = gjk_v3(nonneg_of(raw, h.x), nonneg_of(raw, h.y), nonneg_of(raw, h.z));
        *sh = gjk_make_box(h);
        s->kind = "box";
        big = mag3(h);
        ok = !bad_nonneg(h.x) && !bad_nonneg(h.y) && !bad_nonneg(h.z);
        s->bound = norm3(h);
        break;
    }
    case 4: {
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk_make_sphere(rad);
        s->kind = "sphere";
        big = mag(rad);
        ok = !bad_nonneg(rad);
        s->bound = rad;
        break;
    }
    case 5: {
        gjk_vec3 a = rd_vec3(r), b = rd_vec3(r);
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk_make_capsule(a, b, rad);
        s->kind = "capsule";
        big = maxd(maxd(mag3(a), mag3(b)), mag(rad));
        ok = fin3(a) && fin3(b) && !bad_nonneg(rad);
        s->bound = maxd(norm3(a), norm3(b)) + rad;
        break;
    }
    case 6:
    case 7: {
        gjk_real rad = nonneg_of(raw, rd_real(r)), hh = nonneg_of(raw, rd_real(r));
        *sh = kind == 6 ? gjk_make_cylinder(rad, hh) : gjk_make_cone(rad, hh);
        s->kind = kind == 6 ? "cylinder" : "cone";
        big = maxd(mag(rad), mag(hh));
        ok = !bad_nonneg(rad) && !bad_nonneg(hh);
        s->bound = fabs((double)rad) + fabs((double)hh);
        break;
    }
    case 8: {
        gjk_vec3 rr = rd_vec3(r);
        rr = gjk_v3(nonneg_of(raw, rr.x), nonneg_of(raw, rr.y), nonneg_of(raw, rr.z));
        *sh = gjk_make_ellipsoid(rr);
        s->kind = "ellipsoid";
        big = mag3(rr);
        ok = !bad_nonneg(rr.x) && !bad_nonneg(rr.y) && !bad_nonneg(rr.z);
        s->bound = mag3(rr);
        break;
    }
    case 9:
    case 13: {
        // The layout byte: its low two bits the points' layout, bit 2 a
        // hull built on them (gjk_make_hull) instead of the plain list.
        unsigned c = rd_u8(r), layout_byte = rd_u8(r), layout = layout_byte % 4;
        s->kind = "polytope";
        if (c == 255) {
            *sh = gjk_make_polytope(s->verts, -1);
            ok = false;
            break;
        }
        if (c == 254) {
            *sh = gjk_make_polytope(NULL, 4);
            ok = false;
            break;
        }
        int n = (int)(c % (MAX_VERTS + 1));
        for (int i = 0; i < n; ++i) {
            gjk_vec3 v = rd_vec3(r);
            if (layout == 1) {
                v.z = 0; // flat
            } else if (layout == 2) {
                v.y = v.z = 0; // collinear
            } else if (layout == 3 && i > 0) {
                v = s->verts[i / 2]; // duplicates
            }
            s->verts[i] = v;
            big = maxd(big, mag3(v));
            ok = ok && fin3(v);
            s->bound = maxd(s->bound, norm3(v));
        }
        ok = ok && n > 0;
        *sh = gjk_make_polytope(s->verts, n);
        const gjk_vec3 *cloud = s->verts;
        if ((layout_byte & 12) == 12 && ok) {
            // A generated cloud of 64 to 1072 points (so that queries climb),
            // its kind, size and turn from the bytes read.
            n = generate_cloud(cloud_buf, c, layout_byte >> 4, s->verts[0], rd_u8(r));
            cloud = cloud_buf;
            for (int i = 0; i < n; ++i) {
                big = maxd(big, mag3(cloud_buf[i]));
                ok = ok && fin3(cloud_buf[i]);
                s->bound = maxd(s->bound, norm3(cloud_buf[i]));
            }
        }
        if ((layout_byte & 4) != 0 && ok) {
            s->hull_tried = true;
            s->hull_points = n;
            s->cloud = cloud;
            s->hull = gjk_hull_create(cloud, n, &s->hull_error);
            if (s->hull != NULL) {
                *sh = gjk_make_hull(s->hull);
                s->kind = "hull";
            }
        }
        break;
    }
    case 10: {
        unsigned mb = rd_u8(r);
        custom3 *u = &s->custom;
        u->mode = (int)(mb % 8);
        u->c = rd_vec3(r);
        u->h = rd_vec3(r);
        u->h = gjk_v3(to_real(fabs(u->h.x)), to_real(fabs(u->h.y)), to_real(fabs(u->h.z)));
        u->r = rd_vec3(r);
        u->r = gjk_v3(to_real(fabs(u->r.x)), to_real(fabs(u->r.y)), to_real(fabs(u->r.z)));
        u->k = rd_real(r);
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk_make_custom(mb == 0xFF ? NULL : custom3_support, u, rad);
        s->kind = "custom";
        big = maxd(maxd(mag3(u->c), mag3(u->h)), maxd(mag3(u->r), mag(rad)));
        ok = mb != 0xFF && !bad_nonneg(rad);
        s->bound = maxd(norm3(u->c) + norm3(u->h) + mag3(u->r), fabs((double)rad));
        if (u->mode >= CUSTOM_PROPER_MODES) {
            big = INFINITY; // never sane
        }
        if (u->mode == 6) {
            r->huge = true;
        }
        break;
    }
    case 11:
        *sh = gjk_make_point();
        sh->type = (gjk_shape_type)(GJK_SHAPE_TYPE_COUNT + (t & 1 ? 0 : 1000));
        s->kind = "unknown type";
        ok = false;
        break;
    default:
        s->null_shape = true;
        s->kind = "NULL";
        ok = false;
        break;
    }
    gjk_real margin = rd_margin(r, raw);
    sh->margin = margin;
    ok = ok && !bad_nonneg(margin);
    big = maxd(big, mag(margin));
    s->bound += fabs((double)margin);
    // A custom shape's radius sets the tolerance scale: count it.
    if (kind == 10) {
        s->bound = maxd(s->bound, fabs((double)sh->custom.radius) + fabs((double)margin));
    }
    s->doc_invalid = !ok;
    s->sane = ok && big <= SANE_MAX;
}

static void read_shape2(reader *r, slot2 *s) {
    memset(s, 0, sizeof *s);
    unsigned t = rd_u8(r);
    bool raw = (t & 0x80) != 0;
    unsigned kind = (t & 0x7f) % 12;
    double big = 0;
    bool ok = true;
    gjk2_shape *sh = &s->shape;
    switch (kind) {
    case 0: *sh = gjk2_make_point(); s->kind = "point"; break;
    case 1: {
        gjk_vec2 a = rd_vec2(r), b = rd_vec2(r);
        *sh = gjk2_make_segment(a, b);
        s->kind = "segment";
        big = maxd(mag2(a), mag2(b));
        ok = fin2(a) && fin2(b);
        s->bound = maxd(norm2(a), norm2(b));
        break;
    }
    case 2: {
        gjk_vec2 a = rd_vec2(r), b = rd_vec2(r), c = rd_vec2(r);
        *sh = gjk2_make_triangle(a, b, c);
        s->kind = "triangle";
        big = maxd(mag2(a), maxd(mag2(b), mag2(c)));
        ok = fin2(a) && fin2(b) && fin2(c);
        s->bound = maxd(norm2(a), maxd(norm2(b), norm2(c)));
        break;
    }
    case 3: {
        gjk_vec2 h = rd_vec2(r);
        h = gjk_v2(nonneg_of(raw, h.x), nonneg_of(raw, h.y));
        *sh = gjk2_make_box(h);
        s->kind = "box";
        big = mag2(h);
        ok = !bad_nonneg(h.x) && !bad_nonneg(h.y);
        s->bound = norm2(h);
        break;
    }
    case 4: {
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk2_make_circle(rad);
        s->kind = "circle";
        big = mag(rad);
        ok = !bad_nonneg(rad);
        s->bound = rad;
        break;
    }
    case 5: {
        gjk_vec2 rr = rd_vec2(r);
        rr = gjk_v2(nonneg_of(raw, rr.x), nonneg_of(raw, rr.y));
        *sh = gjk2_make_ellipse(rr);
        s->kind = "ellipse";
        big = mag2(rr);
        ok = !bad_nonneg(rr.x) && !bad_nonneg(rr.y);
        s->bound = mag2(rr);
        break;
    }
    case 6: {
        gjk_vec2 a = rd_vec2(r), b = rd_vec2(r);
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk2_make_capsule(a, b, rad);
        s->kind = "capsule";
        big = maxd(maxd(mag2(a), mag2(b)), mag(rad));
        ok = fin2(a) && fin2(b) && !bad_nonneg(rad);
        s->bound = maxd(norm2(a), norm2(b)) + rad;
        break;
    }
    case 7:
    case 11: {
        unsigned c = rd_u8(r), layout = rd_u8(r) % 4;
        s->kind = "polygon";
        if (c == 255) {
            *sh = gjk2_make_polygon(s->verts, -1);
            ok = false;
            break;
        }
        if (c == 254) {
            *sh = gjk2_make_polygon(NULL, 3);
            ok = false;
            break;
        }
        int n = (int)(c % (MAX_VERTS + 1));
        for (int i = 0; i < n; ++i) {
            gjk_vec2 v = rd_vec2(r);
            if (layout == 1) {
                v.y = v.x; // collinear
            } else if (layout == 2 && i > 0) {
                v = s->verts[i / 2]; // duplicates
            }
            s->verts[i] = v;
            big = maxd(big, mag2(v));
            ok = ok && fin2(v);
            s->bound = maxd(s->bound, norm2(v));
        }
        ok = ok && n > 0;
        if (layout == 3 && ok) {
            // The hull's corners in order: a convex polygon, whose pairs the
            // edges' separating axes answer (gjk2_make_convex_polygon).
            gjk_vec2 pts[MAX_VERTS];
            memcpy(pts, s->verts, sizeof pts[0] * (size_t)n);
            int h = gjk2_convex_hull(pts, n, s->verts);
            n = h > 0 ? h : n;
            s->vert_count = n;
            *sh = gjk2_make_convex_polygon(s->verts, n);
            break;
        }
        s->vert_count = n;
        *sh = gjk2_make_polygon(s->verts, n);
        break;
    }
    case 8: {
        unsigned mb = rd_u8(r);
        custom2 *u = &s->custom;
        u->mode = (int)(mb % 8);
        u->c = rd_vec2(r);
        u->h = rd_vec2(r);
        u->h = gjk_v2(to_real(fabs(u->h.x)), to_real(fabs(u->h.y)));
        u->r = rd_vec2(r);
        u->r = gjk_v2(to_real(fabs(u->r.x)), to_real(fabs(u->r.y)));
        u->k = rd_real(r);
        gjk_real rad = nonneg_of(raw, rd_real(r));
        *sh = gjk2_make_custom(mb == 0xFF ? NULL : custom2_support, u, rad);
        s->kind = "custom";
        big = maxd(maxd(mag2(u->c), mag2(u->h)), maxd(mag2(u->r), mag(rad)));
        ok = mb != 0xFF && !bad_nonneg(rad);
        s->bound = maxd(norm2(u->c) + norm2(u->h) + mag2(u->r), fabs((double)rad));
        if (u->mode >= CUSTOM_PROPER_MODES) {
            big = INFINITY;
        }
        if (u->mode == 6) {
            r->huge = true;
        }
        break;
    }
    case 9:
        *sh = gjk2_make_point();
        sh->type = (gjk2_shape_type)(GJK2_SHAPE_TYPE_COUNT + (t & 1 ? 0 : 77));
        s->kind = "unknown type";
        ok = false;
        break;
    default:
        s->null_shape = true;
        s->kind = "NULL";
        ok = false;
        break;
    }
    gjk_real margin = rd_margin(r, raw);
    sh->margin = margin;
    ok = ok && !bad_nonneg(margin);
    big = maxd(big, mag(margin));
    s->bound += fabs((double)margin);
    if (kind == 8) {
        s->bound = maxd(s->bound, fabs((double)sh->custom.radius) + fabs((double)margin));
    }
    s->doc_invalid = !ok;
    s->sane = ok && big <= SANE_MAX;
}

// ---- poses, options, caches -----------------------------------------------------

/// How an input part stands with the documentation.
typedef enum part_state {
    PART_SANE = 0,    ///< Valid and well-conditioned.
    PART_VALID = 1,   ///< Valid, but huge, tiny or odd: only the basic contract is checked.
    PART_INVALID = 2, ///< Invalid by the documentation: the query must say GJK_INVALID_INPUT.
} part_state;

static part_state worst(part_state a, part_state b) { return a > b ? a : b; }

static gjk_transform read_transform3(reader *r, part_state *st) {
    gjk_vec3 p = rd_vec3(r);
    gjk_quat q = gjk_quat_identity();
    switch (rd_u8(r) % 5) {
    case 1: {
        gjk_real w = rd_real(r), x = rd_real(r), y = rd_real(r);
        q = gjk_quat_make(w, x, y, rd_real(r));
        break;
    }
    case 2: {
        double w = rd_double(r), x = rd_double(r), y = rd_double(r), z = rd_double(r);
        double n = sqrt(w * w + x * x + y * y + z * z);
        if (n > 0 && fin(n)) {
            w /= n, x /= n, y /= n, z /= n;
        }
        q = gjk_quat_make(to_real(w), to_real(x), to_real(y), to_real(z));
        break;
    }
    case 3: {
        double ax = rd_double(r), ay = rd_double(r), az = rd_double(r), angle = rd_double(r);
        double n = sqrt(ax * ax + ay * ay + az * az);
        if (n > 0 && fin(n)) {
            double s = sin(angle / 2) / n;
            q = gjk_quat_make(to_real(cos(angle / 2)), to_real(s * ax), to_real(s * ay), to_real(s * az));
        } else if (!fin(n) || !fin(angle)) {
            q = gjk_quat_make(to_real(angle), to_real(ax), to_real(ay), to_real(az)); // NaN in, NaN out
        }
        break;
    }
    case 4: q = gjk_quat_make(0, 0, 0, 0); break;
    default: break;
    }
    double qn = sqrt((double)q.w * q.w + (double)q.x * q.x + (double)q.y * q.y + (double)q.z * q.z);
    if (!fin3(p) || !fin(q.w) || !fin(q.x) || !fin(q.y) || !fin(q.z) ||
        (q.w == 0 && q.x == 0 && q.y == 0 && q.z == 0)) {
        *st = PART_INVALID;
    } else if (mag3(p) <= SANE_MAX && qn >= 1e-3 && qn <= 1e3) {
        *st = PART_SANE;
    } else {
        *st = PART_VALID;
    }
    return gjk_transform_make(p, q);
}

static gjk_transform2 read_transform2(reader *r, part_state *st) {
    gjk_vec2 p = rd_vec2(r);
    gjk_rot2 q = gjk_rot2_identity();
    double angle = 0;
    switch (rd_u8(r) % 4) {
    case 1:
        angle = rd_double(r);
        q.c = to_real(cos(angle));
        q.s = to_real(sin(angle));
        break;
    case 2: q.c = rd_real(r), q.s = rd_real(r); break;
    case 3: q.c = 0, q.s = 0; break;
    default: break;
    }
    double qn = sqrt((double)q.c * q.c + (double)q.s * q.s);
    if (!fin2(p) || !fin(q.c) || !fin(q.s) || (q.c == 0 && q.s == 0)) {
        *st = PART_INVALID;
    } else if (mag2(p) <= SANE_MAX && qn >= 1e-3 && qn <= 1e3 && fabs(angle) <= SANE_MAX) {
        *st = PART_SANE;
    } else {
        *st = PART_VALID;
    }
    gjk_transform2 t = {p, q};
    return t;
}

static int rd_count(reader *r, unsigned mode) {
    switch (mode) {
    case 1: return 1 + (int)(rd_u8(r) % 8);
    case 2: {
        uint32_t u = rd_u32(r);
        int32_t v;
        memcpy(&v, &u, sizeof v);
        return v;
    }
    case 3: return 1 + (int)rd_u8(r) * 4;
    default: return 0;
    }
}

static void trace_check(void *data, const gjk_trace_event *e);

static gjk_options read_options(reader *r, part_state *st, int *dim_marker) {
    gjk_options o;
    memset(&o, 0, sizeof o);
    unsigned b = rd_u8(r);
    switch ((b >> 1) & 3) {
    case 1: o.tolerance = to_real(pow(10.0, -(double)(1 + rd_u8(r) % 15))); break;
    case 2: o.tolerance = rd_real(r); break;
    case 3: o.tolerance = to_real(fabs(rd_double(r))); break;
    default: break;
    }
    o.max_iterations = rd_count(r, (b >> 3) & 3);
    o.max_epa_iterations = rd_count(r, (b >> 5) & 3);
    if (b >> 7) {
        o.max_distance = rd_real(r);
    }
    // GJK_FUZZ_MAX_ITERATIONS=N clamps the decoded iteration caps (to explore
    // past a known hang; not set by `make fuzz`).
    static long clamp = -2;
    if (clamp == -2) {
        const char *env = getenv("GJK_FUZZ_MAX_ITERATIONS");
        clamp = env ? strtol(env, NULL, 10) : -1;
    }
    if (clamp >= 0) {
        o.max_iterations = o.max_iterations > clamp ? (int)clamp : o.max_iterations;
        o.max_epa_iterations = o.max_epa_iterations > clamp ? (int)clamp : o.max_epa_iterations;
    }
    if (b & 1) {
        o.trace = trace_check;
        o.trace_data = dim_marker;
    }
    double tol = o.tolerance;
    if (!fin(tol) || !fin(o.max_distance)) {
        *st = PART_INVALID; // a NaN or infinite number
    } else if (tol >= 0 && tol <= 1e-2 && o.max_distance >= 0 && o.max_distance <= SANE_MAX &&
               o.max_iterations >= 0 && o.max_epa_iterations >= 0) {
        *st = PART_SANE;
    } else {
        *st = PART_VALID;
    }
    return o;
}

/// A cached vertex index from the low bytes of a cached coordinate (no
/// input bytes read, so that the corpus decodes as before): −16 to 239,
/// in range or not for the shapes at hand ("any value is safe").
static int cache_vertex(gjk_real x, int byte) {
    unsigned char b[sizeof x];
    memcpy(b, &x, sizeof x);
    return (int)b[byte] - 16;
}

static void read_cache3(reader *r, gjk_simplex_cache *c) {
    memset(c, 0, sizeof *c);
    unsigned b = rd_u8(r);
    if (b == 0) {
        return;
    }
    c->count = (b & 0x80) ? -(int)(b & 0x7f) : (int)(b % 8);
    for (int i = 0; i < c->count && i < 4; ++i) {
        c->direction[i] = rd_vec3(r);
        c->vertex_a[i] = cache_vertex(c->direction[i].x, 0);
        c->vertex_b[i] = cache_vertex(c->direction[i].y, 0);
    }
}

static void read_cache2(reader *r, gjk2_simplex_cache *c) {
    memset(c, 0, sizeof *c);
    unsigned b = rd_u8(r);
    if (b == 0) {
        return;
    }
    c->count = (b & 0x80) ? -(int)(b & 0x7f) : (int)(b % 6);
    for (int i = 0; i < c->count && i < 3; ++i) {
        c->direction[i] = rd_vec2(r);
        c->vertex_a[i] = cache_vertex(c->direction[i].x, 0);
        c->vertex_b[i] = cache_vertex(c->direction[i].y, 0);
    }
}

// ---- the decoded input ------------------------------------------------------------

typedef struct input3 {
    slot3 a, b;
    gjk_transform ta, tb, ea, eb; // poses; ea, eb: the ends of the sweeps
    part_state sta, stb, sea, seb;
    gjk_options opt;
    part_state sopt;
    gjk_simplex_cache garbage;
    gjk_vec3 origin, direction;
    gjk_real max_t;
    gjk_vec3 translation;
    gjk_real target, toi_target;
    gjk_vec3 extra[2];
    bool huge, tiny;
} input3;

typedef struct input2 {
    slot2 a, b;
    gjk_transform2 ta, tb, ea, eb;
    part_state sta, stb, sea, seb;
    gjk_options opt;
    part_state sopt;
    gjk2_simplex_cache garbage;
    gjk_vec2 origin, direction;
    gjk_real max_t;
    gjk_vec2 translation;
    gjk_real target, toi_target;
    gjk_vec2 extra[2];
    bool huge, tiny;
} input2;

static const input3 *g_in3;
static const input2 *g_in2;
static int g_dim3 = 3, g_dim2 = 2; // trace_data markers

static void read_input3(reader *r, input3 *in) {
    static gjk_vec3 clouds[2][MAX_CLOUD]; // not per input: static
    read_shape3(r, &in->a, clouds[0]);
    read_shape3(r, &in->b, clouds[1]);
    in->ta = read_transform3(r, &in->sta);
    in->tb = read_transform3(r, &in->stb);
    in->opt = read_options(r, &in->sopt, &g_dim3);
    read_cache3(r, &in->garbage);
    in->origin = rd_vec3(r);
    in->direction = rd_vec3(r);
    in->max_t = rd_real(r);
    in->translation = rd_vec3(r);
    in->target = rd_real(r);
    in->ea = read_transform3(r, &in->sea);
    in->eb = read_transform3(r, &in->seb);
    in->toi_target = rd_real(r);
    in->extra[0] = rd_vec3(r);
    in->extra[1] = rd_vec3(r);
    in->huge = r->huge;
    in->tiny = r->tiny;
    r->huge = r->tiny = false;
}

static void read_input2(reader *r, input2 *in) {
    read_shape2(r, &in->a);
    read_shape2(r, &in->b);
    in->ta = read_transform2(r, &in->sta);
    in->tb = read_transform2(r, &in->stb);
    in->opt = read_options(r, &in->sopt, &g_dim2);
    read_cache2(r, &in->garbage);
    in->origin = rd_vec2(r);
    in->direction = rd_vec2(r);
    in->max_t = rd_real(r);
    in->translation = rd_vec2(r);
    in->target = rd_real(r);
    in->ea = read_transform2(r, &in->sea);
    in->eb = read_transform2(r, &in->seb);
    in->toi_target = rd_real(r);
    in->extra[0] = rd_vec2(r);
    in->extra[1] = rd_vec2(r);
    in->huge = r->huge;
    in->tiny = r->tiny;
    r->huge = r->tiny = false;
}

// ---- printing the input on a violation ---------------------------------------------

#define G(x) ((double)(x))

static void print_v3(const char *name, gjk_vec3 v) { fprintf(stderr, " %s=(%.17g, %.17g, %.17g)", name, G(v.x), G(v.y), G(v.z)); }
static void print_v2(const char *name, gjk_vec2 v) { fprintf(stderr, " %s=(%.17g, %.17g)", name, G(v.x), G(v.y)); }

static void print_slot3(const char *name, const slot3 *s) {
    const gjk_shape *sh = &s->shape;
    fprintf(stderr, "  shape %s: %s (type %d) margin=%.17g", name, s->kind, (int)sh->type, G(sh->margin));
    if (s->null_shape) {
        fputc('\n', stderr);
        return;
    }
    switch (sh->type) {
    case GJK_SHAPE_SEGMENT: print_v3("a", sh->segment.a), print_v3("b", sh->segment.b); break;
    case GJK_SHAPE_TRIANGLE:
        print_v3("a", sh->triangle.a), print_v3("b", sh->triangle.b), print_v3("c", sh->triangle.c);
        break;
    case GJK_SHAPE_BOX: print_v3("half_extents", sh->box.half_extents); break;
    case GJK_SHAPE_SPHERE: fprintf(stderr, " radius=%.17g", G(sh->sphere.radius)); break;
    case GJK_SHAPE_CAPSULE:
        print_v3("a", sh->capsule.a), print_v3("b", sh->capsule.b);
        fprintf(stderr, " radius=%.17g", G(sh->capsule.radius));
        break;
    case GJK_SHAPE_CYLINDER:
        fprintf(stderr, " radius=%.17g half_height=%.17g", G(sh->cylinder.radius), G(sh->cylinder.half_height));
        break;
    case GJK_SHAPE_CONE:
        fprintf(stderr, " radius=%.17g half_height=%.17g", G(sh->cone.radius), G(sh->cone.half_height));
        break;
    case GJK_SHAPE_ELLIPSOID: print_v3("radii", sh->ellipsoid.radii); break;
    case GJK_SHAPE_POLYTOPE:
        fprintf(stderr, " count=%d vertices=%s", sh->polytope.count, sh->polytope.vertices ? "" : "NULL");
        for (int i = 0; sh->polytope.vertices && i < sh->polytope.count; ++i) {
            fprintf(stderr, "\n      (%.17g, %.17g, %.17g)", G(sh->polytope.vertices[i].x), G(sh->polytope.vertices[i].y), G(sh->polytope.vertices[i].z));
        }
        break;
    case GJK_SHAPE_CUSTOM:
        fprintf(stderr, " support=%s mode=%d radius=%.17g", sh->custom.support ? "fn" : "NULL", s->custom.mode,
                G(sh->custom.radius));
        print_v3("c", s->custom.c), print_v3("h", s->custom.h), print_v3("r", s->custom.r);
        fprintf(stderr, " k=%.17g", G(s->custom.k));
        break;
    default: break;
    }
    fprintf(stderr, "  [%s]\n", s->doc_invalid ? "invalid" : s->sane ? "sane" : "valid");
}

static void print_slot2(const char *name, const slot2 *s) {
    const gjk2_shape *sh = &s->shape;
    fprintf(stderr, "  shape %s: %s (type %d) margin=%.17g", name, s->kind, (int)sh->type, G(sh->margin));
    if (s->null_shape) {
        fputc('\n', stderr);
        return;
    }
    switch (sh->type) {
    case GJK2_SHAPE_SEGMENT: print_v2("a", sh->segment.a), print_v2("b", sh->segment.b); break;
    case GJK2_SHAPE_TRIANGLE:
        print_v2("a", sh->triangle.a), print_v2("b", sh->triangle.b), print_v2("c", sh->triangle.c);
        break;
    case GJK2_SHAPE_BOX: print_v2("half_extents", sh->box.half_extents); break;
    case GJK2_SHAPE_CIRCLE: fprintf(stderr, " radius=%.17g", G(sh->circle.radius)); break;
    case GJK2_SHAPE_ELLIPSE: print_v2("radii", sh->ellipse.radii); break;
    case GJK2_SHAPE_CAPSULE:
        print_v2("a", sh->capsule.a), print_v2("b", sh->capsule.b);
        fprintf(stderr, " radius=%.17g", G(sh->capsule.radius));
        break;
    case GJK2_SHAPE_POLYGON:
        fprintf(stderr, " count=%d vertices=%s", sh->polygon.count, sh->polygon.vertices ? "" : "NULL");
        for (int i = 0; sh->polygon.vertices && i < sh->polygon.count; ++i) {
            fprintf(stderr, "\n      (%.17g, %.17g)", G(s->verts[i].x), G(s->verts[i].y));
        }
        break;
    case GJK2_SHAPE_CUSTOM:
        fprintf(stderr, " support=%s mode=%d radius=%.17g", sh->custom.support ? "fn" : "NULL", s->custom.mode,
                G(sh->custom.radius));
        print_v2("c", s->custom.c), print_v2("h", s->custom.h), print_v2("r", s->custom.r);
        fprintf(stderr, " k=%.17g", G(s->custom.k));
        break;
    default: break;
    }
    fprintf(stderr, "  [%s]\n", s->doc_invalid ? "invalid" : s->sane ? "sane" : "valid");
}

static const char *state_name(part_state s) { return s == PART_SANE ? "sane" : s == PART_VALID ? "valid" : "invalid"; }

static void print_t3(const char *name, gjk_transform t, part_state s) {
    fprintf(stderr, "  %s: position=(%.17g, %.17g, %.17g) rotation=(%.17g, %.17g, %.17g, %.17g) [%s]\n", name,
            G(t.position.x), G(t.position.y), G(t.position.z), G(t.rotation.w), G(t.rotation.x), G(t.rotation.y),
            G(t.rotation.z), state_name(s));
}

static void print_t2(const char *name, gjk_transform2 t, part_state s) {
    fprintf(stderr, "  %s: position=(%.17g, %.17g) rotation=(c %.17g, s %.17g) [%s]\n", name, G(t.position.x),
            G(t.position.y), G(t.rotation.c), G(t.rotation.s), state_name(s));
}

static void print_options(const gjk_options *o, part_state s) {
    fprintf(stderr, "  options: tolerance=%.17g max_iterations=%d max_epa_iterations=%d max_distance=%.17g trace=%s [%s]\n",
            G(o->tolerance), o->max_iterations, o->max_epa_iterations, G(o->max_distance), o->trace ? "on" : "off",
            state_name(s));
}

static void dump_input(void) {
    if (g_in3 != NULL) {
        const input3 *in = g_in3;
        fprintf(stderr, "3D input:\n");
        print_slot3("A", &in->a);
        print_slot3("B", &in->b);
        print_t3("pose A", in->ta, in->sta);
        print_t3("pose B", in->tb, in->stb);
        print_t3("sweep end A", in->ea, in->sea);
        print_t3("sweep end B", in->eb, in->seb);
        print_options(&in->opt, in->sopt);
        fprintf(stderr, "  garbage cache count=%d", in->garbage.count);
        for (int m = 0; m < in->garbage.count && m < 4; ++m) {
            fprintf(stderr, "\n     ");
            print_v3("direction", in->garbage.direction[m]);
        }
        fprintf(stderr, "\n  ray:");
        print_v3("origin", in->origin);
        print_v3("direction", in->direction);
        fprintf(stderr, " max_t=%.17g\n  shapecast:", G(in->max_t));
        print_v3("translation", in->translation);
        fprintf(stderr, " target=%.17g\n  toi target=%.17g\n", G(in->target), G(in->toi_target));
    }
    if (g_in2 != NULL) {
        const input2 *in = g_in2;
        fprintf(stderr, "2D input:\n");
        print_slot2("A", &in->a);
        print_slot2("B", &in->b);
        print_t2("pose A", in->ta, in->sta);
        print_t2("pose B", in->tb, in->stb);
        print_t2("sweep end A", in->ea, in->sea);
        print_t2("sweep end B", in->eb, in->seb);
        print_options(&in->opt, in->sopt);
        fprintf(stderr, "  garbage cache count=%d", in->garbage.count);
        for (int m = 0; m < in->garbage.count && m < 3; ++m) {
            fprintf(stderr, "\n     ");
            print_v2("direction", in->garbage.direction[m]);
        }
        fprintf(stderr, "\n  ray:");
        print_v2("origin", in->origin);
        print_v2("direction", in->direction);
        fprintf(stderr, " max_t=%.17g\n  shapecast:", G(in->max_t));
        print_v2("translation", in->translation);
        fprintf(stderr, " target=%.17g\n  toi target=%.17g\n", G(in->target), G(in->toi_target));
    }
}

// ---- the trace hook -------------------------------------------------------------------

static void trace_check(void *data, const gjk_trace_event *e) {
    int dim = *(const int *)data;
    REQUIRE(e != NULL, "trace event is NULL");
    REQUIRE(e->phase == GJK_TRACE_GJK || e->phase == GJK_TRACE_EPA, "trace phase out of range");
    REQUIRE(e->iteration >= 1, "trace iteration < 1");
    REQUIRE(e->simplex_count >= 0 && e->simplex_count <= (dim == 3 ? 4 : 3), "trace simplex_count out of range");
    REQUIRE(e->vertex_count >= 0 && (e->vertex_count == 0 || e->vertices != NULL), "trace vertices");
    REQUIRE(e->face_count >= 0 && (e->face_count == 0 || e->faces != NULL), "trace faces");
    if (dim == 2) {
        REQUIRE(e->face_count == 0, "a 2D EPA trace event has faces");
    }
    volatile double sink = 0;
    for (int i = 0; i < e->vertex_count; ++i) {
        sink += (double)e->vertices[i].x + (double)e->vertices[i].y + (double)e->vertices[i].z; // ASan reads them
        if (dim == 2) {
            REQUIRE(e->vertices[i].z == 0, "a 2D trace vertex has z != 0");
        }
    }
    for (int f = 0; f < e->face_count; ++f) {
        for (int k = 0; k < 3; ++k) {
            REQUIRE(e->faces[f][k] >= 0 && e->faces[f][k] < e->vertex_count, "trace face index out of range");
        }
    }
    (void)sink;
}

// ---- geometry of a pair, for the checks (every vector as double[3]; 2D: z = 0) -----------

typedef struct geo {
    int dim;
    const gjk_shape *a3, *b3;
    gjk_transform ta3, tb3; // rotations normalised as the library does
    const gjk2_shape *a2, *b2;
    gjk_transform2 ta2, tb2;
    double size;  // bound of A + bound of B
    double world; // size + |position A| + |position B|
    double rel;   // relative tolerance of the checks
    int ndirs;
    double dirs[32][3]; // unit test directions
} geo;

static gjk_rot2 rot2_unit(gjk_rot2 r) {
    double n = sqrt((double)r.c * r.c + (double)r.s * r.s);
    gjk_rot2 u = {to_real(r.c / n), to_real(r.s / n)};
    return u;
}

static void geo_add_dir(geo *g, const double *u) {
    // Scale by the largest component first and never multiply back: for a
    // subnormal u, m * sqrt(...) would round to a few bits.
    if (!fin(u[0]) || !fin(u[1]) || (g->dim == 3 && !fin(u[2])) || g->ndirs >= 32) {
        return;
    }
    double m = maxd(fabs(u[0]), maxd(fabs(u[1]), g->dim == 3 ? fabs(u[2]) : 0));
    if (!(m > 0)) {
        return;
    }
    double x = u[0] / m, y = u[1] / m, z = g->dim == 3 ? u[2] / m : 0;
    double l = sqrt(x * x + y * y + z * z);
    double *d = g->dirs[g->ndirs++];
    d[0] = x / l, d[1] = y / l, d[2] = z / l;
}

static void geo_base_dirs(geo *g) {
    g->ndirs = 0;
    for (int axis = 0; axis < g->dim; ++axis) {
        for (int sgn = -1; sgn <= 1; sgn += 2) {
            double u[3] = {0, 0, 0};
            u[axis] = sgn;
            geo_add_dir(g, u);
        }
    }
    for (int m = 0; m < (g->dim == 3 ? 8 : 4); ++m) {
        double u[3] = {m & 1 ? -1 : 1, m & 2 ? -1 : 1, g->dim == 3 ? (m & 4 ? -1 : 1) : 0};
        geo_add_dir(g, u);
    }
}

static void geo_init3(geo *g, const gjk_shape *a, gjk_transform ta, double ba, const gjk_shape *b, gjk_transform tb,
                      double bb, double rel, const gjk_vec3 *extra) {
    memset(g, 0, sizeof *g);
    g->dim = 3;
    g->a3 = a, g->b3 = b;
    g->ta3 = gjk_transform_make(ta.position, gjk_quat_normalize(ta.rotation));
    g->tb3 = gjk_transform_make(tb.position, gjk_quat_normalize(tb.rotation));
    g->size = ba + bb;
    g->world = g->size + norm3(ta.position) + norm3(tb.position);
    g->rel = rel;
    geo_base_dirs(g);
    double u[3];
    set3(u, gjk_sub(tb.position, ta.position));
    geo_add_dir(g, u);
    u[0] = -u[0], u[1] = -u[1], u[2] = -u[2];
    geo_add_dir(g, u);
    for (int i = 0; extra && i < 2; ++i) {
        set3(u, extra[i]);
        geo_add_dir(g, u);
    }
}

static void geo_init2(geo *g, const gjk2_shape *a, gjk_transform2 ta, double ba, const gjk2_shape *b,
                      gjk_transform2 tb, double bb, double rel, const gjk_vec2 *extra) {
    memset(g, 0, sizeof *g);
    g->dim = 2;
    g->a2 = a, g->b2 = b;
    g->ta2 = ta, g->tb2 = tb;
    g->ta2.rotation = rot2_unit(ta.rotation);
    g->tb2.rotation = rot2_unit(tb.rotation);
    g->size = ba + bb;
    g->world = g->size + norm2(ta.position) + norm2(tb.position);
    g->rel = rel;
    geo_base_dirs(g);
    double u[3];
    set2(u, gjk_sub2(tb.position, ta.position));
    geo_add_dir(g, u);
    u[0] = -u[0], u[1] = -u[1];
    geo_add_dir(g, u);
    for (int i = 0; extra && i < 2; ++i) {
        set2(u, extra[i]);
        geo_add_dir(g, u);
    }
}

/// max over x in shape `which` (0: A, 1: B) of u·x, in the world.
static double geo_h(const geo *g, int which, const double *u) {
    if (g->dim == 3) {
        gjk_transform t = which ? g->tb3 : g->ta3;
        gjk_vec3 wu = gjk_v3(to_real(u[0]), to_real(u[1]), to_real(u[2]));
        gjk_vec3 p = gjk_transform_point(t, gjk_shape_support(which ? g->b3 : g->a3, gjk_quat_inv_rotate(t.rotation, wu)));
        double w[3];
        set3(w, p);
        return dot3d(u, w);
    }
    gjk_transform2 t = which ? g->tb2 : g->ta2;
    gjk_vec2 wu = gjk_v2(to_real(u[0]), to_real(u[1]));
    gjk_vec2 p = gjk_transform2_point(t, gjk2_shape_support(which ? g->b2 : g->a2, gjk_rot2_inv_apply(t.rotation, wu)));
    return u[0] * p.x + u[1] * p.y;
}

/// How far B lies beyond A along u: min over B of u·x minus max over A of u·x.
static double geo_gap(const geo *g, const double *u) {
    double nu[3] = {-u[0], -u[1], -u[2]};
    return -geo_h(g, 1, nu) - geo_h(g, 0, u);
}

static void detail(const char *what, const double *u, double lhs, double rhs, double tol) {
    snprintf(g_detail, sizeof g_detail, "%s: direction (%.17g, %.17g, %.17g): %.17g vs %.17g, tolerance %.3g", what,
             u ? u[0] : 0, u ? u[1] : 0, u ? u[2] : 0, lhs, rhs, tol);
}

static double geo_tol(const geo *g, double value) {
    return g->rel * (g->size + fabs(value)) + 64 * REAL_EPS * (g->world + fabs(value)) + CHECK_FLOOR;
}

/// A separated or penetrating answer: signed distance sd, witness points and
/// unit normal n from A to B.
static void check_witnesses(const geo *g, double sd, const double *pa, const double *pb, const double *n) {
    double tol = geo_tol(g, sd);
    double e[3] = {pb[0] - pa[0] - sd * n[0], pb[1] - pa[1] - sd * n[1], pb[2] - pa[2] - sd * n[2]};
    detail("|point_b - point_a - sd n| vs 0", NULL, len3d(e), 0, tol);
    REQUIRE(len3d(e) <= tol, "point_b - point_a differs from signed_distance * normal");
    detail("gap along the normal vs signed distance", n, geo_gap(g, n), sd, tol);
    REQUIRE(fabs(geo_gap(g, n) - sd) <= tol, "the shapes' support gap along the normal differs from the distance");
    double nn[3] = {-n[0], -n[1], -n[2]};
    REQUIRE(fabs(dot3d(n, pa) - geo_h(g, 0, n)) <= tol, "point_a is not on A's supporting plane along the normal");
    REQUIRE(fabs(dot3d(nn, pb) - geo_h(g, 1, nn)) <= tol, "point_b is not on B's supporting plane against the normal");
    double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    geo gg = *g;
    geo_add_dir(&gg, d);
    for (int i = 0; i < gg.ndirs; ++i) {
        const double *u = gg.dirs[i];
        detail("gap vs signed distance", u, geo_gap(&gg, u), sd, tol);
        REQUIRE(geo_gap(&gg, u) <= sd + tol, "the shapes are farther apart along a test direction than the answer");
        detail("u.point_a vs h_A(u)", u, dot3d(u, pa), geo_h(&gg, 0, u), tol);
        REQUIRE(dot3d(u, pa) <= geo_h(&gg, 0, u) + tol, "point_a lies outside A");
        detail("u.point_b vs h_B(u)", u, dot3d(u, pb), geo_h(&gg, 1, u), tol);
        REQUIRE(dot3d(u, pb) <= geo_h(&gg, 1, u) + tol, "point_b lies outside B");
    }
    g_detail[0] = '\0';
}

/// A bound's answer (is_bound): its points lie in the shapes and at least
/// its value apart, and its normal certifies it (the gap along it is at
/// least the bound).
static void check_bound_points(const geo *g, double value, const double *pa, const double *pb, const double *n) {
    double tol = geo_tol(g, value);
    double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    REQUIRE(len3d(d) >= value - tol, "max_distance answer: the witness points are nearer than the distance bound");
    detail("gap along the normal vs the bound", n, geo_gap(g, n), value, tol);
    REQUIRE(geo_gap(g, n) >= value - tol, "max_distance answer: the gap along the normal is below the bound");
    g_detail[0] = '\0';
    for (int i = 0; i < g->ndirs; ++i) {
        const double *u = g->dirs[i];
        REQUIRE(dot3d(u, pa) <= geo_h(g, 0, u) + tol, "max_distance answer: point_a lies outside A");
        REQUIRE(dot3d(u, pb) <= geo_h(g, 1, u) + tol, "max_distance answer: point_b lies outside B");
    }
}

/// An overlap answer of the distance query: one common point p.
static void check_common_point(const geo *g, const double *pa, const double *pb) {
    double tol = geo_tol(g, 0);
    double d[3] = {pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]};
    REQUIRE(len3d(d) <= tol, "overlapping shapes: point_a and point_b differ");
    for (int i = 0; i < g->ndirs; ++i) {
        const double *u = g->dirs[i];
        detail("gap vs 0", u, geo_gap(g, u), 0, tol);
        REQUIRE(geo_gap(g, u) <= tol, "overlap reported, but the shapes are apart along a test direction");
        detail("u.p vs h_A(u)", u, dot3d(u, pa), geo_h(g, 0, u), tol);
        REQUIRE(dot3d(u, pa) <= geo_h(g, 0, u) + tol, "the common point lies outside A");
        detail("u.p vs h_B(u)", u, dot3d(u, pa), geo_h(g, 1, u), tol);
        REQUIRE(dot3d(u, pa) <= geo_h(g, 1, u) + tol, "the common point lies outside B");
    }
    g_detail[0] = '\0';
}

static void check_touching_or_overlap(const geo *g) {
    double tol = geo_tol(g, 0);
    for (int i = 0; i < g->ndirs; ++i) {
        detail("gap vs 0", g->dirs[i], geo_gap(g, g->dirs[i]), 0, tol);
        REQUIRE(geo_gap(g, g->dirs[i]) <= tol, "overlap reported, but the shapes are apart along a test direction");
    }
    g_detail[0] = '\0';
}

/// A shape's axis-aligned box (gjk_shape_aabb, gjk2_shape_aabb) of shape
/// `which` of the pair, whose shape and pose together are in state st: the
/// status as their validity says, zeros when invalid, finite bounds in
/// order otherwise, and for sane ones each bound the shape's support value
/// along its world axis (geo_h) within the tolerance.
static void check_aabb(const geo *g, int which, part_state st, gjk_status status, const double *lo, const double *hi,
                       double scale) {
    REQUIRE(status == GJK_SEPARATED || status == GJK_INVALID_INPUT, "the bounding box's status is not valid/invalid");
    if (st == PART_INVALID) {
        REQUIRE(status == GJK_INVALID_INPUT, "the bounding box accepted an invalid shape or pose");
    }
    if (status == GJK_INVALID_INPUT) {
        REQUIRE(is_zero3(lo) && is_zero3(hi), "an invalid bounding box is not zero");
        REQUIRE(st != PART_SANE, "the bounding box rejected a valid shape and pose");
        return;
    }
    for (int i = 0; i < g->dim; ++i) {
        REQUIRE(fin(lo[i]) && fin(hi[i]) && lo[i] <= hi[i], "the bounding box is not finite and in order");
    }
    if (st != PART_SANE) {
        return;
    }
    // The rounding of the pose and of the support point, at the shape's
    // scale (its bound and position; the options and the other shape play
    // no part).
    double tol = 64 * REAL_EPS * scale + CHECK_FLOOR;
    for (int i = 0; i < g->dim; ++i) {
        double u[3] = {0, 0, 0};
        u[i] = 1;
        detail("upper bound vs support", u, hi[i], geo_h(g, which, u), tol);
        REQUIRE(fabs(hi[i] - geo_h(g, which, u)) <= tol, "the bounding box's upper bound is not the support value");
        u[i] = -1;
        detail("lower bound vs support", u, lo[i], -geo_h(g, which, u), tol);
        REQUIRE(fabs(lo[i] + geo_h(g, which, u)) <= tol, "the bounding box's lower bound is not the support value");
    }
    g_detail[0] = '\0';
}

// ---- status helpers --------------------------------------------------------------------

static bool query_status(gjk_status s) {
    return s == GJK_SEPARATED || s == GJK_TOUCHING || s == GJK_PENETRATING || s == GJK_INVALID_INPUT ||
           s == GJK_NOT_CONVERGED;
}
static bool cast_status(gjk_status s) {
    return s == GJK_HIT || s == GJK_MISS || s == GJK_INITIALLY_OVERLAPPING || s == GJK_INVALID_INPUT ||
           s == GJK_NOT_CONVERGED;
}
static bool answered(gjk_status s) { return s == GJK_SEPARATED || s == GJK_TOUCHING || s == GJK_PENETRATING; }

static void check_expected_validity(gjk_status s, part_state st) {
    const char *name = gjk_status_name(s);
    REQUIRE(name != NULL && name[0] != '\0', "gjk_status_name gave no name");
    if (st == PART_INVALID) {
        REQUIRE(s == GJK_INVALID_INPUT, "input that the documentation calls invalid was not rejected");
    } else if (st == PART_SANE) {
        REQUIRE(s != GJK_INVALID_INPUT, "valid, well-conditioned input was rejected as invalid");
    }
}

static part_state pair_state3(const input3 *in) {
    part_state s = worst(worst(in->sta, in->stb), in->sopt);
    s = worst(s, in->a.doc_invalid ? PART_INVALID : in->a.sane ? PART_SANE : PART_VALID);
    return worst(s, in->b.doc_invalid ? PART_INVALID : in->b.sane ? PART_SANE : PART_VALID);
}

static part_state pair_state2(const input2 *in) {
    part_state s = worst(worst(in->sta, in->stb), in->sopt);
    s = worst(s, in->a.doc_invalid ? PART_INVALID : in->a.sane ? PART_SANE : PART_VALID);
    return worst(s, in->b.doc_invalid ? PART_INVALID : in->b.sane ? PART_SANE : PART_VALID);
}

static part_state number_state(double x, bool nonneg) {
    if (!fin(x) || (nonneg && x < 0)) {
        return PART_INVALID;
    }
    return mag(x) <= SANE_MAX ? PART_SANE : PART_VALID;
}

static double check_rel(const gjk_options *o) { return maxd(CHECK_REL, 10 * fabs((double)o->tolerance)); }

static int gjk_cap(const gjk_options *o) { return o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_ITERATIONS; }

// ---- the generic answers ---------------------------------------------------------------------

/// A distance or penetration answer in doubles.
typedef struct pair_answer {
    gjk_status status;
    double value; // distance, or signed distance
    double depth;
    double pa[3], pb[3], n[3];
    int iterations, epa_iterations;
    bool penetration;
} pair_answer;

/// An answer that stopped early at options.max_distance: GJK_SEPARATED with
/// a lower bound above it (exact answers above it look the same, and are
/// held to a bound's checks only).
static bool is_bound(const pair_answer *a, const gjk_options *o) {
    return o->max_distance > 0 && a->status == GJK_SEPARATED && a->value > o->max_distance;
}

/// A query with options.max_distance against the same query without it
/// (`exact`): a bound no more than the exact answer, else the same answer.
static void check_bound_exact(const char *query, const geo *g, const pair_answer *a, const pair_answer *exact,
                              const gjk_options *o) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer, "with max_distance: status=%s value=%.17g; without: status=%s value=%.17g",
             gjk_status_name(a->status), a->value, gjk_status_name(exact->status), exact->value);
    if (!answered(a->status) || !answered(exact->status)) {
        return;
    }
    double band = 2 * geo_tol(g, exact->value);
    if (is_bound(a, o)) {
        REQUIRE(a->value <= exact->value + band, "max_distance answer: the bound exceeds the distance");
        return;
    }
    REQUIRE(fabs(a->value - exact->value) <= band, "max_distance changed an answer within it");
    if (fabs(exact->value) > band) {
        REQUIRE(a->status == exact->status, "max_distance changed a status within it");
    }
}

static void describe_pair(const char *query, const pair_answer *a) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer,
             "status=%d (%s) %s=%.17g depth=%.17g point_a=(%.17g, %.17g, %.17g) point_b=(%.17g, %.17g, %.17g) "
             "normal=(%.17g, %.17g, %.17g) iterations=%d epa_iterations=%d",
             (int)a->status, gjk_status_name(a->status), a->penetration ? "signed_distance" : "distance", a->value,
             a->depth, a->pa[0], a->pa[1], a->pa[2], a->pb[0], a->pb[1], a->pb[2], a->n[0], a->n[1], a->n[2],
             a->iterations, a->epa_iterations);
}

/// The contract of gjk_distance / gjk2_distance.
static void check_distance(const char *query, const pair_answer *a, part_state st, const gjk_options *o, const geo *g) {
    describe_pair(query, a);
    REQUIRE(query_status(a->status), "status is not one gjk_distance may return");
    check_expected_validity(a->status, st);
    if (a->status == GJK_INVALID_INPUT) {
        REQUIRE(a->value == 0 && is_zero3(a->pa) && is_zero3(a->pb) && is_zero3(a->n) && a->iterations == 0,
                "invalid input, but an output number is not zero");
        return;
    }
    REQUIRE(fin(a->value) && fin(a->pa[0]) && fin(a->pa[1]) && fin(a->pa[2]) && fin(a->pb[0]) && fin(a->pb[1]) &&
                fin(a->pb[2]) && fin(a->n[0]) && fin(a->n[1]) && fin(a->n[2]),
            "an output number is not finite");
    REQUIRE(a->value >= 0, "distance < 0");
    REQUIRE(unit_or_zero(a->n), "normal is neither unit nor zero");
    REQUIRE(a->iterations >= 0 && a->iterations <= gjk_cap(o), "iterations outside [0, max_iterations]");
    if (a->status == GJK_SEPARATED) {
        REQUIRE(a->value > 0, "separated, but distance is 0");
        REQUIRE(unit(a->n), "separated, but the normal is not unit");
    }
    if (a->status == GJK_PENETRATING) {
        REQUIRE(a->value == 0, "penetrating, but distance is not 0");
    }
    if (st != PART_SANE || !answered(a->status)) {
        return;
    }
    if (a->value > 0) {
        REQUIRE(unit(a->n), "distance > 0, but the normal is not unit");
        if (is_bound(a, o)) {
            check_bound_points(g, a->value, a->pa, a->pb, a->n);
        } else {
            check_witnesses(g, a->value, a->pa, a->pb, a->n);
        }
    } else {
        check_common_point(g, a->pa, a->pb);
    }
}

/// The contract of gjk_penetration / gjk2_penetration.
static void check_penetration(const char *query, const pair_answer *a, part_state st, const gjk_options *o,
                              const geo *g) {
    describe_pair(query, a);
    REQUIRE(query_status(a->status), "status is not one gjk_penetration may return");
    check_expected_validity(a->status, st);
    if (a->status == GJK_INVALID_INPUT) {
        REQUIRE(a->value == 0 && a->depth == 0 && is_zero3(a->pa) && is_zero3(a->pb) && is_zero3(a->n) &&
                    a->iterations == 0 && a->epa_iterations == 0,
                "invalid input, but an output number is not zero");
        return;
    }
    REQUIRE(fin(a->value) && fin(a->depth) && fin(a->pa[0]) && fin(a->pa[1]) && fin(a->pa[2]) && fin(a->pb[0]) &&
                fin(a->pb[1]) && fin(a->pb[2]) && fin(a->n[0]) && fin(a->n[1]) && fin(a->n[2]),
            "an output number is not finite");
    REQUIRE(a->depth >= 0, "depth < 0");
    REQUIRE(a->depth == (a->value < 0 ? -a->value : 0), "depth is not max(0, -signed_distance)");
    REQUIRE(unit_or_zero(a->n), "normal is neither unit nor zero");
    REQUIRE(a->iterations >= 0 && a->iterations <= gjk_cap(o), "iterations outside [0, max_iterations]");
    int epa_cap = o->max_epa_iterations > 0 ? o->max_epa_iterations : GJK_DEFAULT_MAX_EPA_ITERATIONS;
    REQUIRE(a->epa_iterations >= 0 && a->epa_iterations <= epa_cap, "epa_iterations outside [0, max_epa_iterations]");
    if (answered(a->status)) {
        REQUIRE(unit(a->n), "the normal of an answer is not unit");
    }
    if (a->status == GJK_SEPARATED) {
        REQUIRE(a->value > 0, "separated, but signed_distance <= 0");
    }
    if (a->status == GJK_PENETRATING) {
        REQUIRE(a->value < 0, "penetrating, but signed_distance >= 0");
    }
    if (st == PART_SANE && answered(a->status)) {
        if (is_bound(a, o)) {
            check_bound_points(g, a->value, a->pa, a->pb, a->n); // stopped early: a lower bound
        } else {
            check_witnesses(g, a->value, a->pa, a->pb, a->n);
        }
    }
}

static void check_intersect(const char *query, gjk_status status, bool intersect, int iterations, part_state st,
                            const gjk_options *o, const geo *g) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer, "status=%d (%s) intersect=%d iterations=%d", (int)status,
             gjk_status_name(status), (int)intersect, iterations);
    REQUIRE(query_status(status), "status is not one gjk_intersect may return");
    check_expected_validity(status, st);
    if (status == GJK_INVALID_INPUT) {
        REQUIRE(!intersect && iterations == 0, "invalid input, but an output is not zero");
        return;
    }
    REQUIRE(iterations >= 0 && iterations <= gjk_cap(o), "iterations outside [0, max_iterations]");
    if (answered(status)) {
        REQUIRE(intersect == (status != GJK_SEPARATED), "intersect disagrees with the status");
    }
    if (st == PART_SANE && intersect && answered(status)) {
        check_touching_or_overlap(g);
    }
}

/// The three queries (and the cached runs) agree on a well-conditioned pair.
static void check_agreement(const char *query, const geo *g, gjk_status inter, const pair_answer *dist,
                            const pair_answer *pen, const gjk_options *o) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer,
             "intersect status=%s; distance status=%s distance=%.17g; penetration status=%s signed_distance=%.17g",
             gjk_status_name(inter), gjk_status_name(dist->status), dist->value, gjk_status_name(pen->status),
             pen->value);
    if (!answered(inter) || !answered(dist->status) || !answered(pen->status)) {
        return;
    }
    double band = 2 * geo_tol(g, pen->value);
    if (pen->value > band) {
        REQUIRE(inter == GJK_SEPARATED && dist->status == GJK_SEPARATED,
                "penetration says clearly apart, intersect or distance does not");
    } else if (pen->value < -band) {
        REQUIRE(inter == GJK_PENETRATING && dist->status == GJK_PENETRATING,
                "penetration says clearly overlapping, intersect or distance does not");
    }
    if (o->max_distance == 0) {
        REQUIRE(fabs(dist->value - maxd(pen->value, 0)) <= band, "distance and penetration disagree on the distance");
    }
}

/// Two runs of the same query (with and without a cache) agree.
static void check_same(const char *query, const geo *g, const pair_answer *x, const pair_answer *y,
                       const gjk_options *o) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer, "first: status=%s value=%.17g; second: status=%s value=%.17g",
             gjk_status_name(x->status), x->value, gjk_status_name(y->status), y->value);
    if (!answered(x->status) || !answered(y->status) || is_bound(x, o) || is_bound(y, o)) { // bounds may differ
        return;
    }
    double band = 2 * geo_tol(g, x->value);
    REQUIRE(fabs(x->value - y->value) <= band, "a warm-start cache changed the answer");
    if (fabs(x->value) > band) {
        REQUIRE(x->status == y->status, "a warm-start cache changed the status");
    }
}

/// The contract of every cast answer.
static void check_cast(const char *query, gjk_status status, bool hit, double t, const double *point,
                       const double *normal, int iterations, double t_max, int cap, part_state st) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer,
             "status=%d (%s) hit=%d t=%.17g point=(%.17g, %.17g, %.17g) normal=(%.17g, %.17g, %.17g) iterations=%d",
             (int)status, gjk_status_name(status), (int)hit, t, point[0], point[1], point[2], normal[0], normal[1],
             normal[2], iterations);
    REQUIRE(cast_status(status), "status is not one a cast may return");
    check_expected_validity(status, st);
    if (status == GJK_INVALID_INPUT) {
        REQUIRE(!hit && t == 0 && is_zero3(point) && is_zero3(normal) && iterations == 0,
                "invalid input, but an output is not zero");
        return;
    }
    REQUIRE(fin(t) && fin(point[0]) && fin(point[1]) && fin(point[2]) && fin(normal[0]) && fin(normal[1]) &&
                fin(normal[2]),
            "an output number is not finite");
    REQUIRE(hit == (status == GJK_HIT || status == GJK_INITIALLY_OVERLAPPING), "hit disagrees with the status");
    REQUIRE(t >= 0 && t <= t_max, "t outside [0, max]");
    REQUIRE(unit_or_zero(normal), "normal is neither unit nor zero");
    REQUIRE(iterations >= 0 && iterations <= cap, "iterations outside [0, the cap]");
    if (status == GJK_MISS) {
        REQUIRE(t == 0, "a miss with t != 0");
    }
    if (status == GJK_INITIALLY_OVERLAPPING) {
        REQUIRE(t == 0, "initially overlapping with t != 0");
    }
    if (hit) {
        REQUIRE(unit(normal), "a hit whose normal is not unit");
    }
}

// ---- swept shapes: a shape plus the segment of its motion (cast checks) ----------------

typedef struct swept3 {
    const gjk_shape *shape;
    gjk_vec3 motion; // local frame
} swept3;

typedef struct swept2 {
    const gjk2_shape *shape;
    gjk_vec2 motion;
} swept2;

static gjk_vec3 swept3_support(const void *data, gjk_vec3 d) {
    const swept3 *s = data;
    REQUIRE(fin3(d) && (d.x != 0 || d.y != 0 || d.z != 0), "a support function was called with a bad direction");
    gjk_vec3 p = gjk_shape_support(s->shape, d);
    return gjk_dot(s->motion, d) > 0 ? gjk_add(p, s->motion) : p;
}

static gjk_vec2 swept2_support(const void *data, gjk_vec2 d) {
    const swept2 *s = data;
    REQUIRE(fin2(d) && (d.x != 0 || d.y != 0), "a 2D support function was called with a bad direction");
    gjk_vec2 p = gjk2_shape_support(s->shape, d);
    return gjk_dot2(s->motion, d) > 0 ? gjk_add2(p, s->motion) : p;
}

/// Signed distance between A (at ta) and B swept by `motion` (world) from tb;
/// NAN when the query gives no answer.
static double swept_sd3(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb, double bound_b,
                        gjk_vec3 motion) {
    swept3 sw = {b, gjk_quat_inv_rotate(gjk_quat_normalize(tb.rotation), motion)};
    gjk_shape s = gjk_make_custom(swept3_support, &sw, to_real(bound_b + norm3(motion)));
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a, q.transform_a = ta, q.shape_b = &s, q.transform_b = tb;
    gjk_penetration_output p = gjk_penetration(&q, NULL);
    return answered(p.status) ? (double)p.signed_distance : NAN;
}

static double swept_sd2(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb,
                        double bound_b, gjk_vec2 motion) {
    swept2 sw = {b, gjk_rot2_inv_apply(rot2_unit(tb.rotation), motion)};
    gjk2_shape s = gjk2_make_custom(swept2_support, &sw, to_real(bound_b + norm2(motion)));
    gjk2_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a, q.transform_a = ta, q.shape_b = &s, q.transform_b = tb;
    gjk2_penetration_output p = gjk2_penetration(&q, NULL);
    return answered(p.status) ? (double)p.signed_distance : NAN;
}

static double pen_sd3(const gjk_shape *a, gjk_transform ta, const gjk_shape *b, gjk_transform tb) {
    gjk_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a, q.transform_a = ta, q.shape_b = b, q.transform_b = tb;
    gjk_penetration_output p = gjk_penetration(&q, NULL);
    return answered(p.status) ? (double)p.signed_distance : NAN;
}

static double pen_sd2(const gjk2_shape *a, gjk_transform2 ta, const gjk2_shape *b, gjk_transform2 tb) {
    gjk2_query_input q;
    memset(&q, 0, sizeof q);
    q.shape_a = a, q.transform_a = ta, q.shape_b = b, q.transform_b = tb;
    gjk2_penetration_output p = gjk2_penetration(&q, NULL);
    return answered(p.status) ? (double)p.signed_distance : NAN;
}

/// The contact point of a cast lies on A's surface (supporting plane along the
/// normal, inside A along every test direction).
static void check_point_on_a(const geo *g, const double *point, const double *n, double tol) {
    REQUIRE(fabs(dot3d(n, point) - geo_h(g, 0, n)) <= tol, "the contact point is not on A's supporting plane");
    for (int i = 0; i < g->ndirs; ++i) {
        REQUIRE(dot3d(g->dirs[i], point) <= geo_h(g, 0, g->dirs[i]) + tol, "the contact point lies outside A");
    }
}

static part_state slot_state3(const slot3 *s) { return s->doc_invalid ? PART_INVALID : s->sane ? PART_SANE : PART_VALID; }
static part_state slot_state2(const slot2 *s) { return s->doc_invalid ? PART_INVALID : s->sane ? PART_SANE : PART_VALID; }
static part_state vec3_state(gjk_vec3 v) {
    return worst(number_state(v.x, false), worst(number_state(v.y, false), number_state(v.z, false)));
}
static part_state vec2_state(gjk_vec2 v) { return worst(number_state(v.x, false), number_state(v.y, false)); }

// ---- 3D ----------------------------------------------------------------------------------------

static pair_answer from_distance3(gjk_distance_output d) {
    pair_answer a;
    memset(&a, 0, sizeof a);
    a.status = d.status, a.value = d.distance, a.iterations = d.iterations;
    set3(a.pa, d.point_a), set3(a.pb, d.point_b), set3(a.n, d.normal);
    return a;
}

static pair_answer from_penetration3(gjk_penetration_output p) {
    pair_answer a;
    memset(&a, 0, sizeof a);
    a.penetration = true;
    a.status = p.status, a.value = p.signed_distance, a.depth = p.depth;
    a.iterations = p.iterations, a.epa_iterations = p.epa_iterations;
    set3(a.pa, p.point_a), set3(a.pb, p.point_b), set3(a.n, p.normal);
    return a;
}

static void check_cache3(const gjk_simplex_cache *c, gjk_status st) {
    if (st == GJK_INVALID_INPUT) {
        return;
    }
    REQUIRE(c->count >= 0 && c->count <= 4, "the cache count is outside [0, 4] after a query");
    for (int m = 0; m < c->count && m < 4; ++m) { // the count may be out of range when that check is ignored
        gjk_vec3 d = c->direction[m];
        REQUIRE(fin3(d) && (d.x != 0 || d.y != 0 || d.z != 0), "the cache holds a non-finite or zero direction");
    }
}

// ---- contact manifolds ---------------------------------------------------------------------------

/// The contract of a manifold (3D and 2D alike, given as plain numbers):
/// a known status; invalid input exactly when documented (spec negative or
/// not finite, a bad shape or pose), then no points and every number zero;
/// 0 to max points, all finite, a unit normal when there are points; for a
/// sane pair with a penetration answer p: no points when farther apart than
/// spec, at least one when nearer, no point deeper than p's signed
/// distance or farther than spec. Where p stopped early at a lower bound
/// (options.max_distance, which the manifold does not take), only the
/// checks that a lower bound supports.
static void check_manifold(const char *query, gjk_status status, const double *n, int count, int max_count,
                           const double (*pa)[3], const double (*pb)[3], const double *sep, bool all_zero,
                           part_state st, const pair_answer *p, double spec, double max_distance, const geo *g) {
    g_query = query;
    snprintf(g_answer, sizeof g_answer, "status=%d count=%d normal=(%.17g, %.17g, %.17g)", (int)status, count, n[0],
             n[1], n[2]);
    REQUIRE(status == GJK_SEPARATED || status == GJK_TOUCHING || status == GJK_PENETRATING ||
                status == GJK_NOT_CONVERGED || status == GJK_INVALID_INPUT,
            "manifold status out of range");
    if (st == PART_INVALID) {
        REQUIRE(status == GJK_INVALID_INPUT, "manifold of invalid input is not GJK_INVALID_INPUT");
    }
    if (st == PART_SANE) {
        REQUIRE(status != GJK_INVALID_INPUT, "manifold of valid input is GJK_INVALID_INPUT");
    }
    if (status == GJK_INVALID_INPUT) {
        REQUIRE(all_zero, "manifold of invalid input is not all zero");
        return;
    }
    REQUIRE(count >= 0 && count <= max_count, "manifold point count out of range");
    if (count < 0 || count > max_count) {
        return;
    }
    double len = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    REQUIRE(fin(n[0]) && fin(n[1]) && fin(n[2]), "manifold normal not finite");
    if (count > 0) {
        REQUIRE(fabs(len - 1) <= 1e-3, "manifold normal not unit");
    }
    for (int k = 0; k < count; ++k) {
        REQUIRE(fin(pa[k][0]) && fin(pa[k][1]) && fin(pa[k][2]) && fin(pb[k][0]) && fin(pb[k][1]) &&
                    fin(pb[k][2]) && fin(sep[k]),
                "manifold point not finite");
    }
    if (st != PART_SANE || p->status == GJK_NOT_CONVERGED || p->status == GJK_INVALID_INPUT ||
        status == GJK_NOT_CONVERGED) {
        return;
    }
    double tol = 100 * g->rel * g->world;
    snprintf(g_answer, sizeof g_answer, "status=%d count=%d spec=%.17g penetration signed distance=%.17g",
             (int)status, count, spec, p->value);
    if (p->value > spec + tol) {
        REQUIRE(count == 0, "manifold has points of shapes farther apart than the speculative distance");
    }
    bool bound = max_distance > 0 && p->status == GJK_SEPARATED && p->value > max_distance;
    if (p->value < spec - tol && !bound) {
        REQUIRE(count >= 1, "manifold has no point of shapes nearer than the speculative distance");
    }
    double deepest = INFINITY;
    for (int k = 0; k < count; ++k) {
        snprintf(g_answer, sizeof g_answer, "point %d separation=%.17g spec=%.17g penetration signed distance=%.17g",
                 k, sep[k], spec, p->value);
        REQUIRE(sep[k] <= spec + tol, "manifold point farther apart than the speculative distance");
        REQUIRE(sep[k] >= p->value - tol, "manifold point deeper than the penetration depth");
        deepest = fmin(deepest, sep[k]);
    }
    // The depth comes from the penetration query (contact.h): the deepest
    // point keeps it.
    if (count > 0 && !bound) {
        snprintf(g_answer, sizeof g_answer, "deepest separation=%.17g penetration signed distance=%.17g", deepest,
                 p->value);
        REQUIRE(deepest <= p->value + tol, "manifold's deepest point shallower than the penetration depth");
    }
}

static void run_contact3(const gjk_shape *A, const gjk_shape *B, const input3 *in, part_state st,
                         const pair_answer *p, const geo *g) {
    gjk_contact_input ci;
    memset(&ci, 0, sizeof ci);
    ci.shape_a = A, ci.transform_a = in->ta, ci.shape_b = B, ci.transform_b = in->tb;
    ci.speculative_distance = in->target;
    ci.options = in->opt;
    part_state cs = worst(st, number_state(in->target, true));
    if (cs == PART_SANE && in->tiny) {
        // Denormal-scale shapes: the penetration answer itself may be off by
        // the shapes' size (its witnesses disagree with its depth there), so
        // the manifold is held to the basic contract only.
        cs = PART_VALID;
    }
    for (int pass = 0; pass < 2; ++pass) {
        gjk_simplex_cache garbage = in->garbage;
        gjk_manifold m = gjk_contact(&ci, pass ? &garbage : NULL);
        gjk_manifold zero;
        memset(&zero, 0, sizeof zero);
        zero.status = GJK_INVALID_INPUT;
        double n[3], pa[GJK_MAX_CONTACT_POINTS][3], pb[GJK_MAX_CONTACT_POINTS][3], sep[GJK_MAX_CONTACT_POINTS];
        set3(n, m.normal);
        int count = m.point_count >= 0 && m.point_count <= GJK_MAX_CONTACT_POINTS ? m.point_count : 0;
        for (int k = 0; k < count; ++k) {
            set3(pa[k], m.points[k].point_a);
            set3(pb[k], m.points[k].point_b);
            sep[k] = m.points[k].separation;
        }
        check_manifold(pass ? "gjk_contact (garbage cache)" : "gjk_contact", m.status, n, m.point_count,
                       GJK_MAX_CONTACT_POINTS, (const double(*)[3])pa, (const double(*)[3])pb, sep,
                       memcmp(&m, &zero, sizeof m) == 0, cs, p, (double)in->target, (double)in->opt.max_distance, g);
    }
}

static void run_contact2(const gjk2_shape *A, const gjk2_shape *B, const input2 *in, part_state st,
                         const pair_answer *p, const geo *g) {
    gjk2_contact_input ci;
    memset(&ci, 0, sizeof ci);
    ci.shape_a = A, ci.transform_a = in->ta, ci.shape_b = B, ci.transform_b = in->tb;
    ci.speculative_distance = in->target;
    ci.options = in->opt;
    part_state cs = worst(st, number_state(in->target, true));
    if (cs == PART_SANE && in->tiny) {
        // Denormal-scale shapes: the penetration answer itself may be off by
        // the shapes' size (its witnesses disagree with its depth there), so
        // the manifold is held to the basic contract only.
        cs = PART_VALID;
    }
    for (int pass = 0; pass < 2; ++pass) {
        gjk2_simplex_cache garbage = in->garbage;
        gjk2_manifold m = gjk2_contact(&ci, pass ? &garbage : NULL);
        gjk2_manifold zero;
        memset(&zero, 0, sizeof zero);
        zero.status = GJK_INVALID_INPUT;
        double n[3], pa[GJK2_MAX_CONTACT_POINTS][3], pb[GJK2_MAX_CONTACT_POINTS][3], sep[GJK2_MAX_CONTACT_POINTS];
        set2(n, m.normal);
        int count = m.point_count >= 0 && m.point_count <= GJK2_MAX_CONTACT_POINTS ? m.point_count : 0;
        for (int k = 0; k < count; ++k) {
            set2(pa[k], m.points[k].point_a);
            set2(pb[k], m.points[k].point_b);
            sep[k] = m.points[k].separation;
        }
        check_manifold(pass ? "gjk2_contact (garbage cache)" : "gjk2_contact", m.status, n, m.point_count,
                       GJK2_MAX_CONTACT_POINTS, (const double(*)[3])pa, (const double(*)[3])pb, sep,
                       memcmp(&m, &zero, sizeof m) == 0, cs, p, (double)in->target, (double)in->opt.max_distance, g);
    }
}

/// A hull built from a polytope's points (gjk_hull_create): a valid cloud
/// gives a hull or says why not (degenerate, or out of memory), never
/// GJK_HULL_FAILED ("never expected"); a hull's vertices are points of the
/// cloud, and every point lies below every face plane within the rounding
/// (hull.h: faces with outward unit normals and offsets).
static void check_hull3(const slot3 *s, const gjk_vec3 *extra) {
    if (!s->hull_tried) {
        return;
    }
    g_query = "gjk_hull_create";
    snprintf(g_answer, sizeof g_answer, "error %d, %s from %d points", (int)s->hull_error, s->hull ? "built" : "none",
             s->hull_points);
    REQUIRE(s->hull != NULL || s->hull_error == GJK_HULL_DEGENERATE || s->hull_error == GJK_HULL_OUT_OF_MEMORY ||
                (s->hull_error == GJK_HULL_INVALID_INPUT && !s->sane),
            "gjk_hull_create failed on a valid cloud");
    const gjk_hull *h = s->hull;
    if (h == NULL) {
        return;
    }
    const gjk_vec3 *pts = s->cloud;
    const int n = s->hull_points;
    double ext[3] = {0, 0, 0};
    for (int i = 0; i < n; ++i) {
        ext[0] = maxd(ext[0], mag(pts[i].x));
        ext[1] = maxd(ext[1], mag(pts[i].y));
        ext[2] = maxd(ext[2], mag(pts[i].z));
    }
    const double size = ext[0] + ext[1] + ext[2];
#if GJK_USE_FLOAT
    const double rel = 1e-5;
#else
    const double rel = 1e-10;
#endif
    const double tol = rel * size + CHECK_FLOOR;
    if (n <= MAX_VERTS) {
        for (int v = 0; v < h->vertex_count; ++v) {
            bool found = false;
            for (int i = 0; i < n && !found; ++i) {
                found = h->vertices[v].x == pts[i].x && h->vertices[v].y == pts[i].y && h->vertices[v].z == pts[i].z;
            }
            REQUIRE(found, "a hull vertex is not a point of the cloud");
        }
    }
    if (!s->sane) {
        return; // (huge clouds: the checks' own products overflow)
    }
    // Every point below every face plane (on large hulls, every point
    // against a stride of the faces: about 5e4 pairs).
    int stride = (int)((long long)h->face_count * n / 50000) + 1;
    for (int f = 0; f < h->face_count; f += stride) {
        double nf[3];
        set3(nf, h->face_normals[f]);
        REQUIRE(fabs(len3d(nf) - 1) <= UNIT_TOL, "a hull face normal is not unit");
        for (int i = 0; i < n; ++i) {
            double p[3];
            set3(p, pts[i]);
            double above = dot3d(nf, p) - (double)h->face_offsets[f];
            snprintf(g_detail, sizeof g_detail, "point %d above face %d by %.17g (tolerance %.3g)", i, f, above, tol);
            REQUIRE(above <= tol, "a point of the cloud lies above a hull face");
        }
    }
    // The shape's support (a climb over the hull's vertex graph from 96
    // vertices on) reaches the cloud's farthest point along the axes, the
    // diagonals and the directions from the bytes.
    g_query = "gjk_shape_support";
    gjk_vec3 dirs[16];
    int nd = 0;
    for (int k = 0; k < 8; ++k) {
        dirs[nd++] = gjk_v3(to_real(k & 1 ? 1 : -1), to_real(k & 2 ? 1 : -1), to_real(k & 4 ? 1 : -1));
    }
    for (int k = 0; k < 6; ++k) {
        dirs[nd++] = gjk_v3(to_real(k / 2 == 0 ? (k & 1 ? 1 : -1) : 0), to_real(k / 2 == 1 ? (k & 1 ? 1 : -1) : 0),
                            to_real(k / 2 == 2 ? (k & 1 ? 1 : -1) : 0));
    }
    for (int k = 0; k < 2; ++k) {
        if (fin3(extra[k]) && mag3(extra[k]) <= SANE_MAX && mag3(extra[k]) > 1e-3) {
            dirs[nd++] = extra[k];
        }
    }
    for (int k = 0; k < nd; ++k) {
        double d[3], best = -INFINITY;
        set3(d, dirs[k]);
        double dl = len3d(d);
        for (int i = 0; i < n; ++i) {
            double p[3];
            set3(p, pts[i]);
            best = maxd(best, dot3d(p, d) / dl);
        }
        gjk_vec3 sp = gjk_shape_support(&s->shape, dirs[k]); // the margin's sphere added
        double p[3];
        set3(p, sp);
        double got = dot3d(p, d) / dl - (double)s->shape.margin;
        // The support point carries the margin, rounded at its size: a
        // margin of 0.72 on a hull 6e-21 across hid the hull in its
        // rounding (seed 1004).
        double margin_rounding = 4 * REAL_EPS * ((double)s->shape.margin + size);
        snprintf(g_detail, sizeof g_detail, "direction (%.17g, %.17g, %.17g): support %.17g, farthest point %.17g",
                 d[0], d[1], d[2], got, best);
        REQUIRE(got >= best - tol - margin_rounding, "the hull's support falls short of the cloud's farthest point");
    }
    g_detail[0] = '\0';
}

static void run3(const input3 *in) {
    const gjk_shape *A = in->a.null_shape ? NULL : &in->a.shape;
    const gjk_shape *B = in->b.null_shape ? NULL : &in->b.shape;
    const gjk_options *o = &in->opt;
    part_state st = pair_state3(in);
    double rel = check_rel(o);
    geo g;
    geo_init3(&g, A, in->ta, in->a.bound, B, in->tb, in->b.bound, rel, in->extra);
    check_hull3(&in->a, in->extra);
    check_hull3(&in->b, in->extra);

    // Shape validation and the public support function.
    g_query = "gjk_shape_validate";
    g_answer[0] = '\0';
    for (int k = 0; k < 2; ++k) {
        const slot3 *s = k ? &in->b : &in->a;
        gjk_status v = gjk_shape_validate(s->null_shape ? NULL : &s->shape);
        REQUIRE(v == GJK_SEPARATED || v == GJK_INVALID_INPUT, "gjk_shape_validate status");
        if (s->doc_invalid) {
            REQUIRE(v == GJK_INVALID_INPUT, "gjk_shape_validate accepted an invalid shape");
        } else if (s->sane) {
            REQUIRE(v == GJK_SEPARATED, "gjk_shape_validate rejected a valid shape");
        }
        if (!s->null_shape && (s->shape.type != GJK_SHAPE_CUSTOM || s->sane)) {
            gjk_vec3 p = gjk_shape_support(&s->shape, in->extra[k]);
            if (s->sane && fin3(in->extra[k]) && mag3(in->extra[k]) <= SANE_MAX) {
                REQUIRE(fin3(p), "gjk_shape_support of a valid shape is not finite");
            }
        }
    }

    for (int k = 0; k < 2; ++k) {
        const slot3 *s = k ? &in->b : &in->a;
        g_query = "gjk_shape_aabb", g_answer[0] = '\0';
        gjk_aabb_output bx = gjk_shape_aabb(s->null_shape ? NULL : &s->shape, k ? in->tb : in->ta);
        double lo[3], hi[3];
        set3(lo, bx.lower), set3(hi, bx.upper);
        check_aabb(&g, k, worst(slot_state3(s), k ? in->stb : in->sta), bx.status, lo, hi,
                   s->bound + norm3((k ? in->tb : in->ta).position));
    }

    gjk_query_input q = {A, in->ta, B, in->tb, *o};
    g_query = "gjk_intersect", g_answer[0] = '\0';
    gjk_intersect_output io = gjk_intersect(&q);
    check_intersect("gjk_intersect", io.status, io.intersect, io.iterations, st, o, &g);

    g_query = "gjk_distance", g_answer[0] = '\0';
    pair_answer d0 = from_distance3(gjk_distance(&q, NULL));
    check_distance("gjk_distance", &d0, st, o, &g);

    gjk_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    g_query = "gjk_distance (fresh cache)", g_answer[0] = '\0';
    pair_answer d1 = from_distance3(gjk_distance(&q, &cache));
    check_distance("gjk_distance (fresh cache)", &d1, st, o, &g);
    check_cache3(&cache, d1.status);
    g_query = "gjk_distance (warm cache)", g_answer[0] = '\0';
    pair_answer d2 = from_distance3(gjk_distance(&q, &cache));
    check_distance("gjk_distance (warm cache)", &d2, st, o, &g);
    check_cache3(&cache, d2.status);

    gjk_simplex_cache garbage = in->garbage;
    g_query = "gjk_distance (garbage cache)", g_answer[0] = '\0';
    pair_answer d3 = from_distance3(gjk_distance(&q, &garbage));
    check_distance("gjk_distance (garbage cache)", &d3, st, o, &g);
    check_cache3(&garbage, d3.status);

    g_query = "gjk_penetration", g_answer[0] = '\0';
    pair_answer p0 = from_penetration3(gjk_penetration(&q, NULL));
    check_penetration("gjk_penetration", &p0, st, o, &g);
    garbage = in->garbage;
    g_query = "gjk_penetration (garbage cache)", g_answer[0] = '\0';
    pair_answer p1 = from_penetration3(gjk_penetration(&q, &garbage));
    check_penetration("gjk_penetration (garbage cache)", &p1, st, o, &g);
    check_cache3(&garbage, p1.status);
    g_query = "gjk_penetration (warm cache)", g_answer[0] = '\0';
    pair_answer p2 = from_penetration3(gjk_penetration(&q, &cache));
    check_penetration("gjk_penetration (warm cache)", &p2, st, o, &g);

    garbage = in->garbage;
    g_query = "gjk_intersect_cached (garbage cache)", g_answer[0] = '\0';
    gjk_intersect_output ig = gjk_intersect_cached(&q, &garbage);
    check_intersect("gjk_intersect_cached (garbage cache)", ig.status, ig.intersect, ig.iterations, st, o, &g);
    check_cache3(&garbage, ig.status);
    g_query = "gjk_intersect_cached (warm cache)", g_answer[0] = '\0';
    gjk_intersect_output iw = gjk_intersect_cached(&q, &cache);
    check_intersect("gjk_intersect_cached (warm cache)", iw.status, iw.intersect, iw.iterations, st, o, &g);
    check_cache3(&cache, iw.status);

    if (st == PART_SANE) {
        check_agreement("gjk_intersect/gjk_distance/gjk_penetration", &g, io.status, &d0, &p0, o);
        check_agreement("gjk_intersect_cached (garbage cache)/gjk_distance/gjk_penetration", &g, ig.status, &d0, &p0, o);
        check_agreement("gjk_intersect_cached (warm cache)/gjk_distance/gjk_penetration", &g, iw.status, &d0, &p0, o);
        check_same("gjk_distance with a fresh cache", &g, &d0, &d1, o);
        check_same("gjk_distance with a warm cache", &g, &d0, &d2, o);
        check_same("gjk_distance with a garbage cache", &g, &d0, &d3, o);
        check_same("gjk_penetration with a garbage cache", &g, &p0, &p1, o);
        check_same("gjk_penetration with a warm cache", &g, &p0, &p2, o);
        if (o->max_distance > 0) {
            gjk_query_input q0 = q;
            q0.options.max_distance = 0;
            pair_answer d_exact = from_distance3(gjk_distance(&q0, NULL));
            pair_answer p_exact = from_penetration3(gjk_penetration(&q0, NULL));
            check_bound_exact("gjk_distance with max_distance", &g, &d0, &d_exact, o);
            check_bound_exact("gjk_penetration with max_distance", &g, &p0, &p_exact, o);
        } else if (d0.status == GJK_SEPARATED) {
            // The early stop, which the decoded options seldom reach on a
            // pair apart: max_distance half the distance (no input bytes
            // read, so that the corpus decodes as before).
            gjk_query_input qh = q;
            qh.options.max_distance = to_real(0.5 * d0.value);
            if (qh.options.max_distance > 0) {
                pair_answer dh = from_distance3(gjk_distance(&qh, NULL));
                check_distance("gjk_distance (max_distance half the distance)", &dh, st, &qh.options, &g);
                check_bound_exact("gjk_distance (max_distance half the distance)", &g, &dh, &d0, &qh.options);
                pair_answer ph = from_penetration3(gjk_penetration(&qh, NULL));
                check_penetration("gjk_penetration (max_distance half the distance)", &ph, st, &qh.options, &g);
                check_bound_exact("gjk_penetration (max_distance half the distance)", &g, &ph, &p0, &qh.options);
            }
        }
    }
    run_contact3(A, B, in, st, &p0, &g);

    // Ray cast against A.
    {
        gjk_raycast_input ri;
        memset(&ri, 0, sizeof ri);
        ri.shape = A, ri.transform = in->ta, ri.origin = in->origin, ri.direction = in->direction;
        ri.max_t = in->max_t, ri.options = *o;
        g_query = "gjk_raycast", g_answer[0] = '\0';
        gjk_cast_output c = gjk_raycast(&ri);
        part_state rs = worst(worst(slot_state3(&in->a), in->sta), in->sopt);
        rs = worst(rs, worst(vec3_state(in->origin), vec3_state(in->direction)));
        rs = worst(rs, number_state(in->max_t, true));
        if (rs == PART_SANE && fabs((double)in->max_t) * norm3(in->direction) > SANE_MAX) {
            rs = PART_VALID;
        }
        double point[3], normal[3];
        set3(point, c.point), set3(normal, c.normal);
        check_cast("gjk_raycast", c.status, c.hit, c.t, point, normal, c.iterations, in->max_t, gjk_cap(o), rs);
        if (rs == PART_SANE && (c.status == GJK_HIT || c.status == GJK_MISS || c.status == GJK_INITIALLY_OVERLAPPING)) {
            gjk_vec3 end = gjk_mul_add(in->origin, in->max_t, in->direction);
            gjk_shape seg = gjk_make_segment(in->origin, end);
            geo gr;
            double seg_bound = maxd(norm3(in->origin), norm3(end));
            geo_init3(&gr, A, in->ta, in->a.bound, &seg, gjk_transform_identity(), seg_bound, rel, in->extra);
            double tol = geo_tol(&gr, 0);
            double sd = pen_sd3(A, in->ta, &seg, gjk_transform_identity());
            if (c.status == GJK_MISS) {
                REQUIRE(!(sd < -tol), "a ray missed, but its segment overlaps the shape");
            } else {
                REQUIRE(!(sd > tol), "a ray hit, but its segment is apart from the shape");
            }
            if (c.status == GJK_INITIALLY_OVERLAPPING) {
                double orig[3];
                set3(orig, in->origin);
                REQUIRE(point[0] == orig[0] && point[1] == orig[1] && point[2] == orig[2],
                        "a ray starting inside: point != origin");
                for (int i = 0; i < gr.ndirs; ++i) {
                    REQUIRE(dot3d(gr.dirs[i], orig) <= geo_h(&gr, 0, gr.dirs[i]) + tol,
                            "initially overlapping, but the origin lies outside the shape");
                }
            }
            if (c.status == GJK_HIT && c.t > 0) {
                gjk_vec3 at = gjk_mul_add(in->origin, c.t, in->direction);
                double e[3] = {point[0] - at.x, point[1] - at.y, point[2] - at.z};
                REQUIRE(len3d(e) <= tol, "the hit point is not origin + t * direction");
                check_point_on_a(&gr, point, normal, tol);
                gjk_shape before = gjk_make_segment(in->origin, at);
                double sdb = pen_sd3(A, in->ta, &before, gjk_transform_identity());
                REQUIRE(!(sdb < -tol), "the ray overlaps the shape before the hit");
            }
        }
    }

    // Shape cast of B against A.
    {
        gjk_shapecast_input si;
        memset(&si, 0, sizeof si);
        si.shape_a = A, si.transform_a = in->ta, si.shape_b = B, si.transform_b = in->tb;
        si.translation_b = in->translation, si.target_separation = in->target, si.options = *o;
        g_query = "gjk_shapecast", g_answer[0] = '\0';
        gjk_cast_output c = gjk_shapecast(&si);
        part_state ss = worst(st, worst(vec3_state(in->translation), number_state(in->target, true)));
        double point[3], normal[3];
        set3(point, c.point), set3(normal, c.normal);
        check_cast("gjk_shapecast", c.status, c.hit, c.t, point, normal, c.iterations, 1, gjk_cap(o), ss);
        if (ss == PART_SANE && (c.status == GJK_HIT || c.status == GJK_MISS || c.status == GJK_INITIALLY_OVERLAPPING)) {
            geo gs;
            geo_init3(&gs, A, in->ta, in->a.bound, B, in->tb, in->b.bound + norm3(in->translation), rel, in->extra);
            double target = in->target;
            double tol = geo_tol(&gs, target);
            double sd = swept_sd3(A, in->ta, B, in->tb, in->b.bound, in->translation);
            if (c.status == GJK_MISS) {
                REQUIRE(!(sd < target - tol), "a shape cast missed, but the swept shape comes within the target");
            } else {
                REQUIRE(!(sd > target + tol), "a shape cast hit, but the swept shape stays beyond the target");
            }
            if (c.status == GJK_HIT && c.t > 0) {
                gjk_vec3 motion = gjk_scale(to_real(c.t), in->translation);
                double sdb = swept_sd3(A, in->ta, B, in->tb, in->b.bound, motion);
                REQUIRE(!(sdb < target - tol), "the moving shape comes within the target before the hit");
                gjk_transform at = in->tb;
                at.position = gjk_add(in->tb.position, motion);
                double sdt = pen_sd3(A, in->ta, B, at);
                REQUIRE(!(fabs(sdt - target) > tol), "at the hit the distance is not the target separation");
                check_point_on_a(&gs, point, normal, tol);
                geo gh;
                geo_init3(&gh, A, in->ta, in->a.bound, B, at, in->b.bound, rel, in->extra);
                detail("gap along the normal at the hit vs the target", normal, geo_gap(&gh, normal), target, tol);
                REQUIRE(!(geo_gap(&gh, normal) < target - 2 * tol),
                        "at the hit the gap along the normal is below the target");
                g_detail[0] = '\0';
            }
        }
    }

    // Time of impact of the two sweeps.
    {
        gjk_toi_input ti;
        memset(&ti, 0, sizeof ti);
        ti.shape_a = A, ti.sweep_a.start = in->ta, ti.sweep_a.end = in->ea;
        ti.shape_b = B, ti.sweep_b.start = in->tb, ti.sweep_b.end = in->eb;
        ti.target_separation = in->toi_target, ti.options = *o;
        g_query = "gjk_time_of_impact", g_answer[0] = '\0';
        gjk_cast_output c = gjk_time_of_impact(&ti);
        part_state ts = worst(worst(st, worst(in->sea, in->seb)), number_state(in->toi_target, true));
        int cap = o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_TOI_ITERATIONS;
        double point[3], normal[3];
        set3(point, c.point), set3(normal, c.normal);
        check_cast("gjk_time_of_impact", c.status, c.hit, c.t, point, normal, c.iterations, 1, cap, ts);
        if (ts == PART_SANE && c.status != GJK_INVALID_INPUT) {
            gjk_vec3 va = gjk_sub(in->ea.position, in->ta.position);
            gjk_vec3 vb = gjk_sub(in->eb.position, in->tb.position);
            gjk_vec3 rel_motion = gjk_sub(vb, va);
            geo gt;
            geo_init3(&gt, A, in->ta, in->a.bound + norm3(va), B, in->tb, in->b.bound + norm3(vb), rel, in->extra);
            double target = in->toi_target;
            double tol = geo_tol(&gt, target);
            if (c.status == GJK_HIT) {
                gjk_transform at_a = gjk_sweep_at(&ti.sweep_a, to_real(c.t));
                gjk_transform at_b = gjk_sweep_at(&ti.sweep_b, to_real(c.t));
                double sdt = pen_sd3(A, at_a, B, at_b);
                if (c.t > 0) {
                    REQUIRE(!(fabs(sdt - target) > tol), "at the time of impact the distance is not the target");
                    // The point on A's surface at t, the normal a separating
                    // direction there (its gap the distance, within tolerances).
                    geo gh;
                    geo_init3(&gh, A, at_a, in->a.bound, B, at_b, in->b.bound, rel, in->extra);
                    check_point_on_a(&gh, point, normal, tol);
                    detail("gap along the normal at t vs the target", normal, geo_gap(&gh, normal), target, tol);
                    REQUIRE(!(geo_gap(&gh, normal) < target - 2 * tol),
                            "at the time of impact the gap along the normal is below the target");
                    g_detail[0] = '\0';
                } else {
                    REQUIRE(!(sdt > target + tol), "an impact at t = 0, but the shapes start beyond the target");
                }
            }
            bool translation_only = memcmp(&in->ta.rotation, &in->ea.rotation, sizeof(gjk_quat)) == 0 &&
                                    memcmp(&in->tb.rotation, &in->eb.rotation, sizeof(gjk_quat)) == 0;
            if (translation_only) {
                double sd = swept_sd3(A, in->ta, B, in->tb, in->b.bound, rel_motion);
                if (c.status == GJK_MISS) {
                    REQUIRE(!(sd < target - tol), "time of impact missed, but the relative sweep comes within the target");
                } else if (c.hit) {
                    REQUIRE(!(sd > target + tol), "time of impact hit, but the relative sweep stays beyond the target");
                }
                if ((c.status == GJK_HIT || c.status == GJK_NOT_CONVERGED) && c.t > 0) {
                    double sdb = swept_sd3(A, in->ta, B, in->tb, in->b.bound, gjk_scale(to_real(c.t), rel_motion));
                    REQUIRE(!(sdb < target - tol), "time of impact: the shapes come within the target before t");
                }
            }
        }
    }
}

// ---- 2D ----------------------------------------------------------------------------------------

static pair_answer from_distance2(gjk2_distance_output d) {
    pair_answer a;
    memset(&a, 0, sizeof a);
    a.status = d.status, a.value = d.distance, a.iterations = d.iterations;
    set2(a.pa, d.point_a), set2(a.pb, d.point_b), set2(a.n, d.normal);
    return a;
}

static pair_answer from_penetration2(gjk2_penetration_output p) {
    pair_answer a;
    memset(&a, 0, sizeof a);
    a.penetration = true;
    a.status = p.status, a.value = p.signed_distance, a.depth = p.depth;
    a.iterations = p.iterations, a.epa_iterations = p.epa_iterations;
    set2(a.pa, p.point_a), set2(a.pb, p.point_b), set2(a.n, p.normal);
    return a;
}

static void check_cache2(const gjk2_simplex_cache *c, gjk_status st) {
    if (st == GJK_INVALID_INPUT) {
        return;
    }
    REQUIRE(c->count >= 0 && c->count <= 3, "the 2D cache count is outside [0, 3] after a query");
    for (int m = 0; m < c->count && m < 3; ++m) { // the count may be out of range when that check is ignored
        gjk_vec2 d = c->direction[m];
        REQUIRE(fin2(d) && (d.x != 0 || d.y != 0), "the 2D cache holds a non-finite or zero direction");
    }
}

static gjk_vec2 sweep2_pos(const gjk2_sweep *s) { return gjk_sub2(s->end.position, s->start.position); }

static void run2(const input2 *in) {
    const gjk2_shape *A = in->a.null_shape ? NULL : &in->a.shape;
    const gjk2_shape *B = in->b.null_shape ? NULL : &in->b.shape;
    const gjk_options *o = &in->opt;
    part_state st = pair_state2(in);
    double rel = check_rel(o);
    geo g;
    geo_init2(&g, A, in->ta, in->a.bound, B, in->tb, in->b.bound, rel, in->extra);

    g_query = "gjk2_shape_validate";
    g_answer[0] = '\0';
    for (int k = 0; k < 2; ++k) {
        const slot2 *s = k ? &in->b : &in->a;
        gjk_status v = gjk2_shape_validate(s->null_shape ? NULL : &s->shape);
        REQUIRE(v == GJK_SEPARATED || v == GJK_INVALID_INPUT, "gjk2_shape_validate status");
        if (s->doc_invalid) {
            REQUIRE(v == GJK_INVALID_INPUT, "gjk2_shape_validate accepted an invalid shape");
        } else if (s->sane) {
            REQUIRE(v == GJK_SEPARATED, "gjk2_shape_validate rejected a valid shape");
        }
        if (!s->null_shape && (s->shape.type != GJK2_SHAPE_CUSTOM || s->sane)) {
            gjk_vec2 p = gjk2_shape_support(&s->shape, in->extra[k]);
            if (s->sane && fin2(in->extra[k]) && mag2(in->extra[k]) <= SANE_MAX) {
                REQUIRE(fin2(p), "gjk2_shape_support of a valid shape is not finite");
            }
        }
    }

    for (int k = 0; k < 2; ++k) {
        const slot2 *s = k ? &in->b : &in->a;
        g_query = "gjk2_shape_aabb", g_answer[0] = '\0';
        gjk2_aabb_output bx = gjk2_shape_aabb(s->null_shape ? NULL : &s->shape, k ? in->tb : in->ta);
        double lo[3], hi[3];
        set2(lo, bx.lower), set2(hi, bx.upper);
        check_aabb(&g, k, worst(slot_state2(s), k ? in->stb : in->sta), bx.status, lo, hi,
                   s->bound + norm2((k ? in->tb : in->ta).position));
    }

    gjk2_query_input q = {A, in->ta, B, in->tb, *o};
    g_query = "gjk2_intersect", g_answer[0] = '\0';
    gjk2_intersect_output io = gjk2_intersect(&q);
    check_intersect("gjk2_intersect", io.status, io.intersect, io.iterations, st, o, &g);

    g_query = "gjk2_distance", g_answer[0] = '\0';
    pair_answer d0 = from_distance2(gjk2_distance(&q, NULL));
    check_distance("gjk2_distance", &d0, st, o, &g);

    gjk2_simplex_cache cache;
    memset(&cache, 0, sizeof cache);
    g_query = "gjk2_distance (fresh cache)", g_answer[0] = '\0';
    pair_answer d1 = from_distance2(gjk2_distance(&q, &cache));
    check_distance("gjk2_distance (fresh cache)", &d1, st, o, &g);
    check_cache2(&cache, d1.status);
    g_query = "gjk2_distance (warm cache)", g_answer[0] = '\0';
    pair_answer d2 = from_distance2(gjk2_distance(&q, &cache));
    check_distance("gjk2_distance (warm cache)", &d2, st, o, &g);
    check_cache2(&cache, d2.status);

    gjk2_simplex_cache garbage = in->garbage;
    g_query = "gjk2_distance (garbage cache)", g_answer[0] = '\0';
    pair_answer d3 = from_distance2(gjk2_distance(&q, &garbage));
    check_distance("gjk2_distance (garbage cache)", &d3, st, o, &g);
    check_cache2(&garbage, d3.status);

    g_query = "gjk2_penetration", g_answer[0] = '\0';
    pair_answer p0 = from_penetration2(gjk2_penetration(&q, NULL));
    check_penetration("gjk2_penetration", &p0, st, o, &g);
    garbage = in->garbage;
    g_query = "gjk2_penetration (garbage cache)", g_answer[0] = '\0';
    pair_answer p1 = from_penetration2(gjk2_penetration(&q, &garbage));
    check_penetration("gjk2_penetration (garbage cache)", &p1, st, o, &g);
    check_cache2(&garbage, p1.status);
    g_query = "gjk2_penetration (warm cache)", g_answer[0] = '\0';
    pair_answer p2 = from_penetration2(gjk2_penetration(&q, &cache));
    check_penetration("gjk2_penetration (warm cache)", &p2, st, o, &g);

    if (st == PART_SANE) {
        check_agreement("gjk2_intersect/gjk2_distance/gjk2_penetration", &g, io.status, &d0, &p0, o);
        check_same("gjk2_distance with a fresh cache", &g, &d0, &d1, o);
        check_same("gjk2_distance with a warm cache", &g, &d0, &d2, o);
        check_same("gjk2_distance with a garbage cache", &g, &d0, &d3, o);
        check_same("gjk2_penetration with a garbage cache", &g, &p0, &p1, o);
        check_same("gjk2_penetration with a warm cache", &g, &p0, &p2, o);
        if (o->max_distance > 0) {
            gjk2_query_input q0 = q;
            q0.options.max_distance = 0;
            pair_answer d_exact = from_distance2(gjk2_distance(&q0, NULL));
            pair_answer p_exact = from_penetration2(gjk2_penetration(&q0, NULL));
            check_bound_exact("gjk2_distance with max_distance", &g, &d0, &d_exact, o);
            check_bound_exact("gjk2_penetration with max_distance", &g, &p0, &p_exact, o);
        } else if (d0.status == GJK_SEPARATED) {
            // The early stop, which the decoded options seldom reach on a
            // pair apart: max_distance half the distance (no input bytes
            // read, so that the corpus decodes as before).
            gjk2_query_input qh = q;
            qh.options.max_distance = to_real(0.5 * d0.value);
            if (qh.options.max_distance > 0) {
                pair_answer dh = from_distance2(gjk2_distance(&qh, NULL));
                check_distance("gjk2_distance (max_distance half the distance)", &dh, st, &qh.options, &g);
                check_bound_exact("gjk2_distance (max_distance half the distance)", &g, &dh, &d0, &qh.options);
                pair_answer ph = from_penetration2(gjk2_penetration(&qh, NULL));
                check_penetration("gjk2_penetration (max_distance half the distance)", &ph, st, &qh.options, &g);
                check_bound_exact("gjk2_penetration (max_distance half the distance)", &g, &ph, &p0, &qh.options);
            }
        }
    }
    run_contact2(A, B, in, st, &p0, &g);

    {
        gjk2_raycast_input ri;
        memset(&ri, 0, sizeof ri);
        ri.shape = A, ri.transform = in->ta, ri.origin = in->origin, ri.direction = in->direction;
        ri.max_t = in->max_t, ri.options = *o;
        g_query = "gjk2_raycast", g_answer[0] = '\0';
        gjk2_cast_output c = gjk2_raycast(&ri);
        part_state rs = worst(worst(slot_state2(&in->a), in->sta), in->sopt);
        rs = worst(rs, worst(vec2_state(in->origin), vec2_state(in->direction)));
        rs = worst(rs, number_state(in->max_t, true));
        if (rs == PART_SANE && fabs((double)in->max_t) * norm2(in->direction) > SANE_MAX) {
            rs = PART_VALID;
        }
        double point[3], normal[3];
        set2(point, c.point), set2(normal, c.normal);
        check_cast("gjk2_raycast", c.status, c.hit, c.t, point, normal, c.iterations, in->max_t, gjk_cap(o), rs);
        if (rs == PART_SANE && (c.status == GJK_HIT || c.status == GJK_MISS || c.status == GJK_INITIALLY_OVERLAPPING)) {
            gjk_vec2 end = gjk_mul_add2(in->origin, in->max_t, in->direction);
            gjk2_shape seg = gjk2_make_segment(in->origin, end);
            geo gr;
            double seg_bound = maxd(norm2(in->origin), norm2(end));
            geo_init2(&gr, A, in->ta, in->a.bound, &seg, gjk_transform2_identity(), seg_bound, rel, in->extra);
            double tol = geo_tol(&gr, 0);
            double sd = pen_sd2(A, in->ta, &seg, gjk_transform2_identity());
            if (c.status == GJK_MISS) {
                REQUIRE(!(sd < -tol), "a 2D ray missed, but its segment overlaps the shape");
            } else {
                REQUIRE(!(sd > tol), "a 2D ray hit, but its segment is apart from the shape");
            }
            if (c.status == GJK_INITIALLY_OVERLAPPING) {
                double orig[3];
                set2(orig, in->origin);
                REQUIRE(point[0] == orig[0] && point[1] == orig[1], "a 2D ray starting inside: point != origin");
                for (int i = 0; i < gr.ndirs; ++i) {
                    REQUIRE(dot3d(gr.dirs[i], orig) <= geo_h(&gr, 0, gr.dirs[i]) + tol,
                            "initially overlapping, but the origin lies outside the shape");
                }
            }
            if (c.status == GJK_HIT && c.t > 0) {
                gjk_vec2 at = gjk_mul_add2(in->origin, c.t, in->direction);
                double e[3] = {point[0] - at.x, point[1] - at.y, 0};
                REQUIRE(len3d(e) <= tol, "the 2D hit point is not origin + t * direction");
                check_point_on_a(&gr, point, normal, tol);
                gjk2_shape before = gjk2_make_segment(in->origin, at);
                double sdb = pen_sd2(A, in->ta, &before, gjk_transform2_identity());
                REQUIRE(!(sdb < -tol), "the 2D ray overlaps the shape before the hit");
            }
        }
    }
    {
        gjk2_shapecast_input si;
        memset(&si, 0, sizeof si);
        si.shape_a = A, si.transform_a = in->ta, si.shape_b = B, si.transform_b = in->tb;
        si.translation_b = in->translation, si.target_separation = in->target, si.options = *o;
        g_query = "gjk2_shapecast", g_answer[0] = '\0';
        gjk2_cast_output c = gjk2_shapecast(&si);
        part_state ss = worst(st, worst(vec2_state(in->translation), number_state(in->target, true)));
        double point[3], normal[3];
        set2(point, c.point), set2(normal, c.normal);
        check_cast("gjk2_shapecast", c.status, c.hit, c.t, point, normal, c.iterations, 1, gjk_cap(o), ss);
        if (ss == PART_SANE && (c.status == GJK_HIT || c.status == GJK_MISS || c.status == GJK_INITIALLY_OVERLAPPING)) {
            geo gs;
            geo_init2(&gs, A, in->ta, in->a.bound, B, in->tb, in->b.bound + norm2(in->translation), rel, in->extra);
            double target = in->target;
            double tol = geo_tol(&gs, target);
            double sd = swept_sd2(A, in->ta, B, in->tb, in->b.bound, in->translation);
            if (c.status == GJK_MISS) {
                REQUIRE(!(sd < target - tol), "a 2D shape cast missed, but the swept shape comes within the target");
            } else {
                REQUIRE(!(sd > target + tol), "a 2D shape cast hit, but the swept shape stays beyond the target");
            }
            if (c.status == GJK_HIT && c.t > 0) {
                gjk_vec2 motion = gjk_scale2(to_real(c.t), in->translation);
                double sdb = swept_sd2(A, in->ta, B, in->tb, in->b.bound, motion);
                REQUIRE(!(sdb < target - tol), "the moving 2D shape comes within the target before the hit");
                gjk_transform2 at = in->tb;
                at.position = gjk_add2(in->tb.position, motion);
                double sdt = pen_sd2(A, in->ta, B, at);
                REQUIRE(!(fabs(sdt - target) > tol), "at the 2D hit the distance is not the target separation");
                check_point_on_a(&gs, point, normal, tol);
                geo gh;
                geo_init2(&gh, A, in->ta, in->a.bound, B, at, in->b.bound, rel, in->extra);
                detail("gap along the normal at the hit vs the target", normal, geo_gap(&gh, normal), target, tol);
                REQUIRE(!(geo_gap(&gh, normal) < target - 2 * tol),
                        "at the 2D hit the gap along the normal is below the target");
                g_detail[0] = '\0';
            }
        }
    }
    {
        gjk2_toi_input ti;
        memset(&ti, 0, sizeof ti);
        ti.shape_a = A, ti.sweep_a.start = in->ta, ti.sweep_a.end = in->ea;
        ti.shape_b = B, ti.sweep_b.start = in->tb, ti.sweep_b.end = in->eb;
        ti.target_separation = in->toi_target, ti.options = *o;
        g_query = "gjk2_time_of_impact", g_answer[0] = '\0';
        gjk2_cast_output c = gjk2_time_of_impact(&ti);
        part_state ts = worst(worst(st, worst(in->sea, in->seb)), number_state(in->toi_target, true));
        int cap = o->max_iterations > 0 ? o->max_iterations : GJK_DEFAULT_MAX_TOI_ITERATIONS;
        double point[3], normal[3];
        set2(point, c.point), set2(normal, c.normal);
        check_cast("gjk2_time_of_impact", c.status, c.hit, c.t, point, normal, c.iterations, 1, cap, ts);
        if (ts == PART_SANE && c.status != GJK_INVALID_INPUT) {
            gjk_vec2 va = sweep2_pos(&ti.sweep_a), vb = sweep2_pos(&ti.sweep_b);
            gjk_vec2 rel_motion = gjk_sub2(vb, va);
            geo gt;
            geo_init2(&gt, A, in->ta, in->a.bound + norm2(va), B, in->tb, in->b.bound + norm2(vb), rel, in->extra);
            double target = in->toi_target;
            double tol = geo_tol(&gt, target);
            if (c.status == GJK_HIT) {
                gjk_transform2 at_a = gjk2_sweep_at(&ti.sweep_a, to_real(c.t));
                gjk_transform2 at_b = gjk2_sweep_at(&ti.sweep_b, to_real(c.t));
                double sdt = pen_sd2(A, at_a, B, at_b);
                if (c.t > 0) {
                    REQUIRE(!(fabs(sdt - target) > tol), "at the 2D time of impact the distance is not the target");
                    geo gh;
                    geo_init2(&gh, A, at_a, in->a.bound, B, at_b, in->b.bound, rel, in->extra);
                    check_point_on_a(&gh, point, normal, tol);
                    detail("gap along the normal at t vs the target", normal, geo_gap(&gh, normal), target, tol);
                    REQUIRE(!(geo_gap(&gh, normal) < target - 2 * tol),
                            "at the 2D time of impact the gap along the normal is below the target");
                    g_detail[0] = '\0';
                } else {
                    REQUIRE(!(sdt > target + tol), "a 2D impact at t = 0, but the shapes start beyond the target");
                }
            }
            bool translation_only = memcmp(&in->ta.rotation, &in->ea.rotation, sizeof(gjk_rot2)) == 0 &&
                                    memcmp(&in->tb.rotation, &in->eb.rotation, sizeof(gjk_rot2)) == 0;
            if (translation_only) {
                double sd = swept_sd2(A, in->ta, B, in->tb, in->b.bound, rel_motion);
                if (c.status == GJK_MISS) {
                    REQUIRE(!(sd < target - tol), "2D time of impact missed, but the relative sweep comes within the target");
                } else if (c.hit) {
                    REQUIRE(!(sd > target + tol), "2D time of impact hit, but the relative sweep stays beyond the target");
                }
                if ((c.status == GJK_HIT || c.status == GJK_NOT_CONVERGED) && c.t > 0) {
                    double sdb = swept_sd2(A, in->ta, B, in->tb, in->b.bound, gjk_scale2(to_real(c.t), rel_motion));
                    REQUIRE(!(sdb < target - tol), "2D time of impact: the shapes come within the target before t");
                }
            }
        }
    }
}

// ---- 2D geometry utilities on the decoded polygons ------------------------------------------------

static bool same_point2(gjk_vec2 a, gjk_vec2 b) { return a.x == b.x && a.y == b.y; }

/// The hull's contract: its points come from the input, it is convex and
/// counter-clockwise, and it holds every input point.
static int check_hull(const gjk_vec2 *p, int n, gjk_vec2 *out, bool sane) {
    int h = gjk2_convex_hull(p, n, out);
    bool finite = p != NULL && n >= 1;
    for (int i = 0; finite && i < n; ++i) {
        finite = fin2(p[i]);
    }
    snprintf(g_answer, sizeof g_answer, "hull count=%d (input count %d)", h, n);
    if (!finite) {
        REQUIRE(h == -1, "gjk2_convex_hull accepted NULL, an empty or a non-finite point list");
        return h;
    }
    REQUIRE(h >= 1 && h <= n, "gjk2_convex_hull count outside [1, n]");
    for (int i = 0; i < h; ++i) {
        bool found = false;
        for (int j = 0; j < n && !found; ++j) {
            found = same_point2(out[i], p[j]);
        }
        REQUIRE(found, "gjk2_convex_hull returned a point that is not an input point");
    }
    if (!sane) {
        return h;
    }
    double m = 0;
    for (int i = 0; i < n; ++i) {
        m = maxd(m, mag2(p[i]));
    }
    double tol = 64 * REAL_EPS * m * m + CHECK_FLOOR;
    if (h >= 3) {
        for (int i = 0; i < h; ++i) {
            gjk_vec2 a = out[i], b = out[(i + 1) % h];
            for (int j = 0; j < n; ++j) {
                double cr = ((double)b.x - a.x) * ((double)p[j].y - a.y) - ((double)b.y - a.y) * ((double)p[j].x - a.x);
                REQUIRE(cr >= -tol, "an input point lies outside the convex hull (or the hull is not counter-clockwise)");
            }
        }
    }
    return h;
}

static void run_geometry2(const input2 *in) {
    g_query = "2D geometry utilities";
    g_answer[0] = '\0';
    const slot2 *sa = &in->a, *sb = &in->b;
    const gjk_vec2 *p = sa->vert_count > 0 ? sa->verts : NULL;
    int n = sa->vert_count;
    const gjk_vec2 *q = sb->vert_count > 0 ? sb->verts : NULL;
    int m = sb->vert_count;
    if (p == NULL && !sa->null_shape && sa->shape.type == GJK2_SHAPE_POLYGON) {
        p = sa->shape.polygon.vertices, n = sa->shape.polygon.count; // NULL or a bad count
    }

    gjk2_convexity_output cv = gjk2_polygon_convexity(p, n);
    REQUIRE((cv.convexity == GJK2_CONVEX || cv.convexity == GJK2_CONCAVE || cv.convexity == GJK2_DEGENERATE) &&
                cv.orientation >= -1 && cv.orientation <= 1,
            "gjk2_polygon_convexity answer out of range");
    if (cv.convexity == GJK2_DEGENERATE) {
        REQUIRE(cv.orientation == 0, "a degenerate polygon with an orientation");
    }

    gjk_vec2 hull_a[MAX_VERTS], hull_b[MAX_VERTS];
    bool sane_a = sa->vert_count > 0 && sa->sane, sane_b = sb->vert_count > 0 && sb->sane;
    // The polygon's margin does not matter here; use the vertices' own sanity.
    if (sa->vert_count > 0 && !sa->sane) {
        sane_a = true;
        for (int i = 0; i < sa->vert_count; ++i) {
            sane_a = sane_a && mag2(sa->verts[i]) <= SANE_MAX;
        }
    }
    if (sb->vert_count > 0 && !sb->sane) {
        sane_b = true;
        for (int i = 0; i < sb->vert_count; ++i) {
            sane_b = sane_b && mag2(sb->verts[i]) <= SANE_MAX;
        }
    }
    int ha = check_hull(p, n, hull_a, sane_a);
    int hb = check_hull(q, m, hull_b, sane_b);
    if (ha >= 3 && sane_a) {
        gjk2_convexity_output hc = gjk2_polygon_convexity(hull_a, ha);
        snprintf(g_answer, sizeof g_answer, "hull of %d points: convexity=%d orientation=%d", ha, (int)hc.convexity,
                 hc.orientation);
        // The hull keeps every strict turn; the classifier calls an area
        // within rounding of zero (relative to the coordinates) degenerate.
        // Demand "convex" only where the area is clearly not rounding.
        double area2 = 0, scale = 0;
        for (int i = 0; i < ha; ++i) {
            gjk_vec2 a = gjk_sub2(hull_a[i], hull_a[0]), b = gjk_sub2(hull_a[(i + 1) % ha], hull_a[0]);
            area2 += (double)a.x * b.y - (double)a.y * b.x;
            scale = maxd(scale, mag2(a));
        }
        if (area2 > 1e3 * REAL_EPS * ha * scale * scale) {
            REQUIRE(hc.convexity == GJK2_CONVEX && hc.orientation == 1,
                    "gjk2_polygon_convexity does not call the hull convex and counter-clockwise");
        } else {
            REQUIRE((hc.convexity == GJK2_CONVEX && hc.orientation == 1) ||
                        (hc.convexity == GJK2_DEGENERATE && hc.orientation == 0),
                    "gjk2_polygon_convexity calls a nearly flat hull concave or clockwise");
        }
    }
    // GJK_FUZZ_IGNORE="known hang&[huge input]" skips this call on huge input
    // (finding f7: a NaN cross product stops the merge from advancing).
    if (ha >= 1 && hb >= 1 && !ignored("gjk2_minkowski_sum: known hang")) {
        gjk_vec2 sum[2 * MAX_VERTS];
        int ms = gjk2_minkowski_sum(hull_a, ha, hull_b, hb, sum);
        snprintf(g_answer, sizeof g_answer, "minkowski sum count=%d of %d and %d", ms, ha, hb);
        REQUIRE(ms >= -1 && ms <= ha + hb, "gjk2_minkowski_sum count out of range");
        if (sane_a && sane_b) {
            REQUIRE(ms >= 1, "gjk2_minkowski_sum rejected two hulls");
            for (int k = 0; k < ms; ++k) {
                REQUIRE(fin2(sum[k]), "a Minkowski sum point is not finite");
                double best = INFINITY;
                for (int i = 0; i < ha; ++i) {
                    for (int j = 0; j < hb; ++j) {
                        double dx = (double)sum[k].x - ((double)hull_a[i].x + hull_b[j].x);
                        double dy = (double)sum[k].y - ((double)hull_a[i].y + hull_b[j].y);
                        best = fmin(best, fabs(dx) + fabs(dy));
                    }
                }
                double scale = 0;
                for (int i = 0; i < ha; ++i) {
                    scale = maxd(scale, mag2(hull_a[i]));
                }
                for (int j = 0; j < hb; ++j) {
                    scale = maxd(scale, mag2(hull_b[j]));
                }
                REQUIRE(best <= 8 * REAL_EPS * scale + CHECK_FLOOR,
                        "a Minkowski sum vertex is not the sum of two hull vertices");
            }
        }
    }
    {
        static gjk_vec2 scratch[MAX_VERTS * MAX_VERTS], out[MAX_VERTS * MAX_VERTS]; // not per query: static
        int md = gjk2_minkowski_difference_hull(p, n, q, m, scratch, out);
        snprintf(g_answer, sizeof g_answer, "minkowski difference hull count=%d of %d and %d", md, n, m);
        REQUIRE(md == -1 || (md >= 1 && md <= n * m), "gjk2_minkowski_difference_hull count out of range");
        if (ha >= 1 && hb >= 1 && sane_a && sane_b) { // huge lists may overflow: -1 is allowed then
            REQUIRE(md >= 1, "gjk2_minkowski_difference_hull rejected two valid point lists");
        }
        for (int k = 0; k < md; ++k) {
            REQUIRE(fin2(out[k]) || !(sane_a && sane_b), "a Minkowski difference point is not finite");
        }
    }
}

// ---- entry point ------------------------------------------------------------------------------

static bool tiny_quat(gjk_quat q) {
    double m = maxd(maxd(mag(q.w), mag(q.x)), maxd(mag(q.y), mag(q.z)));
    return m > 0 && m < TINY_MARK;
}

static bool tiny_rot2(gjk_rot2 r) {
    double m = maxd(mag(r.c), mag(r.s));
    return m > 0 && m < TINY_MARK;
}

static void set_tags(bool huge, bool tiny, const gjk_options *o, bool tiny_rotation) {
    snprintf(g_tags, sizeof g_tags, "%s%s%s%s", huge ? " [huge input]" : "", tiny ? " [tiny input]" : "",
             o->max_distance > 0 ? " [max_distance]" : "", tiny_rotation ? " [tiny rotation]" : "");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    reader r = {data, size, false, false};
    input3 in3;
    input2 in2;
    read_input3(&r, &in3);
    read_input2(&r, &in2);
    static int dump = -1;
    if (dump < 0) {
        dump = getenv("GJK_FUZZ_DUMP") != NULL; // print every decoded input
    }
    if (dump) {
        g_in3 = &in3, g_in2 = &in2;
        dump_input();
    }
    g_in3 = &in3, g_in2 = NULL;
    set_tags(in3.huge, in3.tiny, &in3.opt,
             tiny_quat(in3.ta.rotation) || tiny_quat(in3.tb.rotation) || tiny_quat(in3.ea.rotation) ||
                 tiny_quat(in3.eb.rotation));
    run3(&in3);
    g_in3 = NULL, g_in2 = &in2;
    set_tags(in2.huge, in2.tiny, &in2.opt,
             tiny_rot2(in2.ta.rotation) || tiny_rot2(in2.tb.rotation) || tiny_rot2(in2.ea.rotation) ||
                 tiny_rot2(in2.eb.rotation));
    run2(&in2);
    run_geometry2(&in2);
    g_in2 = NULL;
    gjk_hull_destroy(in3.a.hull);
    gjk_hull_destroy(in3.b.hull);
    return 0;
}
