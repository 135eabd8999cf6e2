//! The in-app path field: the way to name a file that works on every
//! machine. The system file dialog (rfd) needs an XDG desktop portal on
//! the session D-Bus or `zenity`; without both it returns nothing at once
//! and the user saw no dialog and no message. This field lists the typed
//! folder's entries as completions, checks the path before it is used and
//! says why a path cannot be used. It also carries the import options a
//! level will be opened with, so they are seen (and changed) before the
//! load, not applied silently from the last file. No egui here.

use crate::export::engines::Engine;
use crate::level::ImportOptions;
use std::path::{Path, PathBuf};

/// Most completions listed under the field (a folder of thousands of
/// files would otherwise fill the window).
pub const MAX_COMPLETIONS: usize = 40;

/// What the path is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PromptPurpose {
    /// A level to open (`.obj`, `.obj.gz`, or a `.png` heightmap).
    OpenLevel,
    /// A settings file to read into the selected probe.
    ImportSettings,
    /// Where to write the selected probe's settings.
    ExportSettings,
    /// Where to write the selected probe's settings for a game engine.
    ExportForEngine(Engine),
    /// A recorded path to replay (`.csv`, `.jsonl`).
    ImportRecording,
    /// The folder to write the selected probe's move to as a repro bundle.
    WriteReproBundle,
}

impl PromptPurpose {
    /// The window's title.
    pub fn title(self) -> String {
        match self {
            PromptPurpose::OpenLevel => "Open level".into(),
            PromptPurpose::ImportSettings => "Import settings".into(),
            PromptPurpose::ExportSettings => "Export settings".into(),
            PromptPurpose::ExportForEngine(e) => format!("Export for {}", e.title()),
            PromptPurpose::ImportRecording => "Import recording".into(),
            PromptPurpose::WriteReproBundle => "Write repro bundle (a new folder)".into(),
        }
    }

    /// Whether the path is written (a new file may be named) rather than read.
    pub fn writes(self) -> bool {
        matches!(
            self,
            PromptPurpose::ExportSettings
                | PromptPurpose::ExportForEngine(_)
                | PromptPurpose::WriteReproBundle
        )
    }

    /// File name endings offered and accepted (lower case).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            PromptPurpose::OpenLevel => &["obj", "gz", "png"],
            PromptPurpose::ImportSettings | PromptPurpose::ExportSettings => &["toml", "json"],
            PromptPurpose::ImportRecording => &["csv", "jsonl", "json"],
            PromptPurpose::ExportForEngine(e) => match e {
                Engine::Rapier => &["rs"],
                Engine::Jolt | Engine::Physx | Engine::Unreal => &["h"],
                Engine::Godot => &["gd"],
                Engine::Unity => &["cs"],
            },
            // A folder: only folders are listed.
            PromptPurpose::WriteReproBundle => &[],
        }
    }
}

/// An open path field.
#[derive(Clone, Debug, PartialEq)]
pub struct FilePrompt {
    /// What the path is for.
    pub purpose: PromptPurpose,
    /// The path as typed.
    pub text: String,
    /// Import options the level will be opened with (levels only).
    pub options: ImportOptions,
    /// Why the last path was refused, or why the system dialog failed.
    pub message: Option<String>,
}

impl FilePrompt {
    /// A field for `purpose`, starting with `text` (a folder ending in `/`
    /// lists its entries at once).
    pub fn new(purpose: PromptPurpose, text: String, options: ImportOptions) -> FilePrompt {
        FilePrompt {
            purpose,
            text,
            options,
            message: None,
        }
    }
}

/// Import options in a designer's words: "Z up · 0.0254 m per unit ·
/// objects by material".
pub fn options_words(o: &ImportOptions) -> String {
    let up = match o.up {
        crate::level::UpAxis::Y => "Y up",
        crate::level::UpAxis::Z => "Z up",
    };
    let by = match o.objects_by {
        crate::level::ObjectsBy::Group => "objects by group",
        crate::level::ObjectsBy::Material => "objects by material",
        crate::level::ObjectsBy::GroupAndMaterial => "objects by group and material",
    };
    format!("{up} · {} m per unit · {by}", o.scale)
}

/// `~/` expanded to the home folder; other text as it is.
pub fn expand_home(text: &str) -> PathBuf {
    match (text.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(text),
    }
}

