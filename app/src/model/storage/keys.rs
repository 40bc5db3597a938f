//! Provider keys bound to origins: each key the person keeps in Settings goes to one origin
//! (`scheme://host[:port]`) and nowhere else. The browser's host reads its keys through a
//! [`KeyTable`]; the settings form lists the origins that have keys, never the keys. An MCP
//! server's bearer token is one more such key ([`Provider::Mcp`]), sent to its exact origin.

use engine::host::{Auth, KeyRing, Origin};
use serde::{Deserialize, Serialize};

/// The address an OpenAI-compatible model call is written to before the Base URL setting
/// replaces it.
pub const OPENAI_BASE: &str = "https://api.openai.com/v1";

/// Which provider a key is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Provider {
    #[serde(rename = "openai")]
    OpenAi,
    Anthropic,
    /// `Authorization: Bearer <token>` for an MCP server reached over HTTP.
    Mcp,
}

impl Provider {
    /// Every provider, in the order the settings form offers them.
    pub const ALL: [Provider; 3] = [Provider::OpenAi, Provider::Anthropic, Provider::Mcp];

    /// The engine's request authentication this key serves; none for an MCP token, which
    /// the host adds to MCP exchanges itself.
    pub fn auth(self) -> Option<Auth> {
        match self {
            Provider::OpenAi => Some(Auth::OpenAi),
            Provider::Anthropic => Some(Auth::Anthropic),
            Provider::Mcp => None,
        }
    }

    pub fn of(auth: Auth) -> Provider {
        match auth {
            Auth::OpenAi => Provider::OpenAi,
            Auth::Anthropic => Provider::Anthropic,
        }
    }

    /// Its name in the settings form.
    pub fn label(self) -> &'static str {
        match self {
            Provider::OpenAi => "OpenAI-compatible",
            Provider::Anthropic => "Anthropic",
            Provider::Mcp => "MCP server (bearer token)",
        }
    }

    /// Its name in storage and over IPC.
    pub fn id(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Mcp => "mcp",
        }
    }

    pub fn from_id(id: &str) -> Option<Provider> {
        match id {
            "openai" => Some(Provider::OpenAi),
            "anthropic" => Some(Provider::Anthropic),
            "mcp" => Some(Provider::Mcp),
            _ => None,
        }
    }
}

/// One key and the origin it goes to.
#[derive(Clone, PartialEq, Serialize, Deserialize)]
pub struct OriginKey {
    pub origin: String,
    pub provider: Provider,
    pub key: String,
}

impl std::fmt::Debug for OriginKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Never the key itself.
        f.debug_struct("OriginKey").field("origin", &self.origin).field("provider", &self.provider).finish()
    }
}

/// An origin typed in the settings form (a bare origin or any URL of it), normalised.
pub fn parse_origin(text: &str) -> Result<String, String> {
    let text = text.trim();
    Origin::of(text)
        .map(|o| o.to_string())
        .ok_or_else(|| format!("“{text}” is not an http(s) origin such as https://api.openai.com"))
}

/// The entry the old single key and Base URL settings become: the key, bound to the origin
/// of the Base URL it was used with (the OpenAI origin when there was none). `None` when no
/// key was kept.
pub fn migrate(api_key: Option<&str>, base_url: Option<&str>) -> Option<OriginKey> {
    let key = api_key.map(str::trim).filter(|k| !k.is_empty())?;
    let origin = base_url
        .map(str::trim)
        .filter(|b| !b.is_empty())
        .and_then(Origin::of)
        .unwrap_or_else(|| Auth::OpenAi.default_origin());
    Some(OriginKey { origin: origin.to_string(), provider: Provider::OpenAi, key: key.to_string() })
}

/// `keys` with `new` added, replacing a key of the same provider for the same origin.
pub fn with_key(mut keys: Vec<OriginKey>, new: OriginKey) -> Vec<OriginKey> {
    keys.retain(|k| !(k.origin == new.origin && k.provider == new.provider));
    keys.push(new);
    keys
}

/// `keys` without the one of `provider` for `origin`.
pub fn without_key(mut keys: Vec<OriginKey>, origin: &str, provider: Provider) -> Vec<OriginKey> {
    keys.retain(|k| !(k.origin == origin && k.provider == provider));
    keys
}

