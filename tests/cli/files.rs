//! Every file the tool reads and writes, against a hostile corpus made
//! here (issue 28): devices, FIFOs, folders, sparse giants and symbolic
//! links are refused by each reader at once; writers replace nothing
//! without --force, never an input, never through a link, and a write cut
//! short by the file-size limit (RLIMIT_FSIZE) leaves the old file whole.

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// As `run`, but a run that outlives `limit` (a reader blocked on a FIFO)
/// is killed and fails the test instead of hanging it.
fn run_within(args: &[&str], limit: Duration) -> Run {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the collidoscope binary runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// The hostile files, each named `stem.ext`: what a reader must say of it.
/// A FIFO (when `mkfifo` works), `/dev/zero` through a link, a folder, and
/// a sparse file of `huge` bytes (no disk used).
fn corpus(dir: &Path, ext: &str, huge: u64) -> Vec<(PathBuf, &'static str)> {
    let mut out = Vec::new();
    let folder = dir.join(format!("folder.{ext}"));
    std::fs::create_dir_all(&folder).unwrap();
    out.push((folder, "is a directory, not a regular file"));
    let sparse = dir.join(format!("sparse.{ext}"));
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(huge)
        .unwrap();
    out.push((sparse, "larger than the "));
    #[cfg(unix)]
    {
        let zero = dir.join(format!("zero.{ext}"));
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        out.push((zero, "is a device, not a regular file"));
        let fifo = dir.join(format!("fifo.{ext}"));
        if Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success())
        {
            out.push((fifo, "is a FIFO, not a regular file"));
        }
    }
    out
}

const LIMIT: Duration = Duration::from_secs(20);

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn every_reader_refuses_devices_fifos_folders_and_giants_at_once() {
    let dir = scratch("files_readers");
    let level = fixture("cli_box.obj");
    // (extension, the hostile file's size, the command with `{}` for it)
    let readers: [(&str, u64, &[&str]); 9] = [
        ("toml", 1 << 30, &["settings", "check", "{}"]),
        ("obj", (1 << 30) + 1, &["info", "{}"]),
        ("png", 1 << 30, &["info", "{}"]),
        ("json", 1 << 30, &["map", "--merge", "{}"]),
        ("json", 1 << 30, &["pairs", "{}"]),
        ("json", 1 << 30, &["boxcam", &level, "--path", "{}"]),
        ("csv", 1 << 30, &["replay", &level, "{}"]),
        ("json", 1 << 30, &["check", &level, "--baseline", "{}"]),
        ("jsonl", 0, &["sweep", &level, "--batch", "{}"]),
    ];
    for (i, (ext, huge, args)) in readers.into_iter().enumerate() {
        let sub = dir.join(i.to_string());
        std::fs::create_dir_all(&sub).unwrap();
        for (file, needle) in corpus(&sub, ext, huge) {
            // A batch is read as a stream: any size, so no giant.
            if huge == 0 && needle.starts_with("larger") {
                continue;
            }
            let args: Vec<&str> = args
                .iter()
                .map(|&a| if a == "{}" { s(&file) } else { a })
                .collect();
            let t = Instant::now();
            let r = run_within(&args, LIMIT);
            assert_fails(&r, 1, needle);
            assert!(
                r.stderr
                    .contains(file.file_name().unwrap().to_str().unwrap())
            );
            assert!(t.elapsed() < Duration::from_secs(10), "{args:?}");
        }
    }
}

#[test]
fn the_caps_are_named_in_the_message() {
    let dir = scratch("files_caps");
    let settings = dir.join("big.toml");
    std::fs::File::create(&settings)
        .unwrap()
        .set_len((1 << 20) + 1)
        .unwrap();
    assert_fails(
        &run(&["settings", "check", s(&settings)]),
        1,
        "big.toml: larger than the 1 MiB a settings file may have (1048577 bytes)",
    );
    let level = dir.join("big.obj");
    std::fs::File::create(&level)
        .unwrap()
        .set_len((4 << 20) + 1)
        .unwrap();
    assert_fails(
        &run(&["info", s(&level), "--max-unpacked-mib", "4"]),
        1,
        "larger than the 4 MiB a level file may have",
    );
}