fn has_extension(path: &Path, purpose: PromptPurpose) -> bool {
    path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
        purpose
            .extensions()
            .contains(&e.to_ascii_lowercase().as_str())
    })
}

/// The entries of the typed folder whose names start with what is typed
/// after its last `/`: folders (ending in `/`) first, then files of the
/// purpose's kinds, each as the whole text the field would hold. Hidden
/// entries only when their `.` is typed.
pub fn completions(text: &str, purpose: PromptPurpose) -> Vec<String> {
    let (folder_text, prefix) = match text.rfind('/') {
        Some(i) => (&text[..=i], &text[i + 1..]),
        None => ("", text),
    };
    let folder = if folder_text.is_empty() {
        PathBuf::from(".")
    } else {
        expand_home(folder_text)
    };
    let Ok(entries) = std::fs::read_dir(&folder) else {
        return Vec::new();
    };
    let mut dirs = Vec::new();
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            dirs.push(format!("{folder_text}{name}/"));
        } else if has_extension(&path, purpose) {
            files.push(format!("{folder_text}{name}"));
        }
    }
    dirs.sort();
    files.sort();
    dirs.extend(files);
    dirs.truncate(MAX_COMPLETIONS);
    dirs
}

/// The longest text every completion starts with (what Tab fills in), or
/// `None` when there is nothing to add to `text`.
pub fn common_completion(text: &str, completions: &[String]) -> Option<String> {
    let (first, rest) = completions.split_first()?;
    let mut common = first.as_str();
    for c in rest {
        while !c.starts_with(common) {
            let cut = common.char_indices().last().map_or(0, |(i, _)| i);
            common = &common[..cut];
        }
    }
    (common.len() > text.len()).then(|| common.to_string())
}

/// The path the text names, if it can be used for `purpose`; else why not,
/// in one line that quotes at most the path's last 60 characters.
pub fn validate(text: &str, purpose: PromptPurpose) -> Result<PathBuf, String> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err("Type a path (Tab completes from the folder typed)".into());
    }
    let path = expand_home(trimmed);
    let shown = short(trimmed);
    let kinds = purpose.extensions().join(" or .");
    match purpose {
        PromptPurpose::OpenLevel
        | PromptPurpose::ImportSettings
        | PromptPurpose::ImportRecording => {
            let meta = std::fs::metadata(&path).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!("{shown}: no such file"),
                _ => format!("{shown}: {e}"),
            })?;
            if meta.is_dir() && purpose == PromptPurpose::OpenLevel {
                if crate::app::bundle::is_bundle(&path) {
                    return Ok(path);
                }
                return Err(format!(
                    "{shown} is a folder: pick a file in it, or a repro bundle folder (with move.json)"
                ));
            }
            if meta.is_dir() {
                return Err(format!("{shown} is a folder: pick a file in it"));
            }
            if !has_extension(&path, purpose) {
                return Err(format!("{shown} is not a .{kinds} file"));
            }
        }
        PromptPurpose::WriteReproBundle => {
            if path.is_file() {
                return Err(format!("{shown} is a file: name a new or empty folder"));
            }
            let holds_files = std::fs::read_dir(&path).is_ok_and(|mut d| d.next().is_some());
            if holds_files {
                return Err(format!("{shown} holds files: name a new or empty folder"));
            }
            let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
            if parent.is_some_and(|p| !p.is_dir()) {
                return Err(format!("{shown}: its parent folder does not exist"));
            }
        }
        PromptPurpose::ExportSettings | PromptPurpose::ExportForEngine(_) => {
            if path.is_dir() {
                return Err(format!("{shown} is a folder: add a file name"));
            }
            if !has_extension(&path, purpose) {
                return Err(format!("{shown}: the name must end in .{kinds}"));
            }
            // The system dialog asks before replacing a file; a typed path
            // never replaces one.
            if std::fs::symlink_metadata(&path).is_ok() {
                return Err(format!(
                    "{shown} exists: type a new name (Browse… asks before replacing)"
                ));
            }
            let parent = match path.parent() {
                Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                _ => PathBuf::from("."),
            };
            if !parent.is_dir() {
                return Err(format!(
                    "{shown}: the folder {} does not exist",
                    parent.display()
                ));
            }
        }
    }
    Ok(path)
}

