//! Files in and out: the one bounded reader and the one safe writer that
//! every file the tool opens or writes goes through (CLI and window alike).
//!
//! Reading ([`read_bounded`], [`read_text_bounded`], [`open_regular`]): the
//! path must name a regular file, checked by its type *before* it is opened
//! (opening a FIFO would wait for a writer; a device such as `/dev/zero`
//! never ends), and again on the opened file; its length is checked against
//! the reader's cap, and the bytes are read through a `take(cap + 1)`, so a
//! file that grows while it is read (or lies about its size) is still
//! refused with "larger than the N MiB ...".
//!
//! Writing ([`write_atomic`], [`write_bytes`]): the bytes go to a new
//! temporary file in the target's own folder, which is flushed to disk and
//! then renamed over the target, so a failed write (a full disk, a file-size
//! limit) leaves the old file exactly as it was. [`check_target`] refuses,
//! before any work is done: a target that is a symbolic link (even a
//! dangling one: nothing is written through a link), a folder or a special
//! file; an existing file unless [`WriteRules::force`]; and one of the
//! command's own inputs ([`WriteRules::inputs`], compared as files, not as
//! names) even with `force`.
//!
//! ```
//! use collidoscope::fileio::{self, WriteRules};
//!
//! let dir = std::env::temp_dir().join(format!("fileio-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("notes.txt");
//! let _ = std::fs::remove_file(&path);
//! fileio::write_bytes(&path, b"first", &WriteRules::new()).unwrap();
//! // Not again without force; with it, replaced whole.
//! assert!(fileio::write_bytes(&path, b"second", &WriteRules::new()).is_err());
//! fileio::write_bytes(&path, b"second", &WriteRules::new().force(true)).unwrap();
//! assert_eq!(fileio::read_text_bounded(&path, 1024, "a note").unwrap(), "second");
//! // Never over an input, even with force.
//! let inputs = [path.clone()];
//! let rules = WriteRules::new().force(true).inputs(&inputs);
//! assert!(fileio::write_bytes(&path, b"third", &rules).is_err());
//! std::fs::remove_dir_all(&dir).unwrap();
//! ```

use std::fs::{self, File, FileType, Metadata};
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// One mebibyte, for the readers' caps.
pub const MIB: u64 = 1 << 20;

/// Why a file could not be read. The message does not name the file: the
/// caller's error does.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// A FIFO, a device, a socket or a folder.
    #[error("is {0}, not a regular file")]
    NotRegular(&'static str),
    /// A symbolic link where none is allowed (inside a repro bundle).
    #[error("is a symbolic link, which a repro bundle may not hold")]
    Symlink,
    /// Over the reader's cap.
    #[error(
        "larger than the {} {what} may have{}",
        size_text(*max),
        size.map(|s| format!(" ({s} bytes)")).unwrap_or_default()
    )]
    TooLarge {
        /// What the file is, with its article (`a settings file`).
        what: &'static str,
        /// The cap, bytes.
        max: u64,
        /// The file's size, when its metadata gave it.
        size: Option<u64>,
    },
    /// The bytes are not UTF-8 text.
    #[error("is not UTF-8 text (byte {0} is not)")]
    NotUtf8(usize),
    /// The OS refused.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl From<ReadError> for io::Error {
    fn from(e: ReadError) -> io::Error {
        let kind = match &e {
            ReadError::Io(e) => return io::Error::new(e.kind(), e.to_string()),
            ReadError::NotRegular(_) | ReadError::Symlink => io::ErrorKind::InvalidInput,
            ReadError::TooLarge { .. } => io::ErrorKind::FileTooLarge,
            ReadError::NotUtf8(_) => io::ErrorKind::InvalidData,
        };
        io::Error::new(kind, e.to_string())
    }
}

/// `256 MiB`, `1 GiB`, `64 KiB` or `1000 bytes`: a cap for a message.
pub fn size_text(bytes: u64) -> String {
    const GIB: u64 = 1 << 30;
    if bytes >= GIB && bytes.is_multiple_of(GIB) {
        format!("{} GiB", bytes / GIB)
    } else if bytes >= MIB && bytes.is_multiple_of(MIB) {
        format!("{} MiB", bytes / MIB)
    } else if bytes >= 1024 && bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// `a FIFO`, `a device`, `a directory`, ... for a message.
pub fn kind_name(t: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// Opens `path` for reading when it is a regular file (a symbolic link to
/// one is followed), judged by its type before it is opened so that a FIFO
/// never blocks; returns the file and its length.
pub fn open_regular(path: &Path) -> Result<(File, u64), ReadError> {
    let meta = fs::metadata(path)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_name(&meta.file_type())));
    }
    let file = File::open(path)?;
    // Replaced between the look and the opening.
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular(kind_name(&meta.file_type())));
    }
    Ok((file, meta.len()))
}

