// Casts: where a ray enters a crate, where a ball thrown at it first touches
// it, and when a spinning plank, too fast to be caught between two frames,
// first strikes a post.
#include <stdio.h>

#include "gjk/gjk.h"

int main(void) {
    gjk_shape crate = gjk_make_box(gjk_v3(1, 1, 1));
    gjk_transform crate_pose = gjk_transform_make(gjk_v3(5, 0, 0), gjk_quat_identity());

    // A ray from the origin along +x, up to 10 units: it enters the crate's
    // face x = 4 at t = 4.
    gjk_raycast_input ray = {.shape = &crate, .transform = crate_pose, .origin = gjk_v3(0, 0, 0),
                             .direction = gjk_v3(1, 0, 0), .max_t = 10};
    gjk_cast_output r = gjk_raycast(&ray);
    printf("ray: %s at t = %g, point (%g %g %g), normal (%g %g %g)\n", gjk_status_name(r.status), (double)r.t,
           (double)r.point.x, (double)r.point.y, (double)r.point.z, (double)r.normal.x, (double)r.normal.y,
           (double)r.normal.z);

    // A ball of radius 0.5 thrown from (0, 0.5, 0) by (8, 0, 0): it touches
    // the face x = 4 when its centre reaches x = 3.5, at t = 3.5 / 8.
    gjk_shape ball = gjk_make_sphere(0.5);
    gjk_shapecast_input cast = {.shape_a = &crate, .transform_a = crate_pose, .shape_b = &ball,
                                .transform_b = gjk_transform_make(gjk_v3(0, 0.5, 0), gjk_quat_identity()),
                                .translation_b = gjk_v3(8, 0, 0)};
    gjk_cast_output c = gjk_shapecast(&cast);
    printf("ball: %s at t = %g, contact (%g %g %g), normal (%g %g %g)\n", gjk_status_name(c.status), (double)c.t,
           (double)c.point.x, (double)c.point.y, (double)c.point.z, (double)c.normal.x, (double)c.normal.y,
           (double)c.normal.z);

    // A plank 4 long and 0.1 thick turns about its centre by 3.1 rad in one
    // step; a thin post stands 1.5 from that centre. At both ends of the
    // step the plank lies along the x axis, clear of the post: only the
    // motion between them shows that its end sweeps through it, near a
    // quarter turn. Conservative advancement finds the first touch without
    // stepping past it, and the pose there (gjk_sweep_at).
    gjk_shape plank = gjk_make_box(gjk_v3(2, 0.05, 0.05));
    gjk_shape post = gjk_make_cylinder(0.05, 1); // radius, half height (along z)
    gjk_vec3 up = gjk_v3(0, 0, 1);
    gjk_toi_input toi = {
        .shape_a = &post,
        .sweep_a = {gjk_transform_make(gjk_v3(0, 1.5, 0), gjk_quat_identity()),
                    gjk_transform_make(gjk_v3(0, 1.5, 0), gjk_quat_identity())},
        .shape_b = &plank,
        .sweep_b = {gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_identity()),
                    gjk_transform_make(gjk_v3(0, 0, 0), gjk_quat_from_axis_angle(up, 3.1))},
    };
    gjk_cast_output t = gjk_time_of_impact(&toi);
    gjk_transform at = gjk_sweep_at(&toi.sweep_b, t.t);
    printf("plank: %s at t = %g (turned by %g rad, rotation (%g %g %g %g)), contact (%g %g %g)\n",
           gjk_status_name(t.status), (double)t.t, 3.1 * (double)t.t, (double)at.rotation.w, (double)at.rotation.x,
           (double)at.rotation.y, (double)at.rotation.z, (double)t.point.x, (double)t.point.y, (double)t.point.z);

    double ray_off = (double)r.t - 4, ball_off = (double)c.t - 3.5 / 8;
    int ok = r.status == GJK_HIT && c.status == GJK_HIT && t.status == GJK_HIT && ray_off * ray_off < 1e-12 &&
             ball_off * ball_off < 1e-12;
    return ok ? 0 : 1;
}
