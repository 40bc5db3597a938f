//! Bearer tokens for MCP servers reached over HTTP, each bound to one exact origin
//! (format.md §2.11, §8): a token goes with a request only when the request's URL has that
//! origin, read by the engine's strict parser and by the HTTP client's alike, and never with
//! a redirect to another origin. A document never supplies one.
//!
//! The CLI and `switchyard serve` read them from [`MCP_TOKENS_VAR`] (`ORIGIN=TOKEN,…`, for
//! CI) and from the JSON file [`MCP_TOKENS_FILE_VAR`] names (`{"ORIGIN": "TOKEN"}`).

use std::fmt;
use std::path::Path;

use engine::host::Origin;
use serde_json::Value;

/// `ORIGIN=TOKEN` pairs, comma-separated.
pub const MCP_TOKENS_VAR: &str = "SWITCHYARD_MCP_TOKENS";
/// A JSON file `{"ORIGIN": "TOKEN", …}`.
pub const MCP_TOKENS_FILE_VAR: &str = "SWITCHYARD_MCP_TOKENS_FILE";

/// The host's MCP tokens, by origin.
#[derive(Clone, Default)]
pub struct McpTokens {
    by_origin: Vec<(Origin, String)>,
}

impl fmt::Debug for McpTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the tokens themselves.
        let origins: Vec<String> = self.by_origin.iter().map(|(o, _)| o.to_string()).collect();
        f.debug_struct("McpTokens").field("origins", &origins).finish()
    }
}

impl McpTokens {
    pub fn new() -> McpTokens {
        McpTokens::default()
    }

    /// Holds `token` for `origin`, replacing an earlier one (a blank token is ignored).
    pub fn add(&mut self, origin: Origin, token: &str) {
        let token = token.trim();
        if token.is_empty() {
            return;
        }
        self.by_origin.retain(|(o, _)| *o != origin);
        self.by_origin.push((origin, token.to_string()));
    }

    /// Reads `ORIGIN=TOKEN,…`; returns a warning for each entry that is not one (naming the
    /// entry's origin part only, never its token).
    pub fn add_list(&mut self, list: &str) -> Vec<String> {
        let mut warnings = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let Some((origin, token)) = item.split_once('=') else {
                warnings.push(format!("{MCP_TOKENS_VAR}: an entry is not ORIGIN=TOKEN; ignored"));
                continue;
            };
            match bare_origin(origin.trim()) {
                Some(o) if !token.trim().is_empty() => self.add(o, token),
                Some(_) => warnings.push(format!("{MCP_TOKENS_VAR}: `{}` has an empty token; ignored", origin.trim())),
                None => warnings.push(format!(
                    "{MCP_TOKENS_VAR}: `{}` is not an origin (scheme://host[:port]); ignored",
                    origin.trim()
                )),
            }
        }
        warnings
    }

    /// Reads a JSON file `{"ORIGIN": "TOKEN"}`; returns warnings (a file others may read, an
    /// entry that is not an origin), or an error when the file cannot be read or is not such
    /// an object.
    pub fn add_file(&mut self, path: &Path) -> Result<Vec<String>, String> {
        let shown = path.display();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{MCP_TOKENS_FILE_VAR}: {shown}: {e}"))?;
        let value: Value =
            serde_json::from_str(&text).map_err(|e| format!("{MCP_TOKENS_FILE_VAR}: {shown}: not JSON ({e})"))?;
        let Value::Object(entries) = value else {
            return Err(format!("{MCP_TOKENS_FILE_VAR}: {shown}: must be a JSON object {{\"ORIGIN\": \"TOKEN\"}}"));
        };
        let mut warnings = readable_by_others(path)
            .then(|| format!("{MCP_TOKENS_FILE_VAR}: {shown} can be read by other users; `chmod 600` it"))
            .into_iter()
            .collect::<Vec<_>>();
        for (origin, token) in entries {
            match (bare_origin(&origin), token.as_str()) {
                (Some(o), Some(t)) => self.add(o, t),
                (None, _) => warnings.push(format!(
                    "{MCP_TOKENS_FILE_VAR}: {shown}: `{origin}` is not an origin (scheme://host[:port]); ignored"
                )),
                (_, None) => warnings
                    .push(format!("{MCP_TOKENS_FILE_VAR}: {shown}: the token for `{origin}` is not a string; ignored")),
            }
        }
        Ok(warnings)
    }

    /// The tokens of the environment ([`MCP_TOKENS_FILE_VAR`], then [`MCP_TOKENS_VAR`], which
    /// wins for an origin both name), with the warnings to print.
    pub fn from_env() -> (McpTokens, Vec<String>) {
        let mut tokens = McpTokens::new();
        let mut warnings = Vec::new();
        if let Some(path) = std::env::var_os(MCP_TOKENS_FILE_VAR).filter(|p| !p.is_empty()) {
            match tokens.add_file(Path::new(&path)) {
                Ok(w) => warnings.extend(w),
                Err(e) => warnings.push(format!("{e}; no token read from it")),
            }
        }
        if let Ok(list) = std::env::var(MCP_TOKENS_VAR) {
            warnings.extend(tokens.add_list(&list));
        }
        (tokens, warnings)
    }

    /// The token for `url`'s exact origin, if one is held and both URL readings agree on it.
    pub fn token_for(&self, url: &str) -> Option<&str> {
        let origin = Origin::of(url)?;
        if client_origin(url).as_ref() != Some(&origin) {
            return None;
        }
        self.by_origin.iter().find(|(o, _)| *o == origin).map(|(_, t)| t.as_str())
    }

    /// Every token held, for removing them from what servers send.
    pub fn tokens(&self) -> impl Iterator<Item = &str> {
        self.by_origin.iter().map(|(_, t)| t.as_str())
    }
}

