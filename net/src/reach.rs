//! Which addresses a request may connect to ([`Reach`]). A served graph is untrusted (README, Untrusted graphs in the editor)
//! and runs next to things it must not touch: the Restate server's admin API and ingress (which
//! read every run's record), a cloud's metadata service, the operator's private network. So on
//! `switchyard serve` loopback, private and link-local addresses are denied unless the operator
//! allows them, and the addresses the operator denies (the Restate server's) stay denied even
//! then.
//!
//! The check is made on the addresses a host name resolves to, at each connection (a redirect
//! included), by the HTTP client's resolver ([`ReachResolver`]): the connection goes only to an
//! address that was checked, so a name that resolves to a public address when asked and to
//! 127.0.0.1 a moment later reaches nothing it may not.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};
use std::sync::Arc;

use ipnet::IpNet;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::NextTimeout;

/// Addresses, comma-separated, a served graph may reach although they are loopback or private.
pub const ALLOWED_ADDRESSES_VAR: &str = "SWITCHYARD_ALLOWED_ADDRESSES";
/// Addresses, comma-separated, a served graph may never reach, allowed or not.
pub const DENIED_ADDRESSES_VAR: &str = "SWITCHYARD_DENIED_ADDRESSES";

/// An address or a network, and a port or every port: `127.0.0.1:11434`, `10.0.0.0/8`, `::1`,
/// `[::1]:8080`, or a URL's `host:port` (`http://127.0.0.1:9070`, a name resolved when read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressRule {
    net: IpNet,
    port: Option<u16>,
}

impl AddressRule {
    /// The rules of one entry (a host name gives one per address it resolves to).
    pub fn parse(entry: &str) -> Result<Vec<AddressRule>, BadAddress> {
        let bad = || BadAddress(entry.to_string());
        let text = entry.trim();
        // A URL stands for its host and port (the scheme's default when it names none).
        if let Some((scheme, rest)) = text.split_once("://") {
            let default = match scheme.to_ascii_lowercase().as_str() {
                "http" => 80,
                "https" => 443,
                _ => return Err(bad()),
            };
            let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
            if authority.contains('@') {
                return Err(bad());
            }
            let uri: Uri = format!("http://{authority}/").parse().map_err(|_| bad())?;
            let host = uri.host().ok_or_else(bad)?.trim_start_matches('[').trim_end_matches(']');
            let port = uri.port_u16().unwrap_or(default);
            return Self::of_host(host, Some(port)).ok_or_else(bad);
        }
        if let Ok(net) = text.parse::<IpNet>() {
            return Ok(vec![AddressRule { net, port: None }]);
        }
        if let Ok(ip) = text.parse::<IpAddr>() {
            return Ok(vec![AddressRule { net: IpNet::from(ip), port: None }]);
        }
        if let Ok(addr) = text.parse::<SocketAddr>() {
            return Ok(vec![AddressRule { net: IpNet::from(addr.ip()), port: Some(addr.port()) }]);
        }
        // `host:port` with a host name.
        let (host, port) = text.rsplit_once(':').ok_or_else(bad)?;
        let port = port.parse().map_err(|_| bad())?;
        Self::of_host(host, Some(port)).ok_or_else(bad)
    }

    /// The rules for `host` (an address, or a name resolved now) and `port`.
    fn of_host(host: &str, port: Option<u16>) -> Option<Vec<AddressRule>> {
        if let Ok(ip) = host.parse::<IpAddr>() {
            return Some(vec![AddressRule { net: IpNet::from(ip), port }]);
        }
        let addrs = (host, port.unwrap_or(0)).to_socket_addrs().ok()?;
        let rules: Vec<AddressRule> = addrs.map(|a| AddressRule { net: IpNet::from(a.ip()), port }).collect();
        (!rules.is_empty()).then_some(rules)
    }

    fn covers(&self, addr: SocketAddr) -> bool {
        self.net.contains(&addr.ip()) && self.port.is_none_or(|p| p == addr.port())
    }

    /// Whether this rule covers every port of a loopback or private address.
    fn is_wide_private(&self) -> bool {
        self.port.is_none() && is_private(self.net.network())
    }
}

impl fmt::Display for AddressRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let net = if self.net.prefix_len() == self.net.max_prefix_len() {
            self.net.addr().to_string()
        } else {
            self.net.to_string()
        };
        match (self.port, self.net) {
            (Some(p), IpNet::V6(_)) => write!(f, "[{net}]:{p}"),
            (Some(p), IpNet::V4(_)) => write!(f, "{net}:{p}"),
            (None, _) => f.write_str(&net),
        }
    }
}

/// An entry of an address list that is not an address, a network, or a URL whose host resolves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadAddress(pub String);

impl fmt::Display for BadAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not an address (IP, IP:PORT, a network such as 10.0.0.0/8, or http://HOST:PORT)", self.0)
    }
}

impl std::error::Error for BadAddress {}

/// Why an address is not reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Denial {
    /// The operator denied it (the Restate server's own addresses belong there).
    Denied,
    /// A loopback, private, link-local or otherwise internal address, not allowed.
    Private,
}