/// The bytes of the regular file at `path`, at most `max_bytes` of them;
/// `what` names the kind of file in the "larger than" message.
pub fn read_bounded(path: &Path, max_bytes: u64, what: &'static str) -> Result<Vec<u8>, ReadError> {
    let (file, len) = open_regular(path)?;
    let too_large = |size| ReadError::TooLarge {
        what,
        max: max_bytes,
        size,
    };
    if len > max_bytes {
        return Err(too_large(Some(len)));
    }
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(len as usize)
        .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_large(None));
    }
    Ok(bytes)
}

/// As [`read_bounded`], as UTF-8 text.
pub fn read_text_bounded(
    path: &Path,
    max_bytes: u64,
    what: &'static str,
) -> Result<String, ReadError> {
    let bytes = read_bounded(path, max_bytes, what)?;
    String::from_utf8(bytes).map_err(|e| ReadError::NotUtf8(e.utf8_error().valid_up_to()))
}

/// Refuses a symbolic link or anything but a regular file at `path`,
/// without following links: for files inside a repro bundle, which must be
/// the bundle's own.
pub fn plain_file(path: &Path) -> Result<(), ReadError> {
    let meta = fs::symlink_metadata(path)?;
    let t = meta.file_type();
    if t.is_symlink() {
        return Err(ReadError::Symlink);
    }
    if !t.is_file() {
        return Err(ReadError::NotRegular(kind_name(&t)));
    }
    Ok(())
}

/// What a write may replace.
#[derive(Clone, Copy, Debug, Default)]
pub struct WriteRules<'a> {
    /// Replace an existing regular file.
    pub force: bool,
    /// The command's inputs: never replaced, even with `force`.
    pub inputs: &'a [PathBuf],
}

impl<'a> WriteRules<'a> {
    /// Nothing replaced, no inputs.
    pub fn new() -> Self {
        WriteRules::default()
    }

    /// With `force` set.
    pub fn force(self, force: bool) -> Self {
        WriteRules { force, ..self }
    }

    /// With these inputs.
    pub fn inputs(self, inputs: &'a [PathBuf]) -> WriteRules<'a> {
        WriteRules { inputs, ..self }
    }
}

/// Why a file was not written. The message does not name the file: the
/// caller's error does.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The target exists and `force` was not given.
    #[error("already exists (use --force to replace it)")]
    Exists,
    /// The target is a symbolic link.
    #[error("is a symbolic link: not written through (name the file itself)")]
    Symlink,
    /// The target is a folder, a FIFO, a device, ...
    #[error("is {0}: not replaced by a file")]
    NotRegular(&'static str),
    /// The target is one of the command's inputs.
    #[error("is one of this command's inputs: not replaced, even with --force")]
    IsInput,
    /// The OS refused while writing; nothing was changed.
    #[error("cannot write: {0}; nothing was changed")]
    Io(#[from] io::Error),
}

impl From<WriteError> for io::Error {
    fn from(e: WriteError) -> io::Error {
        let kind = match &e {
            WriteError::Exists => io::ErrorKind::AlreadyExists,
            WriteError::Symlink | WriteError::NotRegular(_) | WriteError::IsInput => {
                io::ErrorKind::InvalidInput
            }
            WriteError::Io(e) => e.kind(),
        };
        io::Error::new(kind, e.to_string())
    }
}

/// Whether `a` and `b` are the same file (not merely the same name).
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        false
    }
}

fn is_input(path: &Path, meta: &Metadata, inputs: &[PathBuf]) -> bool {
    inputs.iter().any(|input| {
        if cfg!(unix) {
            fs::metadata(input).is_ok_and(|m| same_file(meta, &m))
        } else {
            match (fs::canonicalize(path), fs::canonicalize(input)) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            }
        }
    })
}

/// Whether a file may be written at `path` under `rules`: a new name, or
/// (with `force`) a regular file that is none of the inputs. Run it before
/// long work, so that a refused target fails fast; [`write_atomic`] runs it
/// again.
pub fn check_target(path: &Path, rules: &WriteRules<'_>) -> Result<(), WriteError> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(WriteError::Io(e)),
    };
    let t = meta.file_type();
    if t.is_symlink() {
        return Err(WriteError::Symlink);
    }
    if !t.is_file() {
        return Err(WriteError::NotRegular(kind_name(&t)));
    }
    if is_input(path, &meta, rules.inputs) {
        return Err(WriteError::IsInput);
    }
    if !rules.force {
        return Err(WriteError::Exists);
    }
    Ok(())
}

