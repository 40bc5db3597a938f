//! The desktop app's storage (README, The editor): every graph is a `*.json` file (the exported
//! document) in one workflows folder, its saved runs in `runs/<graph>/`. Names coming from the
//! UI are checked so they can never leave the folder, and every write goes to a temporary file
//! in the same folder first and is then renamed over the old one, so a crash mid-save leaves
//! the old file whole.
//!
//! | item | what it is |
//! |---|---|
//! | [`Workflows`] | the folder: list, load, save, rename, delete graphs and their runs |
//! | [`check_name`] | which file names the UI may use |
//! | [`write_atomic`] | the write-then-rename every save goes through |
//! | [`Config`] | the app's settings file (keys, base URL, recent files, traces), readable by its user only |
//! | [`recent`] | the recent files list kept there |
//! | [`given`] | reading a file given from outside: a regular file under the import limit |
//! | [`suites`] | a graph's test suite, `<stem>.tests.json` beside its file; renamed and deleted with it |

pub mod given;
pub mod recent;
mod settings;
pub mod suites;

pub use settings::{Config, OriginKey, Settings, TraceSettings};

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// FNV-1a, 64 bits: the hash of a path earlier versions named its runs' folder by (their
/// runs are moved to the SHA-256 name when found).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// A storage failure, in words for the user.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileError(pub String);

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for FileError {}

pub(crate) fn io_error(what: &str, e: &io::Error) -> FileError {
    let why = match e.kind() {
        io::ErrorKind::NotFound => "it does not exist".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        io::ErrorKind::AlreadyExists => "a file with that name already exists".to_string(),
        _ => e.to_string(),
    };
    FileError(format!("{what}: {why}"))
}

/// Windows' device names: a file called `CON.json` (any extension, any case) is the console.
const DEVICE_NAMES: [&str; 4] = ["CON", "PRN", "AUX", "NUL"];

/// Characters Windows does not allow in a file name (`:` also opens a drive prefix such as
/// `C:evil.json` or a stream such as `a.json:b.json`).
const WINDOWS_FORBIDDEN: [char; 8] = ['<', '>', ':', '"', '|', '?', '*', '\\'];

/// Whether `c` is a format or separator character that changes how a name *looks*
/// (right-to-left overrides, zero-width characters, soft hyphens…).
fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{0600}'..='\u{0605}' | '\u{061C}' | '\u{06DD}' | '\u{070F}' | '\u{180E}'
        | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{FEFF}'
        | '\u{FFF9}'..='\u{FFFB}' | '\u{E0001}' | '\u{E0020}'..='\u{E007F}')
}

/// Whether `stem` (the name up to its first dot) is a Windows device name.
fn is_device_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches([' ', '.']).to_ascii_uppercase();
    if DEVICE_NAMES.contains(&stem.as_str()) {
        return true;
    }
    let (prefix, digit) = stem.split_at(stem.len().min(3));
    (prefix == "COM" || prefix == "LPT")
        && matches!(digit, "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "¹" | "²" | "³")
}

/// A file name the UI may use: `name.json`, no folders, no `..`, nothing hidden, and safe
/// on Windows as on every other system (no drive prefixes or streams, no device names, no
/// trailing dots or spaces, no characters that hide or reorder what a name shows).
pub fn check_name(name: &str) -> Result<(), FileError> {
    let bad = |why: &str| Err(FileError(format!("“{name}” cannot be used as a file name: {why}")));
    if name.is_empty() || name.len() > 200 {
        return bad("it must have 1 to 200 characters");
    }
    if name.contains('/') || name.contains('\\') || Path::new(name).is_absolute() {
        return bad("it must not contain a folder");
    }
    if name == "." || name == ".." || name.contains("..") {
        return bad("it must not contain `..`");
    }
    if name.starts_with('.') {
        return bad("it must not start with a dot");
    }
    if name.chars().any(|c| c.is_control() || is_invisible(c)) {
        return bad("it must not contain control, invisible or direction-changing characters");
    }
    if name.contains(WINDOWS_FORBIDDEN) {
        return bad("it must not contain any of < > : \" | ? *");
    }
    if is_device_name(name) {
        return bad("it is a device name on Windows (CON, PRN, AUX, NUL, COM1-9, LPT1-9)");
    }
    if name.split('.').any(|part| part.ends_with(' ')) || name.starts_with(' ') || name.ends_with('.') {
        return bad("it must not have spaces before a dot, a leading space or a trailing dot");
    }
    if !name.ends_with(".json") || name.len() == ".json".len() {
        return bad("it must end with .json");
    }
    Ok(())
}

