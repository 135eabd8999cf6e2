//! Overlay labels on the viewport, laid out so that they never pile up.
//!
//! A stepped contact puts "plane", "polygon", "ellipsoid", "t = …" and the
//! triangle's number at nearly the same pixel. Labels whose points are
//! within a few pixels become one callout (a small dark card with one line
//! per label, each in its overlay's colour), and the callouts are placed
//! greedily around their points, most important first, so that no two
//! cards overlap: the first free spot on rings of growing distance, joined
//! to the point by a leader line when it had to move away. A card with no
//! free spot left is not drawn, and the view says how many were hidden
//! ("+3 labels hidden"): on a cathedral seen from afar, cards piled on
//! cards name nothing. Screen space (egui points) throughout.

use eframe::egui::{self, Color32, Pos2, Rect, Stroke, Vec2, pos2, vec2};

/// Labels whose points are this close (screen points) share one callout.
const MERGE_PX: f32 = 6.0;
/// Space kept between two cards and between a card and the view's edge.
const GAP_PX: f32 = 3.0;
/// Padding inside a card.
const PAD_PX: f32 = 3.0;
/// Distances tried from the point, nearest first.
const RINGS_PX: [f32; 8] = [6.0, 24.0, 48.0, 80.0, 120.0, 170.0, 240.0, 330.0];

/// One card: the point it names and its lines (text, colour).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Callout {
    /// The screen point the card names.
    pub anchor: Pos2,
    /// One line per label, in drawing order, without repeats.
    pub lines: Vec<(String, Color32)>,
}

/// The labels whose points are inside `view`: one pinned to the view's
/// edge would name nothing in sight (a pole behind the left panel).
pub(crate) fn in_view(
    labels: Vec<(Pos2, String, Color32)>,
    view: Rect,
) -> Vec<(Pos2, String, Color32)> {
    labels
        .into_iter()
        .filter(|(pos, _, _)| view.contains(*pos))
        .collect()
}

/// Groups labels by point: a label within [`MERGE_PX`] of a callout's
/// point joins it (the first label's point stays the callout's).
pub(crate) fn merge_callouts(labels: Vec<(Pos2, String, Color32)>) -> Vec<Callout> {
    let mut out: Vec<Callout> = Vec::new();
    for (pos, text, color) in labels {
        match out.iter_mut().find(|c| c.anchor.distance(pos) <= MERGE_PX) {
            Some(c) => {
                if !c.lines.iter().any(|(t, _)| *t == text) {
                    c.lines.push((text, color));
                }
            }
            None => out.push(Callout {
                anchor: pos,
                lines: vec![(text, color)],
            }),
        }
    }
    out
}

/// Places a card of each size near its anchor inside `bounds`, in order
/// (the most important first), none overlapping another or one of
/// `covers` (what is drawn over the view: the legend, the hover box), with
/// [`GAP_PX`] between. A card with no free spot on any ring is left out
/// (`None`).
pub(crate) fn place_cards(
    anchors: &[Pos2],
    sizes: &[Vec2],
    bounds: Rect,
    covers: &[Rect],
) -> Vec<Option<Rect>> {
    let mut placed: Vec<Rect> = covers.to_vec();
    let mut out = Vec::with_capacity(anchors.len());
    for (&anchor, &size) in anchors.iter().zip(sizes) {
        let spot = RINGS_PX.iter().find_map(|&r| {
            DIRECTIONS.iter().find_map(|&dir| {
                let rect = card_at(anchor, size, dir, r, bounds);
                let free = bounds.contains_rect(rect)
                    && placed
                        .iter()
                        .all(|p| overlap_area(p.expand(GAP_PX), rect) == 0.0);
                free.then_some(rect)
            })
        });
        if let Some(rect) = spot {
            placed.push(rect);
        }
        out.push(spot);
    }
    out
}

/// Up-right first (where a label sits by convention), then the other
/// diagonals, then straight up, down, right and left.
const DIRECTIONS: [Vec2; 8] = [
    vec2(1.0, -1.0),
    vec2(-1.0, -1.0),
    vec2(1.0, 1.0),
    vec2(-1.0, 1.0),
    vec2(0.0, -1.0),
    vec2(0.0, 1.0),
    vec2(1.0, 0.0),
    vec2(-1.0, 0.0),
];

