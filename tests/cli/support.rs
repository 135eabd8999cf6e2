//! Running the real `collidoscope` binary from the CLI tests.
#![allow(dead_code)]

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

pub const BIN: &str = env!("CARGO_BIN_EXE_collidoscope");

/// What one run of the binary gave.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Run {
    let out = Command::new(BIN)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("the collidoscope binary runs");
    Run {
        code: out.status.code().expect("exited, not killed by a signal"),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn fixture(name: &str) -> String {
    format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cli")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The run failed with `code`, one `error:` line on stderr containing
/// `needle`, nothing on stdout, and no panic.
pub fn assert_fails(r: &Run, code: i32, needle: &str) {
    assert_eq!(r.code, code, "exit code; stderr: {}", r.stderr);
    assert!(!r.stderr.contains("panicked"), "panic: {}", r.stderr);
    assert!(!r.stderr.contains("backtrace"), "backtrace: {}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "one line: {:?}", r.stderr);
    assert!(r.stderr.starts_with("error: "), "{:?}", r.stderr);
    assert!(
        r.stderr.contains(needle),
        "{needle:?} not in {:?}",
        r.stderr
    );
    assert!(r.stdout.is_empty(), "stdout: {}", r.stdout);
}

pub fn json(r: &Run) -> Value {
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
}

pub fn vec3(v: &Value) -> [f64; 3] {
    let a = v.as_array().unwrap_or_else(|| panic!("not an array: {v}"));
    assert_eq!(a.len(), 3, "{v}");
    [0, 1, 2].map(|i| a[i].as_f64().unwrap())
}

pub fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// `sweep --json` on the box fixture with `extra` arguments, parsed.
pub fn sweep_json(extra: &[&str]) -> Value {
    let box_obj = fixture("cli_box.obj");
    let mut args = vec!["sweep", box_obj.as_str(), "--json"];
    args.extend_from_slice(extra);
    json(&run(&args))
}

/// The documentation's pages by their paths from the repository root:
/// `README.md` first, then every `docs/*.md` in name order.
pub fn doc_pages() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    pages.sort();
    pages.insert(0, "README.md".to_string());
    pages
}

/// One page of the documentation, by its path from the repository root
/// (`README.md`, `docs/settings.md`).
pub fn doc(page: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{page}: {e}"))
}

/// The whole documentation (README.md and docs/*.md) as one text, for the
/// checks that a name is documented somewhere in it.
pub fn documentation() -> String {
    doc_pages()
        .iter()
        .map(|p| doc(p))
        .collect::<Vec<_>>()
        .join("\n")
}
