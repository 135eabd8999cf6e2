//! The map as a top-down picture: one square per grid column, x to the
//! right and z down, grey by the height of its highest floor (darker is
//! lower), and an inset square in the class colour of the column's worst
//! start point when it is not free. Plain RGB pixels: the caller encodes.

use super::{MapClass, MapReport};

/// Colour of a column with no start point (no walkable floor).
const EMPTY: [u8; 3] = [25, 25, 30];

/// An RGB image, rows top to bottom, 3 bytes a pixel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapImage {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// `width * height * 3` bytes.
    pub rgb: Vec<u8>,
}

/// Draws `report` at the most pixels per column (1 to 16) that keeps both
/// sides within `max_side_px` (at least one pixel per column).
pub fn map_image(report: &MapReport, max_side_px: u32) -> MapImage {
    let (nx, nz) = (report.grid.nx.max(1), report.grid.nz.max(1));
    let px = (max_side_px / nx.max(nz)).clamp(1, 16);
    let cells = (nx as usize) * (nz as usize);
    // Per column: highest floor and worst class.
    let mut top: Vec<Option<(f64, MapClass)>> = vec![None; cells];
    for s in &report.spots {
        let i = s.cell[1] as usize * nx as usize + s.cell[0] as usize;
        let Some(cell) = top.get_mut(i) else { continue };
        *cell = Some(match *cell {
            None => (s.floor_y, s.class),
            Some((y, c)) => (y.max(s.floor_y), c.max(s.class)),
        });
    }
    let ys = report.spots.iter().map(|s| s.floor_y);
    let (lo, hi) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
        (a.min(y), b.max(y))
    });
    let grey = |y: f64| {
        let t = if hi > lo { (y - lo) / (hi - lo) } else { 0.5 };
        let g = (90.0 + 140.0 * t).round() as u8;
        [g, g, g]
    };
    let (w, h) = (nx * px, nz * px);
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    let inset = px / 4;
    for py in 0..h {
        for pxl in 0..w {
            let (ix, iz) = (pxl / px, py / px);
            let (u, v) = (pxl % px, py % px);
            let inner = u >= inset && v >= inset && u < px - inset && v < px - inset;
            let colour = match top[iz as usize * nx as usize + ix as usize] {
                None => EMPTY,
                Some((_, class)) if class != MapClass::Free && inner => class.colour(),
                Some((y, _)) => grey(y),
            };
            let at = (py as usize * w as usize + pxl as usize) * 3;
            rgb[at..at + 3].copy_from_slice(&colour);
        }
    }
    MapImage {
        width: w,
        height: h,
        rgb,
    }
}