/// At most the last 60 characters of `text`, with `…` when cut.
fn short(text: &str) -> String {
    let n = text.chars().count();
    if n <= 60 {
        return text.to_string();
    }
    let tail: String = text.chars().skip(n - 60).collect();
    format!("…{tail}")
}

/// The folder a prompt starts in: the loaded file's folder, else the
/// current folder, written with a trailing `/` so its entries list at once.
pub fn start_text(current: Option<&Path>) -> String {
    let folder = current
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .or_else(|| std::env::current_dir().ok());
    match folder {
        Some(f) => {
            let s = f.display().to_string();
            if s.ends_with('/') { s } else { format!("{s}/") }
        }
        None => String::new(),
    }
}

/// Whether the system file dialog can be expected to open here, and through
/// what: rfd asks the XDG desktop portal over the session D-Bus and falls
/// back to `zenity`. `Err` says why neither is there. (A portal may still
/// be missing on a live bus: the window also treats a dialog that returns
/// nothing at once as failed.)
pub fn native_dialog_support() -> Result<&'static str, String> {
    if !cfg!(target_os = "linux") {
        return Ok("the system file dialog");
    }
    if on_path("zenity") {
        return Ok("zenity");
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
    if bus {
        Ok("the desktop portal")
    } else {
        Err("no desktop portal (no D-Bus session) and no zenity on PATH".into())
    }
}

fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(program).is_file()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("collidoscope_prompt_{name}_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        for f in [
            "room.obj",
            "road.obj.gz",
            "readme.txt",
            "rig.toml",
            ".hidden.obj",
        ] {
            std::fs::write(dir.join(f), "v 0 0 0\n").unwrap();
        }
        dir
    }

    #[test]
    fn completions_list_folders_then_files_of_the_kind() {
        let dir = scratch("complete");
        let base = format!("{}/", dir.display());
        let all = completions(&base, PromptPurpose::OpenLevel);
        assert_eq!(
            all,
            vec![
                format!("{base}sub/"),
                format!("{base}road.obj.gz"),
                format!("{base}room.obj")
            ]
        );
        let ro = completions(&format!("{base}ro"), PromptPurpose::OpenLevel);
        assert_eq!(ro.len(), 2);
        assert_eq!(common_completion(&format!("{base}ro"), &ro), None);
        let roo = completions(&format!("{base}roo"), PromptPurpose::OpenLevel);
        assert_eq!(
            common_completion(&format!("{base}roo"), &roo),
            Some(format!("{base}room.obj"))
        );
        let settings = completions(&base, PromptPurpose::ImportSettings);
        assert_eq!(
            settings,
            vec![format!("{base}sub/"), format!("{base}rig.toml")]
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bad_paths_say_why_in_one_line() {
        let dir = scratch("validate");
        let d = dir.display();
        let open = PromptPurpose::OpenLevel;
        assert!(validate("", open).unwrap_err().contains("Type a path"));
        assert!(
            validate(&format!("{d}/nope.obj"), open)
                .unwrap_err()
                .contains("no such file")
        );
        assert!(
            validate(&format!("{d}/sub"), open)
                .unwrap_err()
                .contains("is a folder")
        );
        assert!(
            validate(&format!("{d}/readme.txt"), open)
                .unwrap_err()
                .contains(".obj or .gz")
        );
        assert_eq!(
            validate(&format!("{d}/room.obj"), open).unwrap(),
            dir.join("room.obj")
        );
        let export = PromptPurpose::ExportSettings;
        assert!(validate(&format!("{d}/new.toml"), export).is_ok());
        std::fs::write(dir.join("old.toml"), "").unwrap();
        assert!(
            validate(&format!("{d}/old.toml"), export)
                .unwrap_err()
                .contains("old.toml exists: type a new name")
        );
        assert!(
            validate(&format!("{d}/new.txt"), export)
                .unwrap_err()
                .contains("must end in")
        );
        assert!(
            validate(&format!("{d}/gone/new.toml"), export)
                .unwrap_err()
                .contains("does not exist")
        );
        let long = format!("/{}.obj", "x".repeat(500));
        let err = validate(&long, open).unwrap_err();
        assert!(err.len() < 120 && !err.contains('\n'), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_start_folder_ends_in_a_slash() {
        assert_eq!(start_text(Some(Path::new("/levels/a.obj"))), "/levels/");
        assert!(start_text(None).ends_with('/'));
    }
}
