use super::*;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir()
        .join(format!("collidoscope-fileio-{}", std::process::id()))
        .join(test);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Leftover temporary files in `dir`.
fn temps(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

#[test]
fn the_reader_refuses_devices_folders_fifos_and_files_over_the_cap() {
    let dir = scratch("reader");
    let err = |p: &Path| {
        read_bounded(p, 1024, "a test file")
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        err(Path::new("/dev/zero")),
        "is a device, not a regular file"
    );
    assert_eq!(err(&dir), "is a directory, not a regular file");
    #[cfg(unix)]
    {
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            // Refused by its type: no writer, yet no wait.
            assert_eq!(err(&fifo), "is a FIFO, not a regular file");
        }
        // A link to a device is judged by what it points to.
        let link = dir.join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        assert_eq!(err(&link), "is a device, not a regular file");
    }
    // A 1 GiB sparse file: refused by its length, nothing read.
    let sparse = dir.join("sparse");
    File::create(&sparse).unwrap().set_len(1 << 30).unwrap();
    assert_eq!(
        err(&sparse),
        "larger than the 1 KiB a test file may have (1073741824 bytes)"
    );
    let missing = read_bounded(&dir.join("missing"), 1024, "a test file").unwrap_err();
    assert!(matches!(missing, ReadError::Io(ref e) if e.kind() == io::ErrorKind::NotFound));
    // At the cap: read; one byte more: refused.
    let file = dir.join("file");
    fs::write(&file, vec![b'x'; 1024]).unwrap();
    assert_eq!(
        read_bounded(&file, 1024, "a test file").unwrap().len(),
        1024
    );
    assert!(read_bounded(&file, 1023, "a").is_err());
    fs::write(&file, [0xff, 0xfe]).unwrap();
    assert_eq!(
        read_text_bounded(&file, 1024, "a").unwrap_err().to_string(),
        "is not UTF-8 text (byte 0 is not)"
    );
    assert_eq!(
        io::Error::from(read_bounded(&sparse, 1024, "a").unwrap_err()).kind(),
        io::ErrorKind::FileTooLarge
    );
}

#[cfg(unix)]
#[test]
fn a_bundle_file_may_not_be_a_link_or_special() {
    let dir = scratch("plain");
    let file = dir.join("level.obj");
    fs::write(&file, "v 0 0 0\n").unwrap();
    plain_file(&file).unwrap();
    let link = dir.join("link.obj");
    std::os::unix::fs::symlink(&file, &link).unwrap();
    assert!(matches!(plain_file(&link), Err(ReadError::Symlink)));
    assert!(matches!(
        plain_file(&dir),
        Err(ReadError::NotRegular("a directory"))
    ));
}

#[test]
fn a_write_makes_a_new_file_and_replaces_one_only_with_force() {
    let dir = scratch("force");
    let path = dir.join("out.txt");
    write_bytes(&path, b"one", &WriteRules::new()).unwrap();
    let err = write_bytes(&path, b"two", &WriteRules::new()).unwrap_err();
    assert!(matches!(err, WriteError::Exists), "{err}");
    assert_eq!(
        err.to_string(),
        "already exists (use --force to replace it)"
    );
    assert_eq!(fs::read(&path).unwrap(), b"one");
    write_bytes(&path, b"two", &WriteRules::new().force(true)).unwrap();
    assert_eq!(fs::read(&path).unwrap(), b"two");
    // A bare file name writes in the current folder's terms.
    assert!(check_target(Path::new("no-such-file-here.txt"), &WriteRules::new()).is_ok());
    // A folder is never replaced.
    let err = write_bytes(&dir, b"x", &WriteRules::new().force(true)).unwrap_err();
    assert_eq!(err.to_string(), "is a directory: not replaced by a file");
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
}

#[cfg(unix)]
#[test]
fn a_write_keeps_the_permissions_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("mode");
    let path = dir.join("script.sh");
    fs::write(&path, "old").unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o750)).unwrap();
    write_bytes(&path, b"new", &WriteRules::new().force(true)).unwrap();
    assert_eq!(
        fs::metadata(&path).unwrap().permissions().mode() & 0o777,
        0o750
    );
}

