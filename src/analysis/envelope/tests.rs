//! What can be derived about the envelope, checked against the walks.

use super::*;
use crate::character::rolling_height;
use crate::collide::SlideSettings;
use glam::DVec3;

fn settings(step: f64, slope: f64) -> SlideSettings {
    let mut s = SlideSettings::default();
    s.character.max_step_height_m = step;
    s.character.max_slope_deg = slope;
    s
}

#[test]
fn the_envelope_matches_what_the_settings_and_the_ellipsoid_imply() {
    let s = settings(0.3, 45.0);
    let e = envelope(&s).unwrap();
    let skin = s.skin;
    // An explicit step: the step height, within the skin it rests above the floor.
    let step = e.max_step_height_m.value;
    assert!(step > 0.3 - 0.002 && step < 0.3 + skin + 0.003, "{step}");
    let running = e.max_step_height_running_m.value;
    assert!((running - step).abs() < 0.02, "{running} vs {step}");
    // The walkable slope is the steepest ramp walked up.
    let slope = e.max_slope_deg.value;
    assert!((slope - 45.0).abs() < 0.3, "{slope}");
    // Openings: the ellipsoid's width and height, plus a skin each side.
    let width = e.min_opening_width_m.value;
    assert!(width > 0.8 && width < 0.8 + 2.0 * skin + 0.003, "{width}");
    let height = e.min_opening_height_m.value;
    assert!(
        height > 1.8 && height < 1.8 + 3.0 * skin + 0.003,
        "{height}"
    );
    // A gap some of the ellipsoid bridges, crossed at speed.
    let gap = e.max_gap_crossed_m.value;
    assert!(gap > 0.1 && gap < 3.0, "{gap}");
    for limit in [
        &e.max_step_height_m,
        &e.max_slope_deg,
        &e.min_opening_width_m,
    ] {
        assert!(limit.found && limit.failed_at.is_some(), "{limit:?}");
        assert!(limit.fail_walk.as_ref().unwrap().stalled_at_frame.is_some());
    }
}

#[test]
fn rolling_alone_climbs_what_the_slope_limit_allows_and_less_than_the_radius() {
    let s = settings(0.0, 45.0);
    let e = envelope(&s).unwrap();
    let bound = rolling_height(DVec3::new(0.4, 0.9, 0.4), DVec3::X, 45.0) + s.skin;
    let step = e.max_step_height_m.value;
    assert!(step < 0.9, "{step}");
    assert!((step - bound).abs() < 0.01, "{step} vs the derived {bound}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 8, ..Default::default() })]

    /// More step height climbs no lower steps; a wider slope limit walks up
    /// no gentler ramps; a larger body fits through no narrower openings.
    #[test]
    fn the_envelope_is_monotone_in_the_settings_that_should_make_it_so(
        h in 0.1..0.5f64, dh in 0.02..0.3f64, a in 15.0..60.0f64, da in 2.0..20.0f64,
        r in 0.25..0.5f64, dr in 0.02..0.2f64,
    ) {
        let low = envelope(&settings(h, a)).unwrap();
        let high = envelope(&settings(h + dh, a + da)).unwrap();
        proptest::prop_assert!(high.max_step_height_m.value >= low.max_step_height_m.value - 1e-9);
        proptest::prop_assert!(high.max_slope_deg.value >= low.max_slope_deg.value - 1e-9);
        let thin = SlideSettings { radii: [r, 0.9, r], ..SlideSettings::default() };
        let wide = SlideSettings { radii: [r + dr, 0.9, r + dr], ..SlideSettings::default() };
        let (thin, wide) = (envelope(&thin).unwrap(), envelope(&wide).unwrap());
        proptest::prop_assert!(
            wide.min_opening_width_m.value >= thin.min_opening_width_m.value - 1e-9
        );
    }
}
