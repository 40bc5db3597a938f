//! Keys bound to origins (README, Untrusted graphs in the editor): a provider key goes only to the origins its owner chose,
//! never to whatever `base_url` a shared graph names.
//!
//! [`Origin`] is a URL's `scheme://host[:port]`, normalised (lowercase, default ports
//! dropped) and strict: a URL with user info (`https://api.openai.com@evil.example`), a
//! backslash, percent signs or anything else unusual in its authority has no origin, and so
//! is trusted with nothing. [`KeyRing`] holds a host's keys and the origins each may go to;
//! the engine asks the host ([`super::Host::key_allowed`]) before it marks a request for a
//! key, and a host that holds a `KeyRing` checks again before it adds one.

use std::fmt;

use super::Auth;

/// A URL's origin: `scheme://host` plus `:port` when it is not the scheme's default.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Origin {
    scheme: String,
    host: String,
    port: Option<u16>,
}

impl Origin {
    /// The origin of `url` (`http` or `https` only), or `None` when it has none this
    /// strict reading accepts.
    pub fn of(url: &str) -> Option<Origin> {
        let (scheme, rest) = url.split_once("://")?;
        let scheme = scheme.to_ascii_lowercase();
        let default_port = match scheme.as_str() {
            "http" => 80,
            "https" => 443,
            _ => return None,
        };
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        let (host, port) = split_port(authority)?;
        let host_ok = if let Some(ip6) = host.strip_prefix('[') {
            ip6.strip_suffix(']')
                .is_some_and(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.'))
        } else {
            !host.is_empty() && host.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.')
        };
        if !host_ok {
            return None;
        }
        let port = port.filter(|&p| p != default_port);
        Some(Origin { scheme, host: host.to_ascii_lowercase(), port })
    }

    /// Whether `url` has this origin.
    pub fn matches(&self, url: &str) -> bool {
        Origin::of(url).as_ref() == Some(self)
    }
}

/// `host[:port]` split; `None` for an empty or non-numeric port.
fn split_port(authority: &str) -> Option<(&str, Option<u16>)> {
    let colon = if authority.starts_with('[') {
        authority.find(']').map(|i| i + 1).filter(|&i| i < authority.len())
    } else {
        authority.rfind(':')
    };
    match colon {
        None => Some((authority, None)),
        Some(i) => {
            if authority.as_bytes().get(i) != Some(&b':') {
                return None;
            }
            let digits = &authority[i + 1..];
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((&authority[..i], Some(digits.parse().ok()?)))
        }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}", self.scheme, self.host)?;
        if let Some(p) = self.port {
            write!(f, ":{p}")?;
        }
        Ok(())
    }
}

impl Auth {
    /// The one origin this provider's key goes to without being told otherwise.
    pub fn default_origin(self) -> Origin {
        let host = match self {
            Auth::OpenAi => "api.openai.com",
            Auth::Anthropic => "api.anthropic.com",
        };
        Origin { scheme: "https".into(), host: host.into(), port: None }
    }

    /// The key's name in messages: "the OpenAI key".
    pub fn key_name(self) -> &'static str {
        match self {
            Auth::OpenAi => "the OpenAI key",
            Auth::Anthropic => "the Anthropic key",
        }
    }
}

/// Whether a key for `auth` may go to `url`, given `trusted` origins beyond the provider's
/// own; the error says why not.
pub fn check_origin(auth: Auth, url: &str, trusted: &[Origin]) -> Result<(), String> {
    let Some(origin) = Origin::of(url) else {
        return Err(format!("{} goes only to a plain http(s) origin, and {url:?} is not one", auth.key_name()));
    };
    if origin == auth.default_origin() || trusted.contains(&origin) {
        Ok(())
    } else {
        Err(format!("{origin} is not a trusted origin for {}", auth.key_name()))
    }
}

/// A host's keys and the extra origins its owner trusts with them (the CLI's
/// `SWITCHYARD_TRUSTED_ORIGINS`). Each key goes to its provider's own origin and to the
/// trusted ones, nowhere else.
#[derive(Clone, Default)]
pub struct KeyRing {
    keys: Vec<(Auth, String)>,
    trusted: Vec<Origin>,
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the keys themselves.
        let auths: Vec<Auth> = self.keys.iter().map(|(a, _)| *a).collect();
        f.debug_struct("KeyRing").field("keys", &auths).field("trusted", &self.trusted).finish()
    }
}

impl KeyRing {
    pub fn new() -> KeyRing {
        KeyRing::default()
    }

