//! The desktop app's storage (spec section 7): every graph is a `*.json` file (the exported
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
//! | [`Config`] | the app's settings file (keys, base URL, recent files), readable by its user only |
//! | [`recent`] | the recent files list kept there |

pub mod recent;

use std::fmt;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::UNIX_EPOCH;

use engine::host::{Auth, Origin};
use serde::{Deserialize, Serialize};

/// FNV-1a, 64 bits: a hash of a path that stays the same across builds and versions.
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

fn io_error(what: &str, e: &io::Error) -> FileError {
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
fn write_atomic_as(
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
            if check_name(&file).is_err() || !item.path().is_file() {
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
        Ok(())
    }

    pub fn delete(&self, file: &str) -> Result<(), FileError> {
        let path = self.path(file)?;
        fs::remove_file(&path).map_err(|e| io_error(&format!("deleting {file}"), &e))?;
        let runs = self.runs_dir(file);
        if runs.exists() {
            let _ = fs::remove_dir_all(runs);
        }
        Ok(())
    }

    fn runs_dir(&self, graph_file: &str) -> PathBuf {
        self.dir.join("runs").join(graph_file.trim_end_matches(".json"))
    }

    /// Where the runs of `graph` are kept: a file of the folder's beside its name; a file
    /// opened from anywhere else (an absolute path) in `runs/.elsewhere/`, under its name and
    /// a hash of its path (a folder name no graph of the folder can have: it starts with a dot).
    fn runs_of(&self, graph: &str) -> Result<PathBuf, FileError> {
        let path = Path::new(graph);
        if !path.is_absolute() {
            check_name(graph)?;
            return Ok(self.runs_dir(graph));
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("graph").trim_end_matches(".json");
        let name: String =
            name.chars().map(|c| if c.is_alphanumeric() || "-_.".contains(c) { c } else { '_' }).take(80).collect();
        Ok(self.dir.join("runs").join(".elsewhere").join(format!("{name}-{:016x}", fnv1a(graph.as_bytes()))))
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

/// The app's settings file. It holds the API key, so it is readable by its owner only.
#[derive(Debug, Clone)]
pub struct Config {
    path: PathBuf,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    /// The single key of earlier versions; [`Config::load`] moves it into [`Settings::keys`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openai_api_key: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openai_base_url: Option<String>,
    /// Provider keys, each bound to one origin.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<OriginKey>,
    /// Graph files opened or saved anywhere, newest first ([`recent`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recent: Vec<String>,
}

/// A key and the one origin it goes to.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct OriginKey {
    /// `scheme://host[:port]`, normalised.
    pub origin: String,
    /// `openai` or `anthropic`.
    pub provider: String,
    pub key: String,
}

impl fmt::Debug for OriginKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the key itself.
        f.debug_struct("OriginKey").field("origin", &self.origin).field("provider", &self.provider).finish()
    }
}

impl Settings {
    /// Moves the single key of earlier versions into a key for the origin of the Base URL
    /// it was used with (the OpenAI origin when there was none). Whether anything moved.
    pub fn migrate(&mut self) -> bool {
        let Some(key) = self.openai_api_key.take() else { return false };
        let key = key.trim().to_string();
        if !key.is_empty() {
            let origin = self
                .openai_base_url
                .as_deref()
                .map(str::trim)
                .filter(|b| !b.is_empty())
                .and_then(Origin::of)
                .unwrap_or_else(|| Auth::OpenAi.default_origin())
                .to_string();
            self.set_key(OriginKey { origin, provider: "openai".into(), key });
        }
        true
    }

    /// Keeps `new`, replacing a key of the same provider for the same origin.
    pub fn set_key(&mut self, new: OriginKey) {
        self.remove_key(&new.origin, &new.provider);
        self.keys.push(new);
    }

    pub fn remove_key(&mut self, origin: &str, provider: &str) {
        self.keys.retain(|k| !(k.origin == origin && k.provider == provider));
    }

    /// The key of `provider` kept for the origin of `url`, if any.
    pub fn key_for(&self, provider: &str, url: &str) -> Option<&OriginKey> {
        let origin = Origin::of(url)?;
        self.keys
            .iter()
            .find(|k| k.provider == provider && !k.key.is_empty() && Origin::of(&k.origin).as_ref() == Some(&origin))
    }
}

impl Config {
    pub fn new(path: impl Into<PathBuf>) -> Config {
        Config { path: path.into() }
    }

    /// The settings, with a key of earlier versions moved to its origin (and saved so).
    pub fn load(&self) -> Settings {
        let mut s: Settings =
            fs::read_to_string(&self.path).ok().and_then(|t| serde_json::from_str(&t).ok()).unwrap_or_default();
        if s.migrate() {
            let _ = self.save(&s);
        }
        s
    }

    pub fn save(&self, settings: &Settings) -> Result<(), FileError> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir).map_err(|e| io_error("creating the config folder", &e))?;
        }
        let text = serde_json::to_string_pretty(settings).map_err(|e| FileError(e.to_string()))?;
        self.write(&text, || Ok(())).map_err(|e| io_error("saving the settings", &e))
    }

    /// Writes the settings file, created private (see [`write_atomic_with`] for the hook).
    fn write(&self, text: &str, before_rename: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        write_atomic_as(&self.path, text, true, before_rename)
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
    fn settings_are_private_to_their_owner() {
        let dir = tempfile::tempdir().unwrap();
        let c = Config::new(dir.path().join("config").join("settings.json"));
        assert_eq!(c.load(), Settings::default());
        let s = Settings { openai_api_key: Some("sk-test".into()), ..Settings::default() };
        c.save(&s).unwrap();
        // The old single key is moved to the OpenAI origin on reading, and saved so.
        let moved = c.load();
        assert_eq!(moved.openai_api_key, None);
        assert_eq!(
            moved.keys,
            vec![OriginKey {
                origin: "https://api.openai.com".into(),
                provider: "openai".into(),
                key: "sk-test".into()
            }]
        );
        assert_eq!(c.load(), moved);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(dir.path().join("config/settings.json")).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
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

    #[test]
    fn the_old_key_goes_to_its_base_urls_origin_only() {
        let mut s = Settings {
            openai_api_key: Some(" sk-local-1 ".into()),
            openai_base_url: Some("http://127.0.0.1:11434/v1".into()),
            ..Settings::default()
        };
        assert!(s.migrate());
        assert!(!s.migrate(), "once");
        assert_eq!(s.key_for("openai", "http://127.0.0.1:11434/v1/chat").map(|k| k.key.as_str()), Some("sk-local-1"));
        assert!(s.key_for("openai", "https://api.openai.com/v1/chat").is_none());
        assert!(s.key_for("openai", "http://127.0.0.1:11434@evil.test/").is_none());
        assert!(s.key_for("anthropic", "http://127.0.0.1:11434/v1").is_none());
        assert!(!format!("{s:?}").contains("sk-local"));
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

    #[cfg(unix)]
    #[test]
    fn the_settings_file_is_private_from_its_creation() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("a folder");
        let c = Config::new(dir.path().join("settings.json"));
        let mut seen = Vec::new();
        c.write("{}", || {
            // The temporary file, before it becomes the settings file.
            for e in fs::read_dir(dir.path())?.flatten() {
                seen.push((e.file_name(), e.metadata()?.permissions().mode() & 0o777));
            }
            Ok(())
        })
        .expect("saved");
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].1, 0o600, "{seen:?}");
    }

    #[test]
    fn file_names_from_titles() {
        assert_eq!(file_name_for("My Approval Flow!"), "my-approval-flow.json");
        assert_eq!(file_name_for("???"), "graph.json");
        assert!(check_name(&file_name_for("Ünïcode name")).is_ok());
        // The same name the editor suggests (app/src/model/library.rs).
        assert_eq!(file_name_for("Ünï Côde"), "ünï-côde.json");
    }
}
