//! The replay on recordings made from real walks (which must reproduce to
//! the last digit written), with a segment moved (which must diverge from
//! its first frame), and the readers' refusals.

use super::*;
use crate::analysis::generate::LevelBuilder;
use crate::analysis::generate::parts::{Stairs, floor, staircase};
use crate::character::{Walk, WalkSpec, WalkTrace, walk};
use crate::collide::SlideSettings;
use crate::level::{Level, UpAxis};
use glam::{DVec2, DVec3};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

/// A floor with two steps across the way along +x.
fn steps_level() -> Level {
    let mut b = LevelBuilder::new();
    b.add(
        "floor",
        &floor(DVec2::new(-5.0, -5.0), DVec2::new(15.0, 5.0), 0.0, 0.5, 2.0),
    );
    let stairs = Stairs {
        riser: 0.2,
        tread: 0.6,
        count: 2,
        width: 4.0,
        landing: 3.0,
    };
    b.add("steps", &staircase(DVec3::new(2.0, 0.0, -2.0), &stairs));
    Level::from_mesh("steps", b.build())
}

fn walk_over_steps(level: &Level, s: &SlideSettings) -> Walk {
    let spec = WalkSpec {
        from: DVec3::new(0.0, 1.0, 0.0),
        direction: DVec3::X,
        seconds: 1.5,
        jump: false,
    };
    walk(level.world(), s, &spec, WalkTrace::FramesOnly).unwrap()
}

/// A walk written as CSV: the state before each frame, then the end.
fn csv_of(w: &Walk, s: &SlideSettings, shift_from: Option<(usize, f64)>) -> String {
    let dt = s.character.frame_time_s();
    let mut out = String::from("t,x,y,z,vx,vy,vz,grounded\n");
    let mut states: Vec<_> = w.frames.iter().map(|f| f.before).collect();
    states.push(w.frames.last().unwrap().after);
    for (i, st) in states.iter().enumerate() {
        let shift = shift_from.filter(|&(k, _)| i >= k).map_or(0.0, |(_, m)| m);
        let v = w.spec.direction * s.character.walk_speed_m_s;
        let p = st.position + DVec3::Z * shift;
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            i as f64 * dt,
            p.x,
            p.y,
            p.z,
            v.x,
            st.vertical_speed_m_s,
            v.z,
            u8::from(st.grounded)
        );
    }
    out
}

fn run(level: &Level, s: &SlideSettings, rec: &Recording) -> Replay {
    replay(
        level.world(),
        s,
        rec,
        DEFAULT_TOLERANCE_M,
        &|_| {},
        &AtomicBool::new(false),
    )
    .unwrap()
    .unwrap()
}

#[test]
fn a_walk_recorded_in_full_reproduces_exactly() {
    let (level, s) = (steps_level(), SlideSettings::default());
    let w = walk_over_steps(&level, &s);
    assert!(w.summary.steps_taken >= 2, "{:?}", w.summary);
    let text = csv_of(&w, &s, None);
    let rec = parse_recording(&text, &RecordingOptions::new(RecordingFormat::Csv)).unwrap();
    assert_eq!(rec.frames.len(), w.frames.len() + 1);
    let r = run(&level, &s, &rec);
    assert_eq!(r.summary.frames as usize, w.frames.len());
    assert!(r.summary.reproduced(), "{:?}", r.summary);
    assert!(r.summary.max_divergence_m < 1e-9, "{:?}", r.summary);
    assert!(r.summary.free_run_final_m < 1e-9, "{:?}", r.summary);
    assert_eq!(r.recorded_path().len(), rec.frames.len());
}

#[test]
fn a_moved_segment_diverges_at_its_first_frame() {
    let (level, s) = (steps_level(), SlideSettings::default());
    let w = walk_over_steps(&level, &s);
    let text = csv_of(&w, &s, Some((40, 0.1)));
    let rec = parse_recording(&text, &RecordingOptions::new(RecordingFormat::Csv)).unwrap();
    let r = run(&level, &s, &rec);
    // Frame 39 ends where the recording jumped sideways.
    assert_eq!(r.summary.first_divergent_frame, Some(39));
    assert_eq!(r.summary.divergent_frames, 1);
    let f = &r.frames[39];
    assert!((f.horizontal_m - 0.1).abs() < 1e-9 && f.vertical_m.abs() < 1e-9);
    assert!(r.summary.free_run_final_m > 0.09);
}

