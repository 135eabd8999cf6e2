//! The level panel's "Broad phases" section: the BVH, the uniform grid and
//! sweep-and-prune measured on the probes' swept boxes (or a lattice of
//! probe-sized boxes), what the objects' bounding volumes reject, and on a
//! heightmap level the terrain under the selected probe.
//!
//! The measurement runs on its own thread when asked (it builds the grid,
//! the sorted lists and the volumes: about a second on a 331k-triangle
//! level in a debug build) and its result is kept in egui's memory, keyed
//! by the level, so loading a level never pays for it.

use super::CollidoscopeApp;
use crate::broadphase::{BroadPhaseReport, probe_boxes};
use crate::level::Level;
use crate::math::{Aabb, Vec3};
use eframe::egui;
use std::sync::{Arc, Mutex};

/// Boxes measured when the level has no probes.
const LATTICE_BOXES: usize = 256;

/// A measurement: for which level (address), running or done.
#[derive(Default)]
struct Measure {
    level: usize,
    running: bool,
    report: Option<BroadPhaseReport>,
    from_probes: bool,
}

type Shared = Arc<Mutex<Measure>>;

/// Shows the section.
pub(super) fn show(ui: &mut egui::Ui, app: &mut CollidoscopeApp) {
    let Some(level) = app.state.level.clone() else {
        ui.label("No level.");
        return;
    };
    let id = egui::Id::unique("broadphase_measure");
    let shared: Shared = ui
        .ctx()
        .data_mut(|d| d.get_temp_mut_or_default::<Shared>(id).clone());
    let at = Arc::as_ptr(&level) as usize;
    let (running, report, from_probes) = {
        let m = shared.lock().unwrap_or_else(|e| e.into_inner());
        let current = m.level == at;
        (
            current && m.running,
            current.then(|| m.report.clone()).flatten(),
            m.from_probes,
        )
    };
    let boxes = swept_boxes(app);
    let label = match boxes.len() {
        0 => format!("Measure ({LATTICE_BOXES} probe-sized boxes)"),
        1 => "Measure (the probe's swept box)".to_string(),
        n => format!("Measure ({n} probes' swept boxes)"),
    };
    ui.horizontal_wrapped(|ui| {
        let button = ui.add_enabled(!running, egui::Button::new(label));
        let button = button.on_hover_text(
            "Build the uniform grid, sweep-and-prune and the objects' bounding volumes, \
             and run the same box queries through them and the BVH",
        );
        if button.clicked() {
            start(&shared, level.clone(), boxes, ui.ctx().clone());
        }
        if running {
            ui.spinner();
        }
    });
    match report {
        Some(r) => report_grid(ui, &r, from_probes),
        None if !running => {
            ui.weak("Counts and timings appear here once measured.");
        }
        None => {}
    }
    terrain_rows(ui, app, &level);
}

/// Each probe's box around its whole move, world space.
fn swept_boxes(app: &CollidoscopeApp) -> Vec<Aabb> {
    let probes = app.state.probes.iter();
    probes
        .map(|p| {
            let (a, b) = (p.position, p.position + p.velocity);
            let r = p.radii();
            Aabb::from_f64_outward(a.min(b) - r, a.max(b) + r)
        })
        .collect()
}

fn start(shared: &Shared, level: Arc<Level>, boxes: Vec<Aabb>, ctx: egui::Context) {
    let at = Arc::as_ptr(&level) as usize;
    {
        let mut m = shared.lock().unwrap_or_else(|e| e.into_inner());
        *m = Measure {
            level: at,
            running: true,
            report: None,
            from_probes: !boxes.is_empty(),
        };
    }
    let shared = shared.clone();
    std::thread::spawn(move || {
        let boxes = if boxes.is_empty() {
            let size = Vec3::new(0.8, 1.8, 0.8);
            probe_boxes(&level.mesh().bounds(), LATTICE_BOXES, size)
        } else {
            boxes
        };
        let report = BroadPhaseReport::measure(&level, &boxes);
        let mut m = shared.lock().unwrap_or_else(|e| e.into_inner());
        if m.level == at {
            m.report = Some(report);
            m.running = false;
        }
        ctx.request_repaint();
    });
}

fn ms(s: f64) -> String {
    format!("{:.2} ms", s * 1e3)
}