/// Where a request really goes: a model call written to the OpenAI address goes to the Base
/// URL setting instead, when there is one.
pub fn effective_url(url: &str, auth: Option<Auth>, base_url: Option<&str>) -> String {
    if auth == Some(Auth::OpenAi)
        && let Some(base) = base_url.map(str::trim).filter(|b| !b.is_empty())
        && let Some(rest) = url.strip_prefix(OPENAI_BASE)
    {
        return format!("{}{rest}", base.trim_end_matches('/'));
    }
    url.to_string()
}

/// What stands for a key in a table that only says which origins have one (the desktop
/// app's page, the run worker): the key itself is held by whoever sends the request.
pub const HELD_ELSEWHERE: &str = "(held elsewhere)";

/// A host's keys and its Base URL setting.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct KeyTable {
    pub keys: Vec<OriginKey>,
    pub base_url: Option<String>,
}

impl KeyTable {
    /// Whether a request to `url` (before the Base URL replaces the OpenAI address) may
    /// carry the key for `auth`; the error says why not.
    pub fn allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        let target = effective_url(url, Some(auth), self.base_url.as_deref());
        let Some(origin) = Origin::of(&target) else {
            return Err(format!("{} goes only to a plain http(s) origin, and {target:?} is not one", auth.key_name()));
        };
        match self.entry(auth, &origin) {
            Some(_) => Ok(()),
            None => Err(format!("no key for {origin} is kept in Settings (keys go only to their own origins)")),
        }
    }

    /// The key for `auth` when the request to `target` (already rewritten) may carry it:
    /// the entry for the target's origin, checked again by a [`KeyRing`] trusting that
    /// origin only.
    pub fn key_for(&self, auth: Auth, target: &str) -> Option<&str> {
        let origin = Origin::of(target)?;
        let entry = self.entry(auth, &origin)?;
        let mut ring = KeyRing::new();
        ring.add_key(auth, &entry.key);
        ring.trust(origin);
        ring.key_for(auth, target)?;
        Some(entry.key.as_str())
    }

    fn entry(&self, auth: Auth, origin: &Origin) -> Option<&OriginKey> {
        self.entry_of(Provider::of(auth), origin)
    }

    fn entry_of(&self, provider: Provider, origin: &Origin) -> Option<&OriginKey> {
        self.keys.iter().find(|k| {
            k.provider == provider && !k.key.trim().is_empty() && Origin::of(&k.origin).as_ref() == Some(origin)
        })
    }

    /// The bearer token kept for the MCP server at `url`'s exact origin, if any (a URL with
    /// user info gets none: it does not read as an origin).
    pub fn mcp_token(&self, url: &str) -> Option<&str> {
        let origin = Origin::of(url)?;
        self.entry_of(Provider::Mcp, &origin).map(|k| k.key.as_str()).filter(|k| *k != HELD_ELSEWHERE)
    }

    /// Every key held, to remove from replies.
    /// Which origins have a key for which provider, and the Base URL, with the keys left
    /// out: what an engine running apart from the page (the run worker) needs to decide which
    /// requests may carry one. The page adds the key when it sends.
    pub fn without_keys(&self) -> KeyTable {
        let keys = self
            .keys
            .iter()
            .filter(|k| !k.key.trim().is_empty())
            .map(|k| OriginKey { key: HELD_ELSEWHERE.to_string(), ..k.clone() })
            .collect();
        KeyTable { keys, base_url: self.base_url.clone() }
    }

    pub fn secrets(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|k| k.key.as_str()).filter(|k| !k.trim().is_empty() && *k != HELD_ELSEWHERE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(origin: &str, k: &str) -> OriginKey {
        OriginKey { origin: origin.into(), provider: Provider::OpenAi, key: k.into() }
    }

    #[test]
    fn the_old_key_moves_to_its_base_urls_origin() {
        assert_eq!(
            migrate(Some(" sk-1 "), Some("http://127.0.0.1:11434/v1")),
            Some(key("http://127.0.0.1:11434", "sk-1"))
        );
        assert_eq!(migrate(Some("sk-1"), None), Some(key("https://api.openai.com", "sk-1")));
        assert_eq!(migrate(Some("sk-1"), Some("  ")), Some(key("https://api.openai.com", "sk-1")));
        assert_eq!(migrate(Some(""), Some("http://x.test/v1")), None);
        assert_eq!(migrate(None, None), None);
    }

    #[test]
    fn a_table_without_keys_allows_the_same_requests_and_holds_no_secret() {
        let table = KeyTable {
            keys: vec![key("http://127.0.0.1:11434", "sk-secret"), key("https://unused.test", " ")],
            base_url: Some("http://127.0.0.1:11434/v1".into()),
        };
        let bare = table.without_keys();
        let text = serde_json::to_string(&bare).unwrap();
        assert!(!text.contains("sk-secret"), "{text}");
        assert_eq!(bare.keys.len(), 1, "an origin without a key is left out");
        let openai = "https://api.openai.com/v1/chat/completions";
        assert_eq!(bare.allowed(Auth::OpenAi, openai), Ok(()));
        assert_eq!(table.allowed(Auth::OpenAi, openai), Ok(()));
        assert!(bare.allowed(Auth::OpenAi, "https://evil.test/v1").is_err());
        assert_eq!(bare.secrets().count(), 0, "nothing to remove from replies");
    }

    #[test]
    fn origins_typed_in_settings_are_normalised() {
        assert_eq!(parse_origin("HTTPS://API.openai.com:443/v1").as_deref(), Ok("https://api.openai.com"));
        assert!(parse_origin("api.openai.com").is_err());
        assert!(parse_origin("https://a.test@b.test").is_err());
    }

    #[test]
    fn an_mcp_token_goes_only_to_its_exact_origin() {
        let mcp = |origin: &str, k: &str| OriginKey { origin: origin.into(), provider: Provider::Mcp, key: k.into() };
        let table = KeyTable {
            keys: vec![mcp("http://127.0.0.1:8001", "tok-a"), key("http://127.0.0.1:8002", "sk-model")],
            base_url: None,
        };
        assert_eq!(table.mcp_token("http://127.0.0.1:8001/mcp"), Some("tok-a"));
        assert_eq!(table.mcp_token("http://127.0.0.1:8002/mcp"), None, "a model key is not an MCP token");
        assert_eq!(table.mcp_token("https://127.0.0.1:8001/mcp"), None, "another scheme");
        assert_eq!(table.mcp_token("http://localhost:8001/mcp"), None, "another host name");
        assert_eq!(table.mcp_token("http://127.0.0.1:8001@evil.test/mcp"), None);
        assert!(table.allowed(Auth::OpenAi, "http://127.0.0.1:8001/v1").is_err(), "a token is not a model key");
        assert_eq!(table.secrets().collect::<Vec<_>>(), vec!["tok-a", "sk-model"], "tokens are removed from replies");
        assert_eq!(table.without_keys().mcp_token("http://127.0.0.1:8001/mcp"), None, "the worker holds no token");
        assert_eq!(Provider::from_id(Provider::Mcp.id()), Some(Provider::Mcp));
        assert_eq!(Provider::Mcp.label(), "MCP server (bearer token)");
    }

    #[test]
    fn keys_replace_and_remove_per_origin() {
        let keys = with_key(vec![key("http://a.test", "1")], key("http://b.test", "2"));
        let keys = with_key(keys, key("http://a.test", "3"));
        assert_eq!(keys, vec![key("http://b.test", "2"), key("http://a.test", "3")]);
        assert_eq!(without_key(keys, "http://a.test", Provider::OpenAi), vec![key("http://b.test", "2")]);
    }

    #[test]
    fn a_key_goes_only_to_its_origin() {
        let table =
            KeyTable { keys: vec![key("http://models.test", "sk-m")], base_url: Some("http://models.test/v1/".into()) };
        // Written to the OpenAI address, sent to the Base URL.
        let url = "https://api.openai.com/v1/chat/completions";
        assert_eq!(
            effective_url(url, Some(Auth::OpenAi), Some("http://models.test/v1/")),
            "http://models.test/v1/chat/completions"
        );
        assert_eq!(effective_url(url, None, Some("http://models.test/v1")), url);
        assert!(table.allowed(Auth::OpenAi, url).is_ok());
        assert_eq!(table.key_for(Auth::OpenAi, "http://models.test/v1/chat/completions"), Some("sk-m"));
        // A graph naming another base_url gets no key, and the reason names the origin.
        let why = table.allowed(Auth::OpenAi, "http://other.test/v1/chat/completions").unwrap_err();
        assert!(why.contains("http://other.test"), "{why}");
        assert_eq!(table.key_for(Auth::OpenAi, "http://other.test/v1/chat/completions"), None);
        assert_eq!(table.key_for(Auth::OpenAi, "http://models.test@other.test/v1"), None);
        assert_eq!(table.key_for(Auth::Anthropic, "http://models.test/v1"), None);
        assert_eq!(table.secrets().collect::<Vec<_>>(), vec!["sk-m"]);
        assert!(!format!("{table:?}").contains("sk-m"));
    }
}