/// A file name for a graph called `title`: letters, digits and `-`, then `.json`.
pub fn file_name_for(title: &str) -> String {
    format!("{}.json", engine::Graph::file_stem(title))
}

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

/// Writes `text` to `path` atomically: a temporary file in the same folder, flushed to disk,
/// then renamed over `path`.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    write_atomic_with(path, text, || Ok(()))
}

/// [`write_atomic`] with a hook run between writing the temporary file and renaming it
/// (tests use it to simulate a crash at the worst moment).
pub fn write_atomic_with(path: &Path, text: &str, before_rename: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
    write_atomic_as(path, text, false, before_rename)
}

/// [`write_atomic_with`]; a `private` file is readable and writable by its owner only from
/// the moment it is created (mode 0600 on Unix), never narrowed afterwards.
pub(crate) fn write_atomic_as(
    path: &Path,
    text: &str,
    private: bool,
    before_rename: impl FnOnce() -> io::Result<()>,
) -> io::Result<()> {
    let dir = path.parent().ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "no folder"))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
    let temp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
    let result = (|| {
        let mut f = create_new(&temp, private)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        before_rename()?;
        fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    result
}

fn modified_ms(path: &Path) -> u64 {
    fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64)
}

/// One file in the workflows folder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Entry {
    pub file: String,
    /// The graph's name, or the file name when it cannot be read.
    pub name: String,
    pub modified_ms: u64,
    /// Why the file cannot be read, if it cannot.
    pub error: Option<String>,
}

/// A saved file's modification time, so the app can notice later changes by others.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Saved {
    pub modified_ms: u64,
}

/// The workflows folder.
#[derive(Debug, Clone)]
pub struct Workflows {
    dir: PathBuf,
}

impl Workflows {
    /// Opens (creating if needed) the folder.
    pub fn open(dir: impl Into<PathBuf>) -> Result<Workflows, FileError> {
        let dir = dir.into();
        fs::create_dir_all(&dir).map_err(|e| io_error(&format!("creating {}", dir.display()), &e))?;
        Ok(Workflows { dir })
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, file: &str) -> Result<PathBuf, FileError> {
        check_name(file)?;
        Ok(self.dir.join(file))
    }

    /// Every `*.json` file, by name; unreadable ones are listed with their error, never hidden
    /// and never hiding others.
    pub fn list(&self) -> Result<Vec<Entry>, FileError> {
        let read = fs::read_dir(&self.dir).map_err(|e| io_error("reading the workflows folder", &e))?;
        let mut out = Vec::new();
        for item in read.flatten() {
            let Some(file) = item.file_name().to_str().map(str::to_string) else { continue };
            if check_name(&file).is_err() || suites::is_suite_file(&file) || !item.path().is_file() {
                continue;
            }
            let modified_ms = modified_ms(&item.path());
            let entry = match fs::read_to_string(item.path()) {
                Ok(text) => match engine::parse_graph(&text) {
                    Ok(g) => Entry { name: g.display_name().to_string(), file, modified_ms, error: None },
                    Err(e) => Entry { name: file.clone(), file, modified_ms, error: Some(e.to_string()) },
                },
                Err(e) => Entry { name: file.clone(), file, modified_ms, error: Some(io_error("reading", &e).0) },
            };
            out.push(entry);
        }
        out.sort_by(|a, b| a.file.cmp(&b.file));
        Ok(out)
    }

    pub fn load(&self, file: &str) -> Result<String, FileError> {
        let path = self.path(file)?;
        fs::read_to_string(&path).map_err(|e| io_error(&format!("reading {file}"), &e))
    }

    pub fn save(&self, file: &str, text: &str) -> Result<Saved, FileError> {
        let path = self.path(file)?;
        write_atomic(&path, text).map_err(|e| io_error(&format!("saving {file}"), &e))?;
        Ok(Saved { modified_ms: modified_ms(&path) })
    }

    /// The file's modification time (0 if it is gone).
    pub fn modified(&self, file: &str) -> Result<u64, FileError> {
        Ok(modified_ms(&self.path(file)?))
    }