/// Temporary names are unique within the process by this counter.
static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes the file at `path` whole or not at all: `fill` writes the
/// contents into a new temporary file in the same folder, which is synced
/// to disk and renamed over `path`. On any failure the temporary file is
/// removed and `path` is as it was. See [`check_target`] for what is
/// refused.
pub fn write_atomic(
    path: &Path,
    rules: &WriteRules<'_>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), WriteError> {
    stage(path, rules, fill)?.commit()
}

/// A file written in full to its temporary name, not yet in place: several
/// files are staged first and committed together, so that a write that
/// fails leaves all of them as they were. Dropped uncommitted, the
/// temporary file is removed.
#[derive(Debug)]
pub struct Staged<'a> {
    temp: Option<PathBuf>,
    path: PathBuf,
    rules: WriteRules<'a>,
}

/// The first half of [`write_atomic`]: `path` checked, and the contents
/// written and synced to a temporary file beside it.
pub fn stage<'a>(
    path: &Path,
    rules: &WriteRules<'a>,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Staged<'a>, WriteError> {
    check_target(path, rules)?;
    let name = path.file_name().ok_or(WriteError::NotRegular("a folder"))?;
    let (temp, file) = create_temp(folder_of(path), name)?;
    let staged = Staged {
        temp: Some(temp),
        path: path.to_path_buf(),
        rules: *rules,
    };
    fill_and_sync(file, fill, path)?;
    Ok(staged)
}

impl Staged<'_> {
    /// Puts the file in place (see [`write_atomic`]).
    pub fn commit(mut self) -> Result<(), WriteError> {
        let temp = self.temp.take().expect("a staged file is committed once");
        if let Err(e) = place(&temp, &self.path, &self.rules) {
            let _ = fs::remove_file(&temp);
            return Err(e);
        }
        sync_folder(folder_of(&self.path));
        Ok(())
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let _ = fs::remove_file(temp);
        }
    }
}

/// The folder `path` is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// As [`write_atomic`], with the bytes at hand.
pub fn write_bytes(path: &Path, bytes: &[u8], rules: &WriteRules<'_>) -> Result<(), WriteError> {
    write_atomic(path, rules, |w| w.write_all(bytes))
}

/// A new file `.NAME.PID.N.tmp` in `folder`, never an existing one.
fn create_temp(folder: &Path, name: &std::ffi::OsStr) -> Result<(PathBuf, File), WriteError> {
    let mut open = fs::OpenOptions::new();
    open.write(true).create_new(true);
    loop {
        let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
        let mut temp_name = std::ffi::OsString::from(".");
        temp_name.push(name);
        temp_name.push(format!(".{}.{n}.tmp", std::process::id()));
        let temp = folder.join(temp_name);
        match open.open(&temp) {
            Ok(f) => return Ok((temp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(WriteError::Io(e)),
        }
    }
}

fn fill_and_sync(
    file: File,
    fill: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    path: &Path,
) -> Result<(), WriteError> {
    // The old file's permissions carry over to its replacement.
    if let Ok(old) = fs::metadata(path) {
        let _ = file.set_permissions(old.permissions());
    }
    let mut w = BufWriter::new(file);
    fill(&mut w)?;
    let file = w.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    Ok(())
}

/// Moves the finished temporary file to `path`. Without `force` it is
/// linked, which fails if a file appeared at `path` meanwhile.
fn place(temp: &Path, path: &Path, rules: &WriteRules<'_>) -> Result<(), WriteError> {
    // Checked again: the target may have changed during a long write.
    check_target(path, rules)?;
    if !rules.force {
        match fs::hard_link(temp, path) {
            Ok(()) => {
                let _ = fs::remove_file(temp);
                return Ok(());
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(WriteError::Exists);
            }
            // A file system without hard links: the rename below.
            Err(_) => {}
        }
    }
    fs::rename(temp, path)?;
    Ok(())
}

/// Makes the rename itself durable (best effort: not every platform can).
fn sync_folder(folder: &Path) {
    #[cfg(unix)]
    if let Ok(f) = File::open(folder) {
        let _ = f.sync_all();
    }
    #[cfg(not(unix))]
    let _ = folder;
}

#[cfg(test)]
mod tests;
