//! Redirects, followed here rather than by the HTTP client: the client strips only
//! `Authorization` from a redirected request, and an Anthropic key (`x-api-key`), an Azure
//! `api-key` or a graph's own credential header would follow a redirect to any origin. So the
//! client follows none, and a redirect to another origin goes on without any credential
//! header (nor the host's key) from then on.

use engine::host::is_credential_header;
use ureq::http::Method;

/// How many redirects are followed before the last reply is kept as it is.
pub const MAX_REDIRECTS: usize = 10;

/// One request of a chain of redirects.
#[derive(Debug, Clone, PartialEq)]
pub struct Hop {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Option<String>,
    /// Whether the host's key goes with it (only while the chain stays on its first origin).
    pub keyed: bool,
}

/// The request after a reply of `status` with `location` to `hop`, or `None` when the reply
/// is not a redirect to follow (it is then the reply).
pub fn next_hop(hop: &Hop, first_url: &str, status: u16, location: Option<&str>) -> Option<Hop> {
    if !matches!(status, 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let next = url::Url::parse(&hop.url).ok()?.join(location?).ok()?;
    if !matches!(next.scheme(), "http" | "https") {
        return None;
    }
    // 303, and 301/302 after a POST, go on as a GET without a body (as browsers do).
    let to_get =
        status == 303 || (matches!(status, 301 | 302) && hop.method.eq_ignore_ascii_case(Method::POST.as_str()));
    let same_origin = url::Url::parse(first_url).is_ok_and(|first| first.origin() == next.origin());
    let headers = hop
        .headers
        .iter()
        .filter(|(k, _)| same_origin || !is_credential_header(k))
        .filter(|(k, _)| {
            !(to_get && (k.eq_ignore_ascii_case("content-type") || k.eq_ignore_ascii_case("content-length")))
        })
        .cloned()
        .collect();
    Some(Hop {
        method: if to_get { "GET".into() } else { hop.method.clone() },
        url: next.to_string(),
        headers,
        body: if to_get { None } else { hop.body.clone() },
        keyed: hop.keyed && same_origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hop(url: &str) -> Hop {
        Hop {
            method: "POST".into(),
            url: url.into(),
            headers: vec![
                ("X-Api-Key".into(), "k".into()),
                ("api-key".into(), "k".into()),
                ("content-type".into(), "application/json".into()),
                ("x-trace".into(), "t".into()),
            ],
            body: Some("{}".into()),
            keyed: true,
        }
    }

    #[test]
    fn credentials_do_not_leave_their_origin() {
        let first = "https://api.anthropic.com/v1/messages";
        let off = next_hop(&hop(first), first, 307, Some("https://evil.example/steal")).expect("followed");
        assert_eq!(
            off.headers,
            vec![("content-type".to_string(), "application/json".to_string()), ("x-trace".into(), "t".into())]
        );
        assert!(!off.keyed);
        assert_eq!(off.body.as_deref(), Some("{}"), "307 keeps the body");
        // Back to the first origin: the key does not come back.
        let back = next_hop(&off, first, 308, Some("https://api.anthropic.com/v1/x")).expect("followed");
        assert!(!back.keyed);
        let same = next_hop(&hop(first), first, 302, Some("/v1/other")).expect("followed");
        assert_eq!(same.url, "https://api.anthropic.com/v1/other");
        assert!(same.keyed && same.headers.iter().any(|(k, _)| k == "X-Api-Key"));
        assert_eq!((same.method.as_str(), same.body.as_deref()), ("GET", None), "a POST redirected by 302 is a GET");
        assert!(next_hop(&hop(first), first, 200, Some("/x")).is_none());
        assert!(next_hop(&hop(first), first, 302, Some("file:///etc/passwd")).is_none());
        let port = next_hop(&hop(first), first, 307, Some("https://api.anthropic.com:8443/")).expect("followed");
        assert!(!port.keyed, "another port is another origin");
    }
}