#[test]
fn input_only_recordings_carry_the_rest_from_the_rerun() {
    let (level, s) = (steps_level(), SlideSettings::default());
    let w = walk_over_steps(&level, &s);
    let dt = s.character.frame_time_s();
    let mut text = String::new();
    for (i, f) in w.frames.iter().enumerate() {
        let p = f.before.position;
        let _ = writeln!(
            text,
            r#"{{"t":{},"x":{},"y":{},"z":{},"ix":1,"iz":0}}"#,
            i as f64 * dt,
            p.x,
            p.y,
            p.z
        );
    }
    let rec = parse_recording(&text, &RecordingOptions::new(RecordingFormat::Jsonl)).unwrap();
    let r = run(&level, &s, &rec);
    // The first frame starts in the air (nothing says it stood); after it
    // the carried ground flag and vertical speed are the walk's own.
    assert!(r.summary.reproduced(), "{:?}", r.summary);
}

#[test]
fn z_up_and_scale_convert_like_the_level_importer() {
    let text = "t,x,y,z,vx,vy,vz\n0,100,200,300,10,20,30\n0.02,0,0,0,0,0,0\n";
    let opts = RecordingOptions {
        up: UpAxis::Z,
        scale: 0.01,
        ..RecordingOptions::new(RecordingFormat::Csv)
    };
    let rec = parse_recording(text, &opts).unwrap();
    let f = rec.frames[0];
    assert!((f.position - DVec3::new(1.0, 3.0, -2.0)).length() < 1e-12);
    assert!((f.velocity.unwrap() - DVec3::new(0.1, 0.3, -0.2)).length() < 1e-12);
}

#[test]
fn columns_are_renamed_by_the_map_and_extra_columns_ignored() {
    let map = ColumnMap::parse("t=time, x=px,y=py,z=pz,ix=stick_x,iz=stick_y").unwrap();
    let text =
        "frame,time,px,py,pz,stick_x,stick_y,jump\n0,0,1,2,3,0.5,0,true\n1,0.016,1,2,3,0,0,false\n";
    let opts = RecordingOptions {
        columns: map,
        ..RecordingOptions::new(RecordingFormat::Csv)
    };
    let rec = parse_recording(text, &opts).unwrap();
    assert_eq!(rec.frames[0].input, Some(DVec3::new(0.5, 0.0, 0.0)));
    assert_eq!(rec.frames[0].line, 2);
    assert!(rec.frames[0].jump && !rec.frames[1].jump);
    assert!(
        ColumnMap::parse("q=time")
            .unwrap_err()
            .contains("not a field")
    );
    assert!(
        ColumnMap::parse("time")
            .unwrap_err()
            .contains("field=column")
    );
}

fn csv_error(text: &str) -> RecordingError {
    parse_recording(text, &RecordingOptions::new(RecordingFormat::Csv)).unwrap_err()
}

#[test]
fn bad_lines_are_refused_with_their_line_and_a_short_quote() {
    let head = "t,x,y,z,vx,vy,vz\n";
    let e = csv_error(&format!("{head}0,0,0,0,0,0,0\n0.1,0,abc,0,0,0,0\n"));
    assert_eq!(e.line, 3);
    assert!(e.to_string().contains("y: 'abc' is not a number"), "{e}");
    let e = csv_error(&format!("{head}0,0,NaN,0,0,0,0\n"));
    assert!(e.message.contains("not a finite number"), "{e}");
    let e = csv_error(&format!("{head}0,0,0,0,0,0,0\n0,1,0,0,0,0,0\n"));
    assert!(e.message.contains("does not increase"), "{e}");
    let e = csv_error(&format!("{head}0,0,0,0,0,0,0\n5,1,0,0,0,0,0\n"));
    assert!(e.message.contains("apart"), "{e}");
    let e = csv_error(&format!("{head}0,0,0\n"));
    assert!(e.message.contains("3 values for 7 columns"), "{e}");
    let e = csv_error("time,x,y,z\n0,0,0,0\n");
    assert_eq!(e.line, 1);
    assert!(e.message.contains("no column t"), "{e}");
    let e = csv_error("t,x,y,z\n0,0,0,0\n");
    assert!(e.message.contains("no velocity"), "{e}");
    let e = csv_error(&format!("{head}0,0,0,0,{}\n", "9".repeat(5000)));
    assert!(
        e.message.contains("at most") && e.to_string().len() < 200,
        "{e}"
    );
    let e = csv_error(&format!("{head}0,0,0,0,1,,1\n"));
    assert!(e.message.contains("needs all of"), "{e}");
    assert!(csv_error("").message.contains("no frames"));
}