/// The card of `size` offset by `r` from `anchor` in `dir` (its near corner
/// or edge towards the anchor), moved inside `bounds` when it sticks out.
fn card_at(anchor: Pos2, size: Vec2, dir: Vec2, r: f32, bounds: Rect) -> Rect {
    let near = anchor + dir * r;
    // The card lies on the far side of `near` along each axis of `dir`;
    // centred on an axis where `dir` is zero.
    let min_x = match dir.x {
        x if x > 0.0 => near.x,
        x if x < 0.0 => near.x - size.x,
        _ => near.x - size.x / 2.0,
    };
    let min_y = match dir.y {
        y if y > 0.0 => near.y,
        y if y < 0.0 => near.y - size.y,
        _ => near.y - size.y / 2.0,
    };
    let inner = bounds.shrink(GAP_PX);
    let x = min_x.clamp(inner.left(), (inner.right() - size.x).max(inner.left()));
    let y = min_y.clamp(inner.top(), (inner.bottom() - size.y).max(inner.top()));
    Rect::from_min_size(pos2(x, y), size)
}

fn overlap_area(a: Rect, b: Rect) -> f32 {
    let i = a.intersect(b);
    if i.is_positive() { i.area() } else { 0.0 }
}

/// Lays out and paints the callouts (the most important first); returns
/// the rectangles of the cards drawn and how many callouts found no room.
pub(crate) fn paint(
    painter: &egui::Painter,
    callouts: &[Callout],
    size_pt: f32,
    covers: &[Rect],
) -> (Vec<Rect>, usize) {
    let font = egui::FontId::monospace(size_pt);
    let galleys: Vec<_> = callouts
        .iter()
        .map(|c| {
            let mut job = egui::text::LayoutJob::default();
            for (i, (text, color)) in c.lines.iter().enumerate() {
                let sep = if i == 0 { "" } else { "\n" };
                job.append(
                    &format!("{sep}{text}"),
                    0.0,
                    egui::TextFormat::simple(font.clone(), *color),
                );
            }
            painter.layout_job(job)
        })
        .collect();
    let anchors: Vec<Pos2> = callouts.iter().map(|c| c.anchor).collect();
    let sizes: Vec<Vec2> = galleys
        .iter()
        .map(|g| g.size() + Vec2::splat(2.0 * PAD_PX))
        .collect();
    let spots = place_cards(&anchors, &sizes, painter.clip_rect(), covers);
    let hidden = spots.iter().filter(|s| s.is_none()).count();
    let mut cards = Vec::with_capacity(spots.len());
    for ((spot, galley), anchor) in spots.iter().zip(galleys).zip(&anchors) {
        let Some(card) = spot else { continue };
        let near = card.clamp(*anchor);
        if near.distance(*anchor) > RINGS_PX[0] + 2.0 {
            painter.line_segment([*anchor, near], Stroke::new(1.0, Color32::from_gray(200)));
            painter.circle_filled(*anchor, 2.0, Color32::from_gray(230));
        }
        painter.rect_filled(*card, 3.0, Color32::from_black_alpha(170));
        painter.galley(card.min + Vec2::splat(PAD_PX), galley, Color32::WHITE);
        cards.push(*card);
    }
    (cards, hidden)
}

