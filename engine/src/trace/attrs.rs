//! Attributes built up one at a time, and URLs made safe to export: a query string or user
//! info can carry a key, so neither leaves the engine.

use super::AttrValue;

/// A span's attributes, in the order they were put.
#[derive(Debug, Default)]
pub(super) struct Attrs(pub Vec<(String, AttrValue)>);

impl Attrs {
    pub fn str(&mut self, key: &str, value: impl Into<String>) -> &mut Self {
        self.0.push((key.to_string(), AttrValue::Str(value.into())));
        self
    }

    pub fn int(&mut self, key: &str, value: i64) -> &mut Self {
        self.0.push((key.to_string(), AttrValue::Int(value)));
        self
    }

    pub fn list(&mut self, key: &str, values: Vec<String>) -> &mut Self {
        self.0.push((key.to_string(), AttrValue::StrList(values)));
        self
    }

    /// A count that fits an attribute (OpenTelemetry integers are signed).
    pub fn count(&mut self, key: &str, value: u64) -> &mut Self {
        self.int(key, i64::try_from(value).unwrap_or(i64::MAX))
    }

    pub fn opt_str(&mut self, key: &str, value: Option<&str>) -> &mut Self {
        if let Some(v) = value {
            self.str(key, v);
        }
        self
    }
}

/// The parts of a URL a trace may show: scheme, host, port and path; its query, fragment
/// and user info dropped (keys hide there).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SafeUrl {
    /// `scheme://host[:port]/path`.
    pub full: String,
    pub host: String,
    pub port: Option<u16>,
}

/// `url` without its secrets; `None` when it is not an absolute `scheme://` URL.
pub(super) fn safe_url(url: &str) -> Option<SafeUrl> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty() || !scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) {
        return None;
    }
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    // User info ends at the last `@` of the authority.
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let (host, port) = split_port(host_port);
    if host.is_empty() {
        return None;
    }
    let port_text = port.map(|p| format!(":{p}")).unwrap_or_default();
    let port = port.or(match scheme.to_ascii_lowercase().as_str() {
        "https" => Some(443),
        "http" => Some(80),
        _ => None,
    });
    Some(SafeUrl {
        full: format!("{}://{host}{port_text}{path}", scheme.to_ascii_lowercase()),
        host: host.into(),
        port,
    })
}

/// Host and port of `host[:port]` (an IPv6 host in brackets keeps them).
fn split_port(host_port: &str) -> (&str, Option<u16>) {
    if let Some(end) = host_port.rfind(']') {
        let (host, after) = host_port.split_at(end + 1);
        return (host, after.strip_prefix(':').and_then(|p| p.parse().ok()));
    }
    match host_port.rsplit_once(':') {
        Some((h, p)) => (h, p.parse().ok()),
        None => (host_port, None),
    }
}

/// The server attributes of a URL (`url.full` when `with_full`).
pub(super) fn put_url(a: &mut Attrs, url: &SafeUrl, with_full: bool) {
    if with_full {
        a.str("url.full", url.full.clone());
    }
    a.str("server.address", url.host.clone());
    if let Some(p) = url.port {
        a.int("server.port", i64::from(p));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_lose_query_fragment_and_user_info() {
        let u = safe_url("https://user:secret@api.example.com:8443/v1/x?key=abc#frag").unwrap();
        assert_eq!(u.full, "https://api.example.com:8443/v1/x");
        assert_eq!((u.host.as_str(), u.port), ("api.example.com", Some(8443)));
        let u = safe_url("http://127.0.0.1/search?api_key=k").unwrap();
        assert_eq!((u.full.as_str(), u.port), ("http://127.0.0.1/search", Some(80)));
        let u = safe_url("http://[::1]:9/p").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("[::1]", Some(9)));
        assert_eq!(safe_url("not a url"), None);
    }
}