/// A finite position the solver cannot move (1e308: its squares overflow)
/// is refused, not replayed as "equal" infinities; the bound itself reads.
#[test]
fn positions_beyond_the_solvers_bound_are_refused() {
    let head = "t,x,y,z,vx,vy,vz\n";
    let e = csv_error(&format!("{head}0,1e308,1,0,0,0,1\n0.02,1e308,1,0,0,0,1\n"));
    assert_eq!(e.line, 2);
    assert!(e.message.contains("beyond the supported"), "{e}");
    let e = csv_error(&format!("{head}0,0,1,0,0,0,2e9\n0.02,0,1,0,0,0,1\n"));
    assert!(e.message.contains("beyond the supported"), "{e}");
    let ok = format!("{head}0,1e9,1,0,0,0,1\n0.02,1e9,1,0.02,0,0,1\n");
    assert!(parse_recording(&ok, &RecordingOptions::new(RecordingFormat::Csv)).is_ok());
}

#[test]
fn bad_json_lines_are_refused_with_their_line() {
    let opts = RecordingOptions::new(RecordingFormat::Jsonl);
    let e =
        parse_recording("{\"t\":0,\"x\":0,\"y\":0,\"z\":0,\"ix\":1}\n[1,2]\n", &opts).unwrap_err();
    assert_eq!(e.line, 2);
    assert!(e.message.contains("not a JSON object"), "{e}");
    let e = parse_recording("{\"t\":0,\"x\":\"a\",\"y\":0,\"z\":0}\n", &opts).unwrap_err();
    assert!(e.message.contains("x: '\"a\"' is not a number"), "{e}");
    let e = parse_recording("{\"t\":0,\"y\":0,\"z\":0}\n", &opts).unwrap_err();
    assert!(e.message.contains("no value for x"), "{e}");
}

#[test]
fn too_many_frames_stop_at_the_limit() {
    let mut text = String::from("t,x,y,z,ix\n");
    for i in 0..=MAX_RECORDED_FRAMES {
        let _ = writeln!(text, "{},0,0,0,1", i as f64 * 0.01);
    }
    let e = csv_error(&text);
    assert!(e.message.contains("more than"), "{e}");
}

#[test]
fn a_replay_refuses_bad_tolerances_and_single_frames_and_can_be_cancelled() {
    let (level, s) = (steps_level(), SlideSettings::default());
    let rec = parse_recording(
        "t,x,y,z,ix\n0,0,1,0,1\n0.02,0.1,1,0,1\n",
        &RecordingOptions::new(RecordingFormat::Csv),
    )
    .unwrap();
    let no = AtomicBool::new(false);
    let go = |tol: f64, rec: &Recording, cancel: &AtomicBool| {
        replay(level.world(), &s, rec, tol, &|_| {}, cancel)
    };
    assert_eq!(go(0.0, &rec, &no), Err(ReplayError::BadTolerance(0.0)));
    assert!(go(f64::NAN, &rec, &no).is_err());
    let one = Recording {
        frames: rec.frames[..1].to_vec(),
    };
    assert_eq!(go(0.01, &one, &no), Err(ReplayError::TooShort(1)));
    assert_eq!(go(0.01, &rec, &AtomicBool::new(true)), Ok(None));
    let r = go(0.01, &rec, &no).unwrap().unwrap();
    assert!(r.frames.iter().all(|f| f.divergence_m.is_finite()));
}
