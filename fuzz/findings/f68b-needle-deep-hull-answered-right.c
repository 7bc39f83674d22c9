// For f68's next fix (passes now): a needle hull of 6 points (A) against a
// hull of 23 points (B), overlapping by 5.342e-10, 2.95 tolerances (qhull's
// hull of A - B, quad precision). The current code answers it right; the
// needle-triangle solve of 8c6e90a (reverted) answered "separated by
// 2.44e-10", its walk stopped at a needle triangle (review of 8c6e90a).
#include <stdio.h>
#include "gjk/gjk.h"
#include "gjk/hull.h"
static const gjk_vec3 A[] = {{-0x1.6d6062p-2, 0x1.168b72p-2, -0x1.044506p-1},{0x1.6d6062p-2, -0x1.168b72p-2, 0x1.044506p-1},{0x1.956432p-3, -0x1.350cdp-3, 0x1.20c606p-2},{0x1.3b473ep-4, -0x1.e0b468p-5, 0x1.c12a86p-4},{0x1.37485ap-2, -0x1.da9ccap-3, 0x1.bb793ap-2},{0x1.2f3946p-2, -0x1.ce5336p-3, 0x1.affe08p-2}};
static const gjk_vec3 B[] = {{-0x1.36be7p-1, -0x1.c813c6p-2, -0x1.25b6e4p-2},{0x1.323b6p-1, -0x1.28bffcp-3, 0x1.99a304p-2},{0x1.3dcefap-6, -0x1.bc513ep-3, -0x1.c7fd22p-2},{0x1.2f0f4p-4, 0x1.68045p-2, -0x1.54daaep-1},{-0x1.a6f2fp-2, 0x1.3acee4p-4, 0x1.5cfeb4p-2},{0x1.109bep-1, 0x1.232ef2p-2, -0x1.2c5584p-2},{-0x1.88d1d8p-6, 0x1.c6e86ep-4, 0x1.caa89ep-1},{0x1.dfa27ap-2, -0x1.4378fep-2, 0x1.28211ep-1},{-0x1.60be68p-1, 0x1.365048p-3, -0x1.765972p-3},{0x1.6ada98p-4, -0x1.1efd1ap-1, 0x1.9a838ap-2},{0x1.8ab59cp-6, 0x1.e79034p-4, -0x1.09382p-1},{0x1.eac11ap-3, -0x1.0ac588p-3, -0x1.c156ecp-4},{-0x1.d2e99ep-3, -0x1.a8a446p-6, -0x1.aa8ae2p-6},{-0x1.3f1162p-2, 0x1.69233ap-2, 0x1.ec4d04p-6},{-0x1.a937cep-4, -0x1.19095ep-3, -0x1.6169dep-2},{0x1.7ca8aap-2, 0x1.2bb1a8p-1, 0x1.1e8738p-1},{-0x1.d52c6ap-6, 0x1.7d7678p-2, 0x1.94f85cp-2},{-0x1.2d76ep-2, -0x1.c86bf2p-2, 0x1.ae421p-2},{0x1.841f4cp-4, -0x1.074e1cp-3, -0x1.ba1b0cp-1},{0x1.390becp-2, 0x1.163b5cp-3, -0x1.55923cp-1},{-0x1.00f0e2p-1, 0x1.cb6918p-2, -0x1.f72812p-4},{0x1.76307ep-4, -0x1.588d16p-1, -0x1.f0071ap-3},{-0x1.c6db58p-2, -0x1.37c422p-4, -0x1.42af86p-2}};
int main(void) {
    gjk_hull_error e;
    gjk_hull *ha = gjk_hull_create(A, 6, &e), *hb = gjk_hull_create(B, 23, &e);
    gjk_shape sa = gjk_make_hull(ha), sb = gjk_make_hull(hb);
    gjk_quat id = {0, 0, 0, 1}; id.w = 1; id.x = id.y = id.z = 0;
    gjk_query_input in = {&sa, gjk_transform_make(gjk_v3(0, 0, 0), id), &sb, gjk_transform_make(gjk_v3(0x1.5fa1f1202653ep-2, -0x1.85580a09a04dfp-6, -0x1.c298d11358274p-2), id), {0}};
    gjk_distance_output d = gjk_distance(&in, NULL);
    gjk_penetration_output p = gjk_penetration(&in, NULL);
    printf("distance: %s %.6g\npenetration: %s sd %.6g normal (%.6f %.6f %.6f)\nexpected: PENETRATING sd -5.342e-10 normal (0.840270 0.110143 -0.530863)\n", gjk_status_name(d.status), (double)d.distance, gjk_status_name(p.status), (double)p.signed_distance, (double)p.normal.x, (double)p.normal.y, (double)p.normal.z);
    return 0;
}