fn report_grid(ui: &mut egui::Ui, r: &BroadPhaseReport, from_probes: bool) {
    let what = match (from_probes, r.queries) {
        (true, 1) => "swept box",
        (true, _) => "swept boxes",
        (false, _) => "probe-sized boxes",
    };
    ui.weak(format!(
        "{} {what}: {} candidates in all",
        r.queries, r.candidates
    ));
    if !r.agree {
        ui.colored_label(
            ui.visuals().error_fg_color,
            "The phases found different sets!",
        );
    }
    // Build and query times side by side: short numbers fit the panel.
    egui::Grid::new("broadphase_times")
        .num_columns(4)
        .striped(true)
        .show(ui, |ui| {
            for head in ["", "build ms", "query ms", "tested"] {
                ui.weak(head);
            }
            ui.end_row();
            let phases = [("BVH", &r.bvh), ("grid", &r.grid), ("SAP", &r.sap)];
            for (name, p) in phases {
                ui.label(name);
                let ms = |s: f64| egui::RichText::new(format!("{:.2}", s * 1e3)).monospace();
                ui.label(ms(p.build_s));
                ui.label(ms(p.queries_s));
                ui.label(egui::RichText::new(p.tested.to_string()).monospace());
                ui.end_row();
            }
        });
    egui::Grid::new("broadphase_facts")
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                let r = ui.label(k);
                ui.add(egui::Label::new(egui::RichText::new(v).monospace()).wrap());
                ui.end_row();
                r
            };
            let [nx, ny, nz] = r.grid_dims;
            row("grid cells", format!("{nx}x{ny}x{nz}"));
            row("cell side", format!("{:.2} m", r.grid_cell_size));
            row("occupied", r.grid_occupied.to_string());
            row("entries", r.grid_entries.to_string());
            row("most a cell", r.grid_max_per_cell.to_string());
            row("SAP endpoints", r.sap_endpoints.to_string());
            row("SAP pairs", r.sap_pairs.to_string());
            row("SAP re-sort", format!("{} swaps", r.sap_repair_swaps)).on_hover_text(
            "The next frame: every box moved a few cm, the sorted list repaired by insertion sort",
        );
            row("re-sort time", ms(r.sap_repair_s));
            let v = &r.rejections;
            row("volumes fit", ms(r.volumes_build_s));
            row("sphere rejects", format!("{} tris", v.by_sphere));
            row("AABB rejects", format!("{} tris", v.by_aabb));
            row("OBB rejects", format!("{} tris", v.by_obb));
            row(
                "any rejects",
                format!("{} / {}", v.by_any, v.by_any + v.kept),
            );
        });
}

/// On a heightmap level: the field and the terrain under the selected probe,
/// by the field's own cell lookup and by the BVH (any mesh).
fn terrain_rows(ui: &mut egui::Ui, app: &CollidoscopeApp, level: &Level) {
    let Some(field) = level.height_field() else {
        return;
    };
    ui.separator();
    let [c, r] = field.size();
    ui.label(format!(
        "Height field: {c}x{r} samples, {} m apart",
        field.spacing()
    ));
    let Some(p) = app.state.selected_probe() else {
        ui.weak("Select a probe to see the terrain under it.");
        return;
    };
    let (x, z) = (p.position.x, p.position.z);
    let Some(hit) = field.locate(x, z) else {
        ui.weak("The selected probe is outside the height field.");
        return;
    };
    ui.weak("Under the selected probe:");
    let plane = field.height_by_plane(x, z).unwrap_or(f64::NAN);
    let bary = field.height_by_barycentric(x, z).unwrap_or(f64::NAN);
    let tin = crate::terrain::tin_height(level.mesh(), level.bvh(), x, z);
    egui::Grid::new("terrain_facts")
        .num_columns(2)
        .show(ui, |ui| {
            let mut row = |k: &str, v: String| {
                ui.label(k);
                ui.add(egui::Label::new(egui::RichText::new(v).monospace()).wrap());
                ui.end_row();
            };
            let half = if hit.upper_left {
                "upper left"
            } else {
                "lower right"
            };
            row("cell", format!("{}, {}", hit.cell[0], hit.cell[1]));
            row("triangle", format!("{} ({half})", hit.triangle));
            row("plane eq.", format!("{plane:.4} m"));
            row("barycentric", format!("{bary:.4} m"));
            match tin {
                Some(t) => {
                    row("BVH (TIN)", format!("{:.4} m", t.height));
                    row(
                        "BVH triangle",
                        format!("{} ({} cand.)", t.triangle, t.candidates),
                    );
                }
                None => row("BVH (TIN)", "no triangle".into()),
            }
        });
}