    /// A file name not used yet, derived from a graph's title.
    pub fn free_name(&self, title: &str) -> String {
        let base = file_name_for(title);
        let stem = base.trim_end_matches(".json").to_string();
        let taken = |n: &str| self.dir.join(n).exists();
        if !taken(&base) {
            return base;
        }
        (2..).map(|k| format!("{stem}-{k}.json")).find(|n| !taken(n)).unwrap_or(base)
    }

    /// Renames a graph file (and its runs folder); refuses to overwrite another file.
    pub fn rename(&self, from: &str, to: &str) -> Result<(), FileError> {
        let (a, b) = (self.path(from)?, self.path(to)?);
        if b.exists() {
            return Err(FileError(format!("cannot rename to {to}: a file with that name already exists")));
        }
        fs::rename(&a, &b).map_err(|e| io_error(&format!("renaming {from}"), &e))?;
        let (ra, rb) = (self.runs_dir(from), self.runs_dir(to));
        if ra.exists() {
            let _ = fs::rename(ra, rb);
        }
        self.rename_suite(from, to);
        Ok(())
    }

    pub fn delete(&self, file: &str) -> Result<(), FileError> {
        let path = self.path(file)?;
        fs::remove_file(&path).map_err(|e| io_error(&format!("deleting {file}"), &e))?;
        let runs = self.runs_dir(file);
        if runs.exists() {
            let _ = fs::remove_dir_all(runs);
        }
        self.delete_suite(file);
        Ok(())
    }

    fn runs_dir(&self, graph_file: &str) -> PathBuf {
        self.dir.join("runs").join(graph_file.trim_end_matches(".json"))
    }

    /// Where the runs of `graph` are kept: a file of the folder's beside its name; a file
    /// opened from anywhere else (an absolute path) in `runs/.elsewhere/`, under its name and
    /// the SHA-256 of its canonical path (a folder name no graph of the folder can have: it
    /// starts with a dot). The same file reached by another path (a link, `..`) has the same
    /// runs; two files cannot be made to share theirs (a 64-bit hash could be).
    fn runs_of(&self, graph: &str) -> Result<PathBuf, FileError> {
        let path = Path::new(graph);
        if !path.is_absolute() {
            check_name(graph)?;
            return Ok(self.runs_dir(graph));
        }
        // A file that is gone keeps the path it was known by.
        let canonical = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let name = |p: &Path| -> String {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("graph").trim_end_matches(".json");
            name.chars().map(|c| if c.is_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect()
        };
        let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
        let elsewhere = self.dir.join("runs").join(".elsewhere");
        let dir = elsewhere.join(format!("{}-{digest:x}", name(&canonical)));
        // Earlier versions kept them under a 64-bit FNV-1a hash of the path as given.
        let old = elsewhere.join(format!("{}-{:016x}", name(path), fnv1a(graph.as_bytes())));
        if !dir.exists() && old.is_dir() {
            let _ = fs::rename(&old, &dir);
        }
        Ok(dir)
    }

    fn run_path(&self, graph_file: &str, run_id: &str) -> Result<PathBuf, FileError> {
        let dir = self.runs_of(graph_file)?;
        let name = format!("{run_id}.json");
        check_name(&name)?;
        Ok(dir.join(name))
    }

    /// Saves a run record beside its graph.
    pub fn save_run(&self, graph_file: &str, run_id: &str, text: &str) -> Result<(), FileError> {
        let path = self.run_path(graph_file, run_id)?;
        if let Some(dir) = path.parent() {
            fs::create_dir_all(dir).map_err(|e| io_error("creating the runs folder", &e))?;
        }
        write_atomic(&path, text).map_err(|e| io_error(&format!("saving run {run_id}"), &e))
    }

    pub fn load_run(&self, graph_file: &str, run_id: &str) -> Result<String, FileError> {
        let path = self.run_path(graph_file, run_id)?;
        fs::read_to_string(path).map_err(|e| io_error(&format!("reading run {run_id}"), &e))
    }

    pub fn delete_run(&self, graph_file: &str, run_id: &str) -> Result<(), FileError> {
        let path = self.run_path(graph_file, run_id)?;
        fs::remove_file(path).map_err(|e| io_error(&format!("deleting run {run_id}"), &e))
    }

    /// Run ids saved for a graph, newest first.
    pub fn list_runs(&self, graph_file: &str) -> Result<Vec<String>, FileError> {
        let Ok(read) = fs::read_dir(self.runs_of(graph_file)?) else { return Ok(Vec::new()) };
        let mut runs: Vec<(u64, String)> = read
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_str()?.to_string();
                check_name(&name).ok()?;
                Some((modified_ms(&e.path()), name.trim_end_matches(".json").to_string()))
            })
            .collect();
        runs.sort_by(|a, b| b.cmp(a));
        Ok(runs.into_iter().map(|(_, id)| id).collect())
    }
}