#[test]
fn a_failed_write_leaves_the_old_file_and_no_temporary() {
    let dir = scratch("failed");
    let path = dir.join("settings.toml");
    fs::write(&path, "old contents").unwrap();
    let err = write_atomic(&path, &WriteRules::new().force(true), |w| {
        w.write_all(&[b'x'; 100_000])?;
        Err(io::Error::other("disk full"))
    })
    .unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot write: disk full; nothing was changed"
    );
    assert_eq!(fs::read_to_string(&path).unwrap(), "old contents");
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
    // A missing folder: an error, nothing made.
    let err = write_bytes(&dir.join("gone/x.toml"), b"x", &WriteRules::new()).unwrap_err();
    assert!(matches!(err, WriteError::Io(ref e) if e.kind() == io::ErrorKind::NotFound));
}

#[cfg(unix)]
#[test]
fn nothing_is_written_through_a_symbolic_link_even_a_dangling_one() {
    let dir = scratch("symlink");
    let outside = scratch("symlink_outside");
    let target = outside.join("victim.txt");
    let dangling = dir.join("dangling.html");
    std::os::unix::fs::symlink(&target, &dangling).unwrap();
    for force in [false, true] {
        let err = write_bytes(&dangling, b"x", &WriteRules::new().force(force)).unwrap_err();
        assert!(matches!(err, WriteError::Symlink), "{err}");
    }
    assert!(!target.exists(), "written through the dangling link");
    fs::write(&target, "kept").unwrap();
    let err = write_bytes(&dangling, b"x", &WriteRules::new().force(true)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "is a symbolic link: not written through (name the file itself)"
    );
    assert_eq!(fs::read_to_string(&target).unwrap(), "kept");
    assert!(
        fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn an_input_is_never_replaced_even_with_force_whatever_its_name() {
    let dir = scratch("input");
    let level = dir.join("lvl.obj");
    fs::write(&level, "v 0 0 0\n").unwrap();
    let inputs = [level.clone()];
    let rules = WriteRules::new().force(true).inputs(&inputs);
    let err = write_bytes(&level, b"<html>", &rules).unwrap_err();
    assert!(matches!(err, WriteError::IsInput), "{err}");
    // The same file by another name: `./`, `sub/..`, a hard link.
    let other = dir.join(".").join("lvl.obj");
    assert!(matches!(
        write_bytes(&other, b"x", &rules),
        Err(WriteError::IsInput)
    ));
    fs::create_dir_all(dir.join("sub")).unwrap();
    let dotted = dir.join("sub").join("..").join("lvl.obj");
    assert!(matches!(
        write_bytes(&dotted, b"x", &rules),
        Err(WriteError::IsInput)
    ));
    #[cfg(unix)]
    {
        let linked = dir.join("hard.obj");
        fs::hard_link(&level, &linked).unwrap();
        assert!(matches!(
            write_bytes(&linked, b"x", &rules),
            Err(WriteError::IsInput)
        ));
    }
    assert_eq!(fs::read_to_string(&level).unwrap(), "v 0 0 0\n");
    // Another file is replaced.
    let out = dir.join("report.html");
    fs::write(&out, "old").unwrap();
    write_bytes(&out, b"new", &rules).unwrap();
    assert_eq!(fs::read_to_string(&out).unwrap(), "new");
}

#[test]
fn sizes_read_as_people_write_them() {
    assert_eq!(size_text(256 << 20), "256 MiB");
    assert_eq!(size_text(1 << 30), "1 GiB");
    assert_eq!(size_text(64 << 10), "64 KiB");
    assert_eq!(size_text(1000), "1000 bytes");
}

#[test]
fn staged_files_are_placed_only_when_committed() {
    let dir = scratch("staged");
    let (a, b) = (dir.join("a.txt"), dir.join("b.txt"));
    fs::write(&a, "old a").unwrap();
    let rules = WriteRules::new().force(true);
    let first = stage(&a, &rules, |w| w.write_all(b"new a")).unwrap();
    let second = stage(&b, &rules, |_| Err(io::Error::other("disk full")));
    assert!(second.is_err());
    // The second failed: the first is dropped, never placed.
    drop(first);
    assert_eq!(fs::read_to_string(&a).unwrap(), "old a");
    assert!(!b.exists());
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
    stage(&a, &rules, |w| w.write_all(b"new a"))
        .unwrap()
        .commit()
        .unwrap();
    assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
    assert!(temps(&dir).is_empty(), "{:?}", temps(&dir));
}