/// A bundle of one short move on the box fixture.
fn bundle(dir: &Path) -> PathBuf {
    let out = dir.join("bundle");
    let r = run(&[
        "repro",
        &fixture("cli_box.obj"),
        "--from=0,1,0",
        "--velocity=1,0,0",
        "--out",
        s(&out),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    out
}

#[cfg(unix)]
#[test]
fn a_bundle_holding_a_link_or_a_fifo_is_refused_not_followed() {
    let dir = scratch("files_bundle_read");
    let b = bundle(&dir);
    assert_eq!(run(&["repro", "--run", s(&b)]).code, 0);
    // level.obj a link to a good copy outside the bundle: still refused.
    let outside = dir.join("outside.obj");
    std::fs::rename(b.join("level.obj"), &outside).unwrap();
    std::os::unix::fs::symlink(&outside, b.join("level.obj")).unwrap();
    let r = run_within(&["repro", "--run", s(&b)], LIMIT);
    assert_fails(&r, 1, "level.obj: is a symbolic link");
    std::fs::remove_file(b.join("level.obj")).unwrap();
    // A FIFO as the move: refused by its type, no wait for a writer.
    std::fs::rename(&outside, b.join("level.obj")).unwrap();
    std::fs::remove_file(b.join("move.json")).unwrap();
    let made = Command::new("mkfifo").arg(b.join("move.json")).status();
    if made.is_ok_and(|s| s.success()) {
        let r = run_within(&["repro", "--run", s(&b)], LIMIT);
        assert_fails(&r, 1, "move.json: is a FIFO, not a regular file");
    }
    std::fs::remove_file(b.join("move.json")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", b.join("move.json")).unwrap();
    let r = run_within(&["repro", "--run", s(&b)], LIMIT);
    assert_fails(&r, 1, "move.json: is a symbolic link");
}

#[test]
fn an_html_report_over_its_own_level_is_refused_even_with_force() {
    let dir = scratch("files_html_input");
    let level = dir.join("lvl.obj");
    std::fs::copy(fixture("cli_box.obj"), &level).unwrap();
    let before = std::fs::read(&level).unwrap();
    for force in [false, true] {
        let mut args = vec!["check", s(&level), "--html", s(&level)];
        if force {
            args.push("--force");
        }
        assert_fails(
            &run(&args),
            1,
            "lvl.obj: is one of this command's inputs: not replaced, even with --force",
        );
    }
    // The same file by another spelling.
    let other = format!("{}/./lvl.obj", dir.display());
    assert_fails(
        &run(&["check", s(&level), "--html", &other, "--force"]),
        1,
        "one of this command's inputs",
    );
    assert_eq!(std::fs::read(&level).unwrap(), before);
    // And settings exported over the tuned file they come from.
    let tuned = dir.join("tuned.toml");
    assert_eq!(run(&["settings", "export", s(&tuned)]).code, 0);
    let text = std::fs::read(&tuned).unwrap();
    for engine in [None, Some("unity")] {
        let mut args = vec!["settings", "export", s(&tuned), "--settings", s(&tuned)];
        args.push("--force");
        if let Some(e) = engine {
            args.extend(["--for", e]);
        }
        assert_fails(&run(&args), 1, "one of this command's inputs");
    }
    assert_eq!(std::fs::read(&tuned).unwrap(), text);
    // A bundle rewritten from its own level.obj: refused before anything
    // of it changes.
    let b = bundle(&dir);
    let own = b.join("level.obj");
    let before = std::fs::read(&own).unwrap();
    let r = run(&[
        "repro",
        s(&own),
        "--from=0,1,0",
        "--velocity=2,0,0",
        "--out",
        s(&b),
        "--force",
    ]);
    assert_fails(&r, 1, "level.obj: is one of this command's inputs");
    assert_eq!(std::fs::read(&own).unwrap(), before);
}

#[test]
fn every_writer_replaces_a_file_only_with_force() {
    let dir = scratch("files_force");
    let level = fixture("cli_box.obj");
    let html = dir.join("report.html");
    let png = dir.join("map.png");
    let unity = dir.join("ctl.cs");
    let toml = dir.join("s.toml");
    let writers: Vec<(&Path, Vec<&str>)> = vec![
        (&html, vec!["check", &level, "--html", s(&html)]),
        (
            &png,
            vec![
                "map",
                &level,
                "--directions",
                "2",
                "--seconds",
                "0.1",
                "--png",
                s(&png),
            ],
        ),
        (
            &unity,
            vec!["settings", "export", s(&unity), "--for", "unity"],
        ),
        (&toml, vec!["settings", "export", s(&toml)]),
    ];
    for (out, args) in writers {
        std::fs::write(out, "old").unwrap();
        let r = run(&args);
        assert_fails(&r, 1, "already exists (use --force to replace it)");
        assert_eq!(std::fs::read_to_string(out).unwrap(), "old");
        let mut forced = args.clone();
        forced.push("--force");
        let r = run(&forced);
        assert!(r.code == 0 || r.code == 3, "{args:?}: {}", r.stderr);
        assert_ne!(std::fs::read(out).unwrap(), b"old", "{args:?}");
    }
    let png_bytes = std::fs::read(&png).unwrap();
    assert_eq!(&png_bytes[1..4], b"PNG");
    // No temporary file left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}

#[cfg(unix)]
#[test]
fn nothing_is_written_through_a_symbolic_link() {
    let dir = scratch("files_symlink");
    let outside = scratch("files_symlink_outside");
    let level = fixture("cli_box.obj");
    // A dangling link: its target is never created, with or without --force.
    let victim = outside.join("victim.html");
    let link = dir.join("report.html");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    for extra in [None, Some("--force")] {
        let mut args = vec!["check", &level, "--html", s(&link)];
        args.extend(extra);
        assert_fails(&run(&args), 1, "report.html: is a symbolic link");
    }
    assert!(!victim.exists());
    let toml_link = dir.join("s.toml");
    std::os::unix::fs::symlink(outside.join("s.toml"), &toml_link).unwrap();
    assert_fails(
        &run(&["settings", "export", s(&toml_link), "--force"]),
        1,
        "is a symbolic link",
    );
    assert!(!outside.join("s.toml").exists());
    // A bundle whose level.obj links outside: nothing of the bundle changes.
    let b = bundle(&dir);
    let kept = outside.join("kept.obj");
    std::fs::write(&kept, "kept").unwrap();
    std::fs::remove_file(b.join("level.obj")).unwrap();
    std::os::unix::fs::symlink(&kept, b.join("level.obj")).unwrap();
    let move_before = std::fs::read(b.join("move.json")).unwrap();
    let r = run(&[
        "repro",
        &level,
        "--from=0,1,0",
        "--velocity=2,0,0",
        "--out",
        s(&b),
        "--force",
    ]);
    assert_fails(&r, 1, "level.obj: is a symbolic link");
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "kept");
    assert_eq!(std::fs::read(b.join("move.json")).unwrap(), move_before);
}

/// Runs the binary with a file-size limit of 0 blocks and SIGXFSZ ignored,
/// so that every write to a file fails with EFBIG (a full disk, in small).
#[cfg(unix)]
fn run_no_room(args: &[&str]) -> Run {
    let out = Command::new("sh")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 0 && exec \"$@\"")
        .arg("sh")
        .arg(BIN)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("sh runs");
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn a_write_cut_short_leaves_the_old_file_and_exits_1() {
    let dir = scratch("files_fsize");
    let level = fixture("cli_box.obj");
    // A part to merge, made without the limit.
    let part = dir.join("part.json");
    let r = run(&[
        "map",
        &level,
        "--directions",
        "2",
        "--seconds",
        "0.1",
        "--json",
    ]);
    assert!(r.code == 0 || r.code == 3, "{}", r.stderr);
    std::fs::write(&part, &r.stdout).unwrap();
    let html = dir.join("report.html");
    let png = dir.join("map.png");
    let merged = dir.join("merged.png");
    let unity = dir.join("ctl.cs");
    let toml = dir.join("s.toml");
    let writers: Vec<(&Path, Vec<&str>)> = vec![
        (&html, vec!["check", &level, "--html", s(&html)]),
        (
            &png,
            vec![
                "map",
                &level,
                "--directions",
                "2",
                "--seconds",
                "0.1",
                "--png",
                s(&png),
            ],
        ),
        (
            &merged,
            vec!["map", "--merge", s(&part), "--png", s(&merged)],
        ),
        (
            &unity,
            vec!["settings", "export", s(&unity), "--for", "unity"],
        ),
        (&toml, vec!["settings", "export", s(&toml)]),
    ];
    for (out, args) in writers {
        std::fs::write(out, "the old file").unwrap();
        let mut args = args.clone();
        args.push("--force");
        let r = run_no_room(&args);
        assert_fails(&r, 1, "nothing was changed");
        assert!(r.stderr.contains("File too large"), "{}", r.stderr);
        assert_eq!(std::fs::read_to_string(out).unwrap(), "the old file");
    }
    // A bundle rewritten with --force: every old file stays.
    let b = bundle(&dir);
    let before: Vec<Vec<u8>> = ["level.obj", "settings.toml", "move.json"]
        .iter()
        .map(|n| std::fs::read(b.join(n)).unwrap())
        .collect();
    let r = run_no_room(&[
        "repro",
        &level,
        "--from=0,1,0",
        "--velocity=2,0,0",
        "--out",
        s(&b),
        "--force",
    ]);
    assert_fails(&r, 1, "level.obj: cannot write");
    for (n, old) in ["level.obj", "settings.toml", "move.json"]
        .iter()
        .zip(before)
    {
        assert_eq!(std::fs::read(b.join(n)).unwrap(), old, "{n}");
    }
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .chain(std::fs::read_dir(&b).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.ends_with(".tmp")), "{names:?}");
}