/// Creates `path`, which must not exist; `private`: mode 0600 on Unix from the start.
fn create_new(path: &Path, private: bool) -> io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    options.open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> String {
        engine::Graph::new(name).to_pretty_json()
    }

    #[test]
    fn save_load_list_rename_delete() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path().join("workflows")).unwrap();
        w.save("approval.json", &doc("Approval")).unwrap();
        w.save("loop.json", &doc("Loop")).unwrap();
        assert_eq!(w.load("approval.json").unwrap(), doc("Approval"));
        let names: Vec<_> = w.list().unwrap().into_iter().map(|e| (e.file, e.name)).collect();
        assert_eq!(names, vec![("approval.json".into(), "Approval".into()), ("loop.json".into(), "Loop".into())]);
        w.save_run("approval.json", "run-1", "{}").unwrap();
        w.rename("approval.json", "approval-v2.json").unwrap();
        assert!(w.load("approval.json").is_err());
        assert_eq!(w.list_runs("approval-v2.json").unwrap(), vec!["run-1".to_string()]);
        assert!(w.rename("loop.json", "approval-v2.json").unwrap_err().0.contains("already exists"));
        w.delete("approval-v2.json").unwrap();
        assert_eq!(w.list().unwrap().len(), 1);
        assert!(w.list_runs("approval-v2.json").unwrap().is_empty());
        assert_eq!(w.free_name("Loop"), "loop-2.json");
    }

    #[test]
    fn a_crash_between_write_and_rename_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path()).unwrap();
        w.save("g.json", &doc("Old")).unwrap();
        let path = dir.path().join("g.json");
        let crash = write_atomic_with(&path, &doc("New"), || Err(io::Error::other("power cut")));
        assert!(crash.is_err());
        assert_eq!(fs::read_to_string(&path).unwrap(), doc("Old"));
        // No temporary file is left behind, and the folder lists just the one graph.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
        assert_eq!(w.list().unwrap().len(), 1);
        w.save("g.json", &doc("New")).unwrap();
        assert_eq!(w.load("g.json").unwrap(), doc("New"));
    }

    #[test]
    fn names_cannot_escape_the_folder() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path().join("w")).unwrap();
        for bad in [
            "../x.json",
            "..",
            "/etc/passwd.json",
            "a/b.json",
            "a\\b.json",
            ".hidden.json",
            "x.txt",
            "",
            ".json",
            "x\n.json",
            "..json",
        ] {
            let err = w.save(bad, "{}").unwrap_err();
            assert!(err.0.contains("cannot be used as a file name"), "{bad}: {err}");
            assert!(w.load(bad).is_err());
            assert!(w.delete(bad).is_err());
        }
        assert!(w.rename("x.json", "../y.json").is_err());
        assert!(w.save_run("g.json", "../../evil", "{}").is_err());
        assert!(!dir.path().join("y.json").exists());
    }

    #[test]
    fn a_corrupt_file_is_reported_without_hiding_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path()).unwrap();
        w.save("good.json", &doc("Good")).unwrap();
        fs::write(dir.path().join("broken.json"), "{\"format\": \"switchyard/graph@1\", \"nodes\": [").unwrap();
        fs::write(dir.path().join("notes.txt"), "ignored").unwrap();
        let list = w.list().unwrap();
        assert_eq!(list.len(), 2);
        let broken = list.iter().find(|e| e.file == "broken.json").unwrap();
        assert!(broken.error.as_deref().unwrap().contains("line"), "{broken:?}");
        assert!(list.iter().any(|e| e.name == "Good" && e.error.is_none()));
    }

    #[test]
    fn runs_of_a_file_opened_from_elsewhere_are_kept_apart_per_path() {
        let dir = tempfile::tempdir().unwrap();
        let wf = Workflows::open(dir.path().join("workflows")).unwrap();
        wf.save_run("/home/a/flow.switchyard.json", "r1", "{}").unwrap();
        wf.save_run("/home/b/flow.switchyard.json", "r2", "{}").unwrap();
        wf.save_run("flow.json", "r3", "{}").unwrap();
        assert_eq!(wf.list_runs("/home/a/flow.switchyard.json").unwrap(), vec!["r1".to_string()]);
        assert_eq!(wf.list_runs("/home/b/flow.switchyard.json").unwrap(), vec!["r2".to_string()]);
        assert_eq!(wf.list_runs("flow.json").unwrap(), vec!["r3".to_string()]);
        assert_eq!(wf.load_run("/home/a/flow.switchyard.json", "r1").unwrap(), "{}");
        assert!(wf.save_run("/home/a/flow.json", "../x", "{}").is_err(), "run ids stay names");
        assert!(wf.save_run("a/b.json", "r", "{}").is_err(), "a relative path is still refused");
    }

    /// Before, the folder was named by a 64-bit FNV hash of the path as given: two paths
    /// could be made to share one, and another spelling of the same file lost its runs.
    #[cfg(unix)]
    #[test]
    fn runs_of_a_file_from_elsewhere_are_named_by_the_sha256_of_its_canonical_path() {
        let dir = tempfile::tempdir().expect("a folder");
        let home = dir.path().join("home");
        fs::create_dir_all(home.join("sub")).expect("folders");
        let file = home.join("flow.json");
        fs::write(&file, doc("Flow")).expect("write");
        std::os::unix::fs::symlink(&file, home.join("link.json")).expect("link");
        let wf = Workflows::open(dir.path().join("workflows")).expect("open");
        let path = |p: &Path| p.to_str().expect("UTF-8").to_string();

        wf.save_run(&path(&file), "r1", "{}").expect("saved");
        let canonical = fs::canonicalize(&file).expect("canonical");
        let digest = Sha256::digest(canonical.as_os_str().as_encoded_bytes());
        let folder = dir.path().join(format!("workflows/runs/.elsewhere/flow-{digest:x}"));
        assert!(folder.join("r1.json").is_file(), "{} holds the run", folder.display());

        // After a restart, by any path to the same file.
        let wf = Workflows::open(dir.path().join("workflows")).expect("reopen");
        for other in [home.join("sub/../flow.json"), home.join("link.json")] {
            assert_eq!(wf.list_runs(&path(&other)).expect("listed"), vec!["r1".to_string()], "{}", other.display());
        }
    }

    #[test]
    fn runs_kept_under_the_old_hash_are_found() {
        let dir = tempfile::tempdir().expect("a folder");
        let wf = Workflows::open(dir.path().join("workflows")).expect("open");
        let graph = "/nowhere/old/flow.json";
        let old = dir.path().join(format!("workflows/runs/.elsewhere/flow-{:016x}", fnv1a(graph.as_bytes())));
        fs::create_dir_all(&old).expect("the old folder");
        fs::write(old.join("r0.json"), "{}").expect("an old run");
        assert_eq!(wf.list_runs(graph).expect("listed"), vec!["r0".to_string()]);
        assert!(!old.exists(), "moved to its new name");
        assert_eq!(wf.load_run(graph, "r0").expect("read"), "{}");
    }

    #[test]
    fn names_are_safe_on_windows_too() {
        for name in [
            "C:evil.json",
            "a.json:b.json",
            "a:b.json",
            "CON.json",
            "con.json",
            "nul.txt.json",
            "COM1.json",
            "lpt9.json",
            "Aux .json",
            "a .json",
            "a<b.json",
            "a|b.json",
            "a?.json",
            "a*.json",
            "a\"b.json",
            "evil\u{202E}nosj.exe.json",
            "a\u{200B}b.json",
            "a\u{FEFF}.json",
            "a\u{2066}b.json",
            " a.json",
        ] {
            assert!(check_name(name).is_err(), "{name:?} was accepted");
        }
        for name in ["console.json", "com10.json", "my-graph.json", "résumé.json", "lpt.json", "nully.json"] {
            assert!(check_name(name).is_ok(), "{name:?} was refused");
        }
    }

    #[test]
    fn file_names_from_titles() {
        assert_eq!(file_name_for("My Approval Flow!"), "my-approval-flow.json");
        assert_eq!(file_name_for("???"), "graph.json");
        assert!(check_name(&file_name_for("Ünïcode name")).is_ok());
        // The same name the editor suggests (app/src/model/storage/library.rs).
        assert_eq!(file_name_for("Ünï Côde"), "ünï-côde.json");
    }
}