    /// Holds `key` for `auth` (a blank key is ignored).
    pub fn add_key(&mut self, auth: Auth, key: &str) {
        let key = key.trim();
        if !key.is_empty() {
            self.keys.retain(|(a, _)| *a != auth);
            self.keys.push((auth, key.to_string()));
        }
    }

    /// Trusts `origin` with every key.
    pub fn trust(&mut self, origin: Origin) {
        if !self.trusted.contains(&origin) {
            self.trusted.push(origin);
        }
    }

    /// Trusts each origin of a comma-separated list; the entries that are not origins are
    /// returned, for a warning.
    pub fn trust_list(&mut self, list: &str) -> Vec<String> {
        let mut bad = Vec::new();
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match Origin::of(item) {
                Some(o) if is_bare(item) => self.trust(o),
                _ => bad.push(item.to_string()),
            }
        }
        bad
    }

    /// The extra origins trusted with every key.
    pub fn trusted(&self) -> &[Origin] {
        &self.trusted
    }

    /// Whether a key for `auth` may go to `url` (whether or not this ring holds one).
    pub fn allowed(&self, auth: Auth, url: &str) -> Result<(), String> {
        check_origin(auth, url, &self.trusted)
    }

    /// The key for `auth` if it may go to `url`.
    pub fn key_for(&self, auth: Auth, url: &str) -> Option<&str> {
        self.allowed(auth, url).ok()?;
        self.key(auth)
    }

    /// Every key held, for redacting them from replies.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.keys.iter().map(|(_, k)| k.as_str())
    }

    /// The key held for `auth`, wherever it may go: for redacting it from replies.
    pub fn key(&self, auth: Auth) -> Option<&str> {
        self.keys.iter().find(|(a, _)| *a == auth).map(|(_, k)| k.as_str())
    }
}

/// An origin written with its default port or a trailing slash is still an origin.
fn is_bare(item: &str) -> bool {
    let rest = item.split_once("://").map_or("", |(_, r)| r);
    !rest.trim_end_matches('/').contains(['/', '?', '#'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_normalised() {
        let o = |u: &str| Origin::of(u).map(|o| o.to_string());
        assert_eq!(o("https://API.OpenAI.com/v1/chat").as_deref(), Some("https://api.openai.com"));
        assert_eq!(o("https://api.openai.com:443/v1").as_deref(), Some("https://api.openai.com"));
        assert_eq!(o("http://127.0.0.1:11434").as_deref(), Some("http://127.0.0.1:11434"));
        assert_eq!(o("http://localhost:80/x").as_deref(), Some("http://localhost"));
        assert_eq!(o("http://[::1]:8080/").as_deref(), Some("http://[::1]:8080"));
        assert_eq!(o("HTTPS://api.openai.com?x").as_deref(), Some("https://api.openai.com"));
    }

    #[test]
    fn odd_urls_have_no_origin() {
        for url in [
            "https://api.openai.com@evil.example/v1",
            "https://evil.example\\@api.openai.com/",
            "https://evil.example\\.api.openai.com/",
            "https://api.openai.com%2eevil.example/",
            "file:///etc/passwd",
            "ftp://api.openai.com/",
            "https://api.openai.com:/",
            "https://api.openai.com:99999/",
            "https:///v1",
            "api.openai.com/v1",
            "https://[::1/",
        ] {
            assert_eq!(Origin::of(url), None, "{url}");
        }
    }

    #[test]
    fn keys_go_only_to_their_origins() {
        let mut ring = KeyRing::new();
        ring.add_key(Auth::OpenAi, "sk-test-123456");
        assert_eq!(ring.key_for(Auth::OpenAi, "https://api.openai.com/v1/chat/completions"), Some("sk-test-123456"));
        assert_eq!(ring.key_for(Auth::OpenAi, "http://api.openai.com/v1"), None, "not over plain http");
        assert_eq!(ring.key_for(Auth::OpenAi, "https://api.openai.com.evil.example/v1"), None);
        let why = ring.allowed(Auth::OpenAi, "http://127.0.0.1:9/v1").expect_err("not trusted");
        assert_eq!(why, "http://127.0.0.1:9 is not a trusted origin for the OpenAI key");
        assert!(ring.trust_list("http://127.0.0.1:9, nonsense, https://x.example/path").len() == 2);
        assert_eq!(ring.key_for(Auth::OpenAi, "http://127.0.0.1:9/v1"), Some("sk-test-123456"));
        assert_eq!(ring.key_for(Auth::Anthropic, "https://api.anthropic.com/v1"), None, "no such key held");
        assert!(ring.allowed(Auth::Anthropic, "https://api.anthropic.com/v1/messages").is_ok());
        assert!(!format!("{ring:?}").contains("sk-test"));
    }
}
