//! The app's settings file: keys per origin, the base URL, the recent files and where runs
//! are sent as traces, readable by its owner only.

use std::fmt;
use std::fs;
use std::io;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use engine::host::{Auth, Origin};
use serde::{Deserialize, Serialize};

use crate::{FileError, io_error, write_atomic_as};

/// The app's settings file. It holds the API key, so it is readable by its owner only.
///
/// A file that cannot be read as settings is never written over: the keys it may hold would
/// be lost. A damaged one is set aside (renamed `settings.json.damaged-<ms>`) and the user
/// told so; one that cannot be read at all (or set aside) blocks saving until it can be.
#[derive(Debug)]
pub struct Config {
    path: PathBuf,
    /// What the user must be told about the settings file, not told yet.
    notices: Mutex<Vec<String>>,
    /// Why the settings must not be saved now: the file is there but could not be read.
    blocked: Mutex<Option<String>>,
}

/// Why the settings file could not be read as settings.
enum Unreadable {
    /// It could not be read at all (permissions, I/O): it may be whole, so it stays.
    Io(io::Error),
    /// Not UTF-8 JSON in the shape of [`Settings`].
    Damaged(serde_json::Error),
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
    /// Whole command lines the person approved for MCP servers (`switchyard_ipc::mcp`): a
    /// graph's server starts only when its line is here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_commands: Vec<String>,
    /// Where runs are sent as OpenTelemetry traces; `None`: the `OTEL_*` variables decide.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traces: Option<TraceSettings>,
}

/// The Traces setting: a collector's OTLP/HTTP address, the headers sent with each export
/// (a tracing tool's key often travels in one, hence this private file) and whether message
/// content goes too.
#[derive(Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceSettings {
    pub endpoint: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub headers: Vec<(String, String)>,
    #[serde(default)]
    pub capture_content: bool,
}

impl fmt::Debug for TraceSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Header values can be keys: only their names.
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("TraceSettings")
            .field("endpoint", &self.endpoint)
            .field("headers", &names)
            .field("capture_content", &self.capture_content)
            .finish()
    }
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

impl TraceSettings {
    /// The setting from what the dialog sends: `endpoint` an http(s) address (`/v1/traces`
    /// is added as `OTEL_EXPORTER_OTLP_ENDPOINT` has it, unless it is there already),
    /// `headers` as `OTEL_EXPORTER_OTLP_HEADERS` writes them (`name=value` pairs, comma
    /// separated, values URL-encoded), `None` keeping `kept`'s.
    pub fn from_dialog(
        endpoint: &str,
        headers: Option<&str>,
        capture_content: bool,
        kept: Option<&TraceSettings>,
    ) -> Result<TraceSettings, String> {
        let endpoint = endpoint.trim().to_string();
        if Origin::of(&endpoint).is_none() {
            return Err(format!("{endpoint:?} is not an http(s) address"));
        }
        let headers = match headers {
            Some(text) => parse_headers(text)?,
            None => kept.map(|k| k.headers.clone()).unwrap_or_default(),
        };
        Ok(TraceSettings { endpoint, headers, capture_content })
    }

    /// Where spans are posted: the endpoint with `/v1/traces` added unless it ends so.
    pub fn traces_url(&self) -> String {
        let base = self.endpoint.trim().trim_end_matches('/');
        if base.ends_with("/v1/traces") { base.to_string() } else { format!("{base}/v1/traces") }
    }
}

/// `name=value` pairs, comma separated, values URL-decoded (`OTEL_EXPORTER_OTLP_HEADERS`).
fn parse_headers(text: &str) -> Result<Vec<(String, String)>, String> {
    let mut headers = Vec::new();
    for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').ok_or_else(|| format!("the header {pair:?} has no `=`"))?;
        let name = name.trim();
        let token = |c: char| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c);
        if name.is_empty() || !name.chars().all(token) {
            return Err(format!("{name:?} is not a header name"));
        }
        headers.push((name.to_string(), percent_decoded(value.trim())));
    }
    Ok(headers)
}