/// An origin written alone (a trailing slash allowed), not a URL with a path.
fn bare_origin(item: &str) -> Option<Origin> {
    let rest = item.split_once("://")?.1;
    if rest.trim_end_matches('/').contains(['/', '?', '#']) {
        return None;
    }
    Origin::of(item)
}

/// `url`'s origin as the HTTP client reads it (so that a URL the two parsers read
/// differently gets no token).
fn client_origin(url: &str) -> Option<Origin> {
    let uri = url.parse::<ureq::http::Uri>().ok()?;
    if uri.authority().is_some_and(|a| a.as_str().contains('@')) {
        return None;
    }
    let (scheme, host) = (uri.scheme_str()?, uri.host()?);
    match uri.port_u16() {
        Some(p) => Origin::of(&format!("{scheme}://{host}:{p}")),
        None => Origin::of(&format!("{scheme}://{host}")),
    }
}

use crate::secret_file::readable_by_others;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_goes_only_to_its_exact_origin() {
        let mut t = McpTokens::new();
        let warnings =
            t.add_list("http://127.0.0.1:8001=tok-a-123456, nonsense, https://x.example/path=t2, http://h:1=");
        assert_eq!(warnings.len(), 3, "{warnings:?}");
        assert!(warnings.iter().all(|w| !w.contains("t2")), "tokens are never echoed: {warnings:?}");
        assert_eq!(t.token_for("http://127.0.0.1:8001/mcp"), Some("tok-a-123456"));
        assert_eq!(t.token_for("http://127.0.0.1:8002/mcp"), None, "another port");
        assert_eq!(t.token_for("https://127.0.0.1:8001/mcp"), None, "another scheme");
        assert_eq!(t.token_for("http://localhost:8001/mcp"), None, "another host name");
        assert_eq!(t.token_for("http://127.0.0.1:8001@evil.example/mcp"), None);
        assert!(!format!("{t:?}").contains("tok-a"));
    }

    #[test]
    fn a_tokens_file_is_read_and_a_readable_one_is_warned_about() {
        let dir = std::env::temp_dir().join(format!("mcp-tokens-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("tokens.json");
        std::fs::write(&path, r#"{"https://mcp.example.com/": "file-token-1", "not an origin": "x", "http://a:1": 3}"#)
            .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let mut t = McpTokens::new();
        let warnings = t.add_file(&path).expect("read");
        assert_eq!(t.token_for("https://mcp.example.com/mcp"), Some("file-token-1"));
        #[cfg(unix)]
        assert!(warnings.iter().any(|w| w.contains("chmod 600")), "{warnings:?}");
        assert_eq!(warnings.iter().filter(|w| w.contains("ignored")).count(), 2, "{warnings:?}");
        std::fs::write(&path, "[1]").unwrap();
        assert!(t.add_file(&path).expect_err("not an object").contains("JSON object"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