/// The error of a request to an address its host does not reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreachable {
    pub addr: SocketAddr,
    pub why: Denial,
}

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.why {
            Denial::Denied => write!(f, "{} is denied to served graphs ({DENIED_ADDRESSES_VAR})", self.addr),
            Denial::Private => write!(
                f,
                "{} is a loopback or private address, which served graphs do not reach unless the operator allows it ({ALLOWED_ADDRESSES_VAR})",
                self.addr
            ),
        }
    }
}

impl std::error::Error for Unreachable {}

/// Which addresses requests may connect to. [`Reach::open`] (the CLI's and the desktop's: a
/// person's own machine) reaches everything; [`Reach::served`] denies internal addresses
/// unless allowed, and denied ones always.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reach {
    private_denied: bool,
    allowed: Vec<AddressRule>,
    denied: Vec<AddressRule>,
}

impl Reach {
    /// Every address.
    pub fn open() -> Reach {
        Reach::default()
    }

    /// Public addresses only, until [`Reach::allow`] lets internal ones through.
    pub fn served() -> Reach {
        Reach { private_denied: true, ..Reach::default() }
    }

    /// Whether every address is reached.
    pub fn is_open(&self) -> bool {
        !self.private_denied && self.denied.is_empty()
    }

    /// Allows `rule` although it is internal (a denied address stays denied).
    pub fn allow(&mut self, rule: AddressRule) {
        if !self.allowed.contains(&rule) {
            self.allowed.push(rule);
        }
    }

    /// Denies `rule`, whatever else allows it.
    pub fn deny(&mut self, rule: AddressRule) {
        if !self.denied.contains(&rule) {
            self.denied.push(rule);
        }
    }

    /// Allows each entry of a comma-separated list; the entries that are not addresses are
    /// returned.
    pub fn allow_list(&mut self, list: &str) -> Vec<BadAddress> {
        each_rule(list, |r| self.allow(r))
    }

    /// Denies each entry of a comma-separated list; the entries that are not addresses are
    /// returned.
    pub fn deny_list(&mut self, list: &str) -> Vec<BadAddress> {
        each_rule(list, |r| self.deny(r))
    }

    /// The reach of served graphs: public addresses, the internal ones in `allow` and in
    /// [`ALLOWED_ADDRESSES_VAR`], never those in `deny`, in [`DENIED_ADDRESSES_VAR`] or in
    /// `also_denied` (the server's own addresses). Comma-separated lists; an entry that is not
    /// an address is an error (a security setting is not guessed at). `switchyard serve` and
    /// `switchyard server` both start from it.
    pub fn served_settings(allow: Option<&str>, deny: Option<&str>, also_denied: &[&str]) -> Result<Reach, BadAddress> {
        let env = |name: &str| std::env::var(name).unwrap_or_default();
        let mut reach = Reach::served();
        let mut bad = reach.allow_list(allow.unwrap_or_default());
        bad.extend(reach.allow_list(&env(ALLOWED_ADDRESSES_VAR)));
        bad.extend(reach.deny_list(deny.unwrap_or_default()));
        bad.extend(reach.deny_list(&env(DENIED_ADDRESSES_VAR)));
        for list in also_denied.iter().filter(|l| !l.trim().is_empty()) {
            bad.extend(reach.deny_list(list));
        }
        match bad.into_iter().next() {
            Some(e) => Err(e),
            None => Ok(reach),
        }
    }

    /// The allowed rules that open every port of an internal address: a Restate server there
    /// is reached too, unless its addresses are denied.
    pub fn wide_allowances(&self) -> impl Iterator<Item = &AddressRule> {
        self.allowed.iter().filter(|r| r.is_wide_private())
    }

    /// Whether a connection to `addr` may be made.
    pub fn check(&self, addr: SocketAddr) -> Result<(), Unreachable> {
        if self.denied.iter().any(|r| r.covers(addr)) {
            return Err(Unreachable { addr, why: Denial::Denied });
        }
        if self.private_denied && is_private(addr.ip()) && !self.allowed.iter().any(|r| r.covers(addr)) {
            return Err(Unreachable { addr, why: Denial::Private });
        }
        Ok(())
    }
}

fn each_rule(list: &str, mut add: impl FnMut(AddressRule)) -> Vec<BadAddress> {
    let mut bad = Vec::new();
    for entry in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match AddressRule::parse(entry) {
            Ok(rules) => rules.into_iter().for_each(&mut add),
            Err(e) => bad.push(e),
        }
    }
    bad
}

/// Loopback, private, link-local (a cloud's metadata service), shared, unspecified,
/// broadcast or multicast: anything but an address on the public internet. An IPv6 address
/// holding an IPv4 one (mapped, or NAT64) is judged by that one.
pub fn is_private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_private_v4(v4),
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped().or_else(|| nat64(v6)) {
                return is_private_v4(v4);
            }
            let first = v6.segments()[0];
            // `::/96` holds `::`, `::1` and the deprecated IPv4-compatible addresses.
            v6.segments()[..6] == [0; 6]
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00 // unique local
                || (first & 0xffc0) == 0xfe80 // link-local
                || (first & 0xffc0) == 0xfec0 // site-local (deprecated, still routed by some)
        }
    }
}