/// `text` with each `%XX` replaced by its byte (left as it is when not hex, or not UTF-8).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_else(|_| text.to_string())
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

    /// Remembers `lines` as approved command lines, each once.
    pub fn allow_commands<S: AsRef<str>>(&mut self, lines: impl IntoIterator<Item = S>) {
        for line in lines {
            let line = line.as_ref();
            if !line.trim().is_empty() && !self.allowed_commands.iter().any(|l| l == line) {
                self.allowed_commands.push(line.to_string());
            }
        }
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
        Config { path: path.into(), notices: Mutex::new(Vec::new()), blocked: Mutex::new(None) }
    }

    /// The settings, with a key of earlier versions moved to its origin (and saved so). A file
    /// that cannot be read gives the defaults, and a notice ([`Config::take_notices`]).
    pub fn load(&self) -> Settings {
        let mut s = match self.read() {
            Ok(s) => {
                *lock(&self.blocked) = None;
                s
            }
            Err(Unreadable::Damaged(why)) => {
                self.set_aside(&why);
                Settings::default()
            }
            Err(Unreadable::Io(e)) => {
                self.block(format!(
                    "The settings file {} could not be read ({e}); the app uses default settings and will not write over it until it can be read.",
                    self.path.display()
                ));
                Settings::default()
            }
        };
        if s.migrate() {
            let _ = self.save(&s);
        }
        s
    }

    /// What the user must be told about the settings file since the last call.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut *lock(&self.notices))
    }

    fn read(&self) -> Result<Settings, Unreadable> {
        match fs::read(&self.path) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(Unreadable::Damaged),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Settings::default()),
            Err(e) => Err(Unreadable::Io(e)),
        }
    }

    /// Moves a damaged settings file out of the way, keeping it whole for the user.
    fn set_aside(&self, why: &serde_json::Error) {
        let name = self.path.file_name().and_then(|n| n.to_str()).unwrap_or("settings.json");
        let aside = self.path.with_file_name(format!("{name}.damaged-{}", now_ms()));
        match fs::rename(&self.path, &aside) {
            Ok(()) => lock(&self.notices).push(format!(
                "The settings file was damaged ({why}) and could not be read: the app starts with default settings. The damaged file is kept as {}; keys stored in it are there, to add again.",
                aside.display()
            )),
            Err(e) => self.block(format!(
                "The settings file {} is damaged ({why}) and could not be set aside ({e}); the app uses default settings and will not write over it.",
                self.path.display()
            )),
        }
    }

    /// Refuses saving for `why`, told once.
    fn block(&self, why: String) {
        let mut blocked = lock(&self.blocked);
        if blocked.as_deref() != Some(why.as_str()) {
            lock(&self.notices).push(why.clone());
            *blocked = Some(why);
        }
    }

    pub fn save(&self, settings: &Settings) -> Result<(), FileError> {
        if let Some(why) = lock(&self.blocked).clone() {
            return Err(FileError(why));
        }
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

fn now_ms() -> u128 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis())
}

/// The value behind `m`, even after a panic elsewhere (these hold plain data).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Before, a damaged file gave the defaults silently and the next save wrote over it,
    /// losing every key it held.
    #[test]
    fn a_damaged_settings_file_is_kept_aside_and_told() {
        let dir = tempfile::tempdir().expect("a folder");
        let path = dir.path().join("settings.json");
        let damaged = r#"{"keys": [{"origin": "https://api.openai.com", "provider": "openai", "key": "sk-keep-me"}"#;
        fs::write(&path, damaged).expect("write");
        let c = Config::new(&path);

        assert_eq!(c.load(), Settings::default());
        let notices = c.take_notices();
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert!(notices[0].contains("damaged") && notices[0].contains("settings.json.damaged-"), "{notices:?}");
        assert!(c.take_notices().is_empty(), "told once");

        // A save (here, the recent files list) writes a new file; the old one is still whole.
        c.save(&Settings { recent: vec!["/tmp/a.json".into()], ..Settings::default() }).expect("saved");
        let kept: Vec<_> = fs::read_dir(dir.path())
            .expect("list")
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with("settings.json.damaged-"))
            .collect();
        assert_eq!(kept.len(), 1);
        assert_eq!(fs::read_to_string(kept[0].path()).expect("read"), damaged, "the keys are kept");
        assert_eq!(c.load().recent, vec!["/tmp/a.json".to_string()]);
        assert!(c.take_notices().is_empty());
    }

    #[test]
    fn the_traces_setting_reads_as_the_otel_variables_do() {
        let t = TraceSettings::from_dialog(
            " http://127.0.0.1:6006 ",
            Some("Authorization=Basic%20c2VjcmV0, x-team = blue "),
            true,
            None,
        )
        .expect("a setting");
        assert_eq!(t.traces_url(), "http://127.0.0.1:6006/v1/traces");
        assert_eq!(
            t.headers,
            vec![("Authorization".into(), "Basic c2VjcmV0".into()), ("x-team".into(), "blue".into())]
        );
        assert!(!format!("{t:?}").contains("c2VjcmV0"), "header values never in logs");
        // No headers typed: the kept ones stay; an address ending in /v1/traces is used as is.
        let kept = TraceSettings::from_dialog("https://otel.example/v1/traces/", None, false, Some(&t)).expect("ok");
        assert_eq!(kept.headers, t.headers);
        assert_eq!(kept.traces_url(), "https://otel.example/v1/traces");
        assert!(TraceSettings::from_dialog("localhost:4318", None, false, None).is_err());
        assert!(TraceSettings::from_dialog("http://h", Some("no-equals"), false, None).is_err());
        assert!(TraceSettings::from_dialog("http://h", Some("bad name=1"), false, None).is_err());
        // Saved and read back with the rest of the settings.
        let dir = tempfile::tempdir().expect("a folder");
        let c = Config::new(dir.path().join("settings.json"));
        c.save(&Settings { traces: Some(t.clone()), ..Settings::default() }).expect("saved");
        assert_eq!(c.load().traces, Some(t));
    }

    /// A file that is there but cannot be read may be whole: it is never written over.
    #[cfg(unix)]
    #[test]
    fn an_unreadable_settings_file_is_not_written_over() {
        let dir = tempfile::tempdir().expect("a folder");
        // A folder where the file should be: it cannot be read, and a save must not replace it.
        let path = dir.path().join("settings.json");
        fs::create_dir(&path).expect("a folder in the way");
        let c = Config::new(&path);
        assert_eq!(c.load(), Settings::default());
        assert_eq!(c.take_notices().len(), 1);
        let refused = c.save(&Settings::default()).unwrap_err();
        assert!(refused.0.contains("will not write over it"), "{refused}");
        assert!(path.is_dir());
    }
}
