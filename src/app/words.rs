//! The solver's outcomes in a designer's words, for the inspector and the
//! stepper bar. The exact enum (what the JSON trace and the code call it)
//! stays available beside them, on hover: these functions only choose the
//! words. No egui here.

use crate::collide::{CandidateOutcome, EndReason, IterationOutcome, Pass};
use crate::geometry::sweep::MissReason;
use crate::math::Aabb;

/// "velocity" or "gravity".
pub fn pass_words(pass: Pass) -> &'static str {
    match pass {
        Pass::Velocity => "velocity",
        Pass::Gravity => "gravity",
    }
}

/// Why a pass or the move ended, as a phrase.
pub fn end_reason_words(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Arrived => "arrived: nothing was in the way",
        EndReason::TooShort => "the remaining motion was too short to continue",
        EndReason::IterationCap => "stopped at the iteration limit with motion left",
        EndReason::CreaseStop => "boxed in by a third contact plane (a crease)",
        EndReason::Blocked => "blocked: the slide runs into a plane already met (a corner)",
        EndReason::StuckEmbedded => "stuck inside geometry: it could not be pushed free",
    }
}

/// Whether the recursion goes on after an iteration, as a sentence.
pub fn iteration_outcome_words(outcome: IterationOutcome) -> String {
    match outcome {
        IterationOutcome::Continue => "continues: the rest of the move slides on".into(),
        IterationOutcome::PassEnded(r) => format!("this pass ended, {}", end_reason_words(r)),
        IterationOutcome::MoveEnded(r) => format!("the move ended, {}", end_reason_words(r)),
    }
}

/// Why a candidate triangle was not hit.
pub fn miss_words(reason: MissReason) -> &'static str {
    match reason {
        MissReason::Degenerate => "missed: the triangle is too thin to have a direction",
        MissReason::BackFacing => "missed: moving away from its front (one-sided)",
        MissReason::PlaneNotReached => "missed: its plane is not reached",
        MissReason::NoFeatureHit => "missed: no feature of the triangle is reached",
    }
}

/// One candidate's outcome in words (hits with their time of impact).
pub fn candidate_words(o: &CandidateOutcome, feature: impl Fn() -> String) -> String {
    match o {
        CandidateOutcome::NonColliding => "not colliding (its object is switched off)".into(),
        CandidateOutcome::Miss { reason } => miss_words(*reason).into(),
        CandidateOutcome::Separating { .. } => {
            format!("touching but moving away ({})", feature())
        }
        CandidateOutcome::Hit { t, .. } => format!("HIT t = {t:.6} ({})", feature()),
    }
}

/// The swept query box as two corners in metres, or "empty" when the
/// iteration queried nothing (its box is the inverted empty box).
pub fn query_box_words(aabb: &Aabb) -> String {
    if aabb.is_empty() || !aabb.min.is_finite() || !aabb.max.is_finite() {
        return "empty (nothing was queried)".into();
    }
    let corner = |v: glam::Vec3| format!("({:.3}, {:.3}, {:.3})", v.x, v.y, v.z);
    format!("{} to {}", corner(aabb.min), corner(aabb.max))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Debug` text looks like `MoveEnded(Arrived)` or `NoFeatureHit`: a
    /// capital inside a word or right before `(`.
    fn looks_like_debug(s: &str) -> bool {
        let b = s.as_bytes();
        b.windows(2).any(|w| {
            (w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
                || (w[0].is_ascii_alphabetic() && w[1] == b'(')
        }) || s.contains("inf")
    }

    #[test]
    fn every_outcome_reads_as_words() {
        let reasons = [
            EndReason::Arrived,
            EndReason::TooShort,
            EndReason::IterationCap,
            EndReason::CreaseStop,
            EndReason::Blocked,
            EndReason::StuckEmbedded,
        ];
        for r in reasons {
            for o in [
                IterationOutcome::Continue,
                IterationOutcome::PassEnded(r),
                IterationOutcome::MoveEnded(r),
            ] {
                let w = iteration_outcome_words(o);
                assert!(!looks_like_debug(&w), "{w}");
            }
        }
        assert!(end_reason_words(EndReason::TooShort).contains("too short to continue"));
        for m in [
            MissReason::Degenerate,
            MissReason::BackFacing,
            MissReason::PlaneNotReached,
            MissReason::NoFeatureHit,
        ] {
            assert!(!looks_like_debug(miss_words(m)), "{m:?}");
        }
        assert!(looks_like_debug("MoveEnded(Arrived)") && looks_like_debug("NoFeatureHit"));
    }

    #[test]
    fn an_empty_query_box_says_empty() {
        assert_eq!(query_box_words(&Aabb::EMPTY), "empty (nothing was queried)");
        let b = Aabb::from_corners(glam::Vec3::ZERO, glam::Vec3::ONE);
        assert_eq!(
            query_box_words(&b),
            "(0.000, 0.000, 0.000) to (1.000, 1.000, 1.000)"
        );
    }
}