fn is_private_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || a == 0
        || (a == 100 && (64..128).contains(&b)) // shared address space (carrier NAT)
        || (a == 192 && b == 0 && ip.octets()[2] == 0) // IETF protocol assignments
        || (a == 198 && (b == 18 || b == 19)) // benchmarking
        || a >= 240 // reserved
}

/// The IPv4 address inside a NAT64 address (`64:ff9b::/96`).
fn nat64(v6: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = v6.segments();
    (s[..6] == [0x64, 0xff9b, 0, 0, 0, 0])
        .then(|| Ipv4Addr::new((s[6] >> 8) as u8, s[6] as u8, (s[7] >> 8) as u8, s[7] as u8))
}

/// The HTTP client's resolver, keeping only the addresses `reach` allows; none left is an
/// [`Unreachable`] error (inside an I/O error of kind `PermissionDenied`).
#[derive(Debug)]
pub struct ReachResolver {
    reach: Arc<Reach>,
}

impl ReachResolver {
    pub fn new(reach: Arc<Reach>) -> ReachResolver {
        ReachResolver { reach }
    }
}

impl Resolver for ReachResolver {
    fn resolve(&self, uri: &Uri, config: &Config, timeout: NextTimeout) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let found = DefaultResolver::default().resolve(uri, config, timeout)?;
        let mut kept = self.empty();
        let mut refused = None;
        for &addr in found.iter() {
            match self.reach.check(addr) {
                Ok(()) => kept.push(addr),
                Err(e) => refused = refused.or(Some(e)),
            }
        }
        match refused {
            Some(e) if kept.is_empty() => {
                Err(ureq::Error::Io(std::io::Error::new(std::io::ErrorKind::PermissionDenied, e)))
            }
            _ => Ok(kept),
        }
    }
}

/// The [`Unreachable`] inside a client error, if that is what it is.
pub fn unreachable_of(e: &ureq::Error) -> Option<&Unreachable> {
    match e {
        ureq::Error::Io(io) => io.get_ref()?.downcast_ref::<Unreachable>(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> SocketAddr {
        s.parse().expect("an address")
    }

    #[test]
    fn internal_addresses_are_denied_unless_allowed() {
        let mut reach = Reach::served();
        for a in [
            "127.0.0.1:9070",
            "10.1.2.3:80",
            "172.16.0.1:80",
            "192.168.1.1:80",
            "169.254.169.254:80",
            "0.0.0.0:80",
            "100.64.0.1:80",
            "[::1]:80",
            "[fd00::1]:80",
            "[fe80::1]:80",
            "[::ffff:127.0.0.1]:80",
            "[64:ff9b::a00:1]:80",
            "[::127.0.0.1]:80",
        ] {
            assert_eq!(reach.check(addr(a)).map_err(|e| e.why), Err(Denial::Private), "{a}");
        }
        assert!(reach.check(addr("93.184.216.34:443")).is_ok());
        assert!(reach.check(addr("[2606:4700::1]:443")).is_ok());
        assert!(reach.allow_list("127.0.0.1:11434, 10.0.0.0/8, nonsense").len() == 1);
        assert!(reach.check(addr("127.0.0.1:11434")).is_ok());
        assert!(reach.check(addr("127.0.0.1:9070")).is_err(), "only the port allowed");
        assert!(reach.check(addr("10.9.9.9:5")).is_ok());
        assert!(Reach::open().check(addr("127.0.0.1:9070")).is_ok());
    }

    #[test]
    fn denied_addresses_beat_allowed_ones() {
        let mut reach = Reach::served();
        reach.allow_list("127.0.0.1");
        assert_eq!(reach.wide_allowances().count(), 1);
        assert!(reach.deny_list("http://127.0.0.1:19070, https://127.0.0.1, [::1]:18080").is_empty());
        assert_eq!(reach.check(addr("127.0.0.1:19070")).map_err(|e| e.why), Err(Denial::Denied));
        assert_eq!(reach.check(addr("127.0.0.1:443")).map_err(|e| e.why), Err(Denial::Denied));
        assert_eq!(reach.check(addr("[::1]:18080")).map_err(|e| e.why), Err(Denial::Denied));
        assert!(reach.check(addr("127.0.0.1:11434")).is_ok());
        let e = reach.check(addr("127.0.0.1:19070")).unwrap_err();
        assert_eq!(e.to_string(), "127.0.0.1:19070 is denied to served graphs (SWITCHYARD_DENIED_ADDRESSES)");
    }

    #[test]
    fn odd_entries_are_refused() {
        for entry in ["ftp://x:1", "http://a@127.0.0.1:1", "127.0.0.1:99999", "host.invalid.:x", ""] {
            assert!(AddressRule::parse(entry).is_err(), "{entry}");
        }
        let shown: Vec<String> = ["[::1]:8080", "10.0.0.0/8", "::1"]
            .iter()
            .flat_map(|e| AddressRule::parse(e).unwrap())
            .map(|r| r.to_string())
            .collect();
        assert_eq!(shown, ["[::1]:8080", "10.0.0.0/8", "::1"]);
    }
}