/// The words for labels left out: "+3 labels hidden".
pub(crate) fn hidden_words(n: usize) -> String {
    match n {
        1 => "+1 label hidden".into(),
        n => format!("+{n} labels hidden"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_of_points_outside_the_view_are_dropped() {
        let view = Rect::from_min_size(pos2(260.0, 25.0), vec2(780.0, 520.0));
        let label = |x: f32, y: f32, t: &str| (pos2(x, y), t.to_string(), Color32::WHITE);
        let kept = in_view(
            vec![
                label(500.0, 300.0, "pole 0"),
                label(120.0, 300.0, "pole 4"),
                label(500.0, 700.0, "pole 3"),
            ],
            view,
        );
        let names: Vec<&str> = kept.iter().map(|(_, t, _)| t.as_str()).collect();
        assert_eq!(names, ["pole 0"]);
    }

    fn disjoint(cards: &[Rect]) -> bool {
        cards.iter().enumerate().all(|(i, a)| {
            cards[i + 1..]
                .iter()
                .all(|b| !a.intersect(*b).is_positive())
        })
    }

    #[test]
    fn labels_at_one_point_become_one_callout_without_repeats() {
        let p = pos2(100.0, 100.0);
        let c = Color32::RED;
        let merged = merge_callouts(vec![
            (p, "plane".into(), c),
            (p + vec2(2.0, 1.0), "polygon".into(), c),
            (p, "plane".into(), c),
            (pos2(300.0, 100.0), "destination".into(), c),
        ]);
        assert_eq!(merged.len(), 2);
        let texts: Vec<_> = merged[0].lines.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(texts, ["plane", "polygon"]);
    }

    #[test]
    fn cards_around_one_point_never_overlap_and_stay_inside() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 500.0));
        let anchor = pos2(400.0, 250.0);
        let anchors = vec![anchor; 12];
        let sizes = vec![vec2(110.0, 18.0); 12];
        let cards: Vec<Rect> = place_cards(&anchors, &sizes, bounds, &[])
            .into_iter()
            .map(|c| c.expect("room for twelve cards"))
            .collect();
        assert!(disjoint(&cards), "{cards:?}");
        assert!(cards.iter().all(|c| bounds.contains_rect(*c)));
        assert!(
            cards[0].left() >= anchor.x && cards[0].bottom() <= anchor.y,
            "first goes up-right"
        );
    }

    #[test]
    fn a_point_in_a_corner_keeps_its_card_inside_the_view() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(300.0, 200.0));
        let cards = place_cards(&[pos2(299.0, 1.0)], &[vec2(120.0, 40.0)], bounds, &[]);
        let card = cards[0].expect("placed");
        assert!(bounds.contains_rect(card), "{card:?}");
    }

    #[test]
    fn a_crowded_view_leaves_out_what_does_not_fit_and_never_overlaps() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(200.0, 100.0));
        let anchors = vec![pos2(100.0, 50.0); 40];
        let sizes = vec![vec2(90.0, 30.0); 40];
        let spots = place_cards(&anchors, &sizes, bounds, &[]);
        assert_eq!(spots.len(), 40);
        let cards: Vec<Rect> = spots.iter().flatten().copied().collect();
        // 200 x 100 holds four 90 x 30 cards with gaps, not forty.
        assert!((2..=6).contains(&cards.len()), "{} placed", cards.len());
        assert!(disjoint(&cards), "{cards:?}");
        assert!(cards.iter().all(|c| bounds.contains_rect(*c)));
        // The first (most important) always gets its spot.
        assert!(spots[0].is_some());
        assert_eq!(
            hidden_words(40 - cards.len()),
            format!("+{} labels hidden", 40 - cards.len())
        );
        assert_eq!(hidden_words(1), "+1 label hidden");
    }

    #[test]
    fn cards_keep_off_what_covers_the_view() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(800.0, 500.0));
        // A legend in the corner and a hover box beside the point.
        let covers = [
            Rect::from_min_max(pos2(600.0, 400.0), pos2(800.0, 500.0)),
            Rect::from_min_max(pos2(300.0, 150.0), pos2(560.0, 240.0)),
        ];
        let anchors = vec![pos2(590.0, 390.0); 10];
        let sizes = vec![vec2(120.0, 20.0); 10];
        let cards: Vec<Rect> = place_cards(&anchors, &sizes, bounds, &covers)
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(cards.len(), 10);
        for c in &cards {
            for k in &covers {
                assert!(!c.intersects(*k), "{c:?} under {k:?}");
            }
        }
        assert!(disjoint(&cards));
    }

    #[test]
    fn a_card_larger_than_the_view_is_hidden_not_drawn_over_it() {
        let bounds = Rect::from_min_size(Pos2::ZERO, vec2(100.0, 50.0));
        let spots = place_cards(&[pos2(50.0, 25.0)], &[vec2(300.0, 20.0)], bounds, &[]);
        assert_eq!(spots, vec![None]);
    }
}
