//! The standard `OTEL_*` environment variables read into a [`Config`]: where spans go, with
//! which headers, protocol and timeout, under which resource, and whether message content is
//! recorded. The variables are passed in as a lookup function, so tests (and the desktop's
//! setting, which fills the gaps from the environment) never touch the process environment.
//!
//! Precedence follows the OpenTelemetry specification: a `…_TRACES_…` variable wins over its
//! generic `OTEL_EXPORTER_OTLP_…` form; an empty variable counts as unset.

use std::time::Duration;

use crate::pairs::{PairsError, parse_pairs};

/// How spans are encoded on the wire (`OTEL_EXPORTER_OTLP_PROTOCOL`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Protocol {
    /// `http/protobuf`, the default.
    #[default]
    HttpProtobuf,
    /// `http/json`.
    HttpJson,
}

/// Where and how traces are sent.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// The URL spans are posted to (`…/v1/traces`).
    pub traces_endpoint: String,
    /// Extra headers for every export request (`OTEL_EXPORTER_OTLP_HEADERS`).
    pub headers: Vec<(String, String)>,
    /// `OTEL_EXPORTER_OTLP_PROTOCOL`.
    pub protocol: Protocol,
    /// How long one export request may take, retries included (`OTEL_EXPORTER_OTLP_TIMEOUT`).
    pub timeout: Duration,
    /// `service.name` (`OTEL_SERVICE_NAME`, else `service.name` in
    /// `OTEL_RESOURCE_ATTRIBUTES`, else `switchyard`).
    pub service_name: String,
    /// Other resource attributes (`OTEL_RESOURCE_ATTRIBUTES`).
    pub resource: Vec<(String, String)>,
    /// Whether message content is recorded
    /// (`OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`).
    pub capture_content: bool,
}

/// Why the configuration could not be used: the variable and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    pub variable: String,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.variable, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// The OTLP default for a request's timeout.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The service name when none is configured.
pub const DEFAULT_SERVICE_NAME: &str = "switchyard";

pub const OTEL_SDK_DISABLED: &str = "OTEL_SDK_DISABLED";
pub const OTEL_TRACES_EXPORTER: &str = "OTEL_TRACES_EXPORTER";
pub const OTEL_EXPORTER_OTLP_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
pub const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";
pub const OTEL_EXPORTER_OTLP_HEADERS: &str = "OTEL_EXPORTER_OTLP_HEADERS";
pub const OTEL_EXPORTER_OTLP_TRACES_HEADERS: &str = "OTEL_EXPORTER_OTLP_TRACES_HEADERS";
pub const OTEL_EXPORTER_OTLP_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_PROTOCOL";
pub const OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: &str = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL";
pub const OTEL_EXPORTER_OTLP_TIMEOUT: &str = "OTEL_EXPORTER_OTLP_TIMEOUT";
pub const OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: &str = "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT";
pub const OTEL_SERVICE_NAME: &str = "OTEL_SERVICE_NAME";
pub const OTEL_RESOURCE_ATTRIBUTES: &str = "OTEL_RESOURCE_ATTRIBUTES";
pub const OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: &str =
    "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT";

impl Config {
    /// The configuration the process environment gives: `Ok(None)` when no endpoint is set,
    /// `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none`.
    pub fn from_env() -> Result<Option<Config>, ConfigError> {
        Config::from_vars(|name| std::env::var(name).ok())
    }

    /// The configuration the variables `var` returns give (see [`Config::from_env`]).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Result<Option<Config>, ConfigError> {
        let vars = Vars(&var);
        if vars.is_true(OTEL_SDK_DISABLED) || exporter_is_none(&vars)? {
            return Ok(None);
        }
        let Some(traces_endpoint) = endpoint(&vars)? else {
            return Ok(None);
        };
        let (service_name, resource) = resource(&vars)?;
        Ok(Some(Config {
            traces_endpoint,
            headers: headers(&vars)?,
            protocol: protocol(&vars)?,
            timeout: timeout(&vars)?,
            service_name,
            resource,
            capture_content: vars.is_true(OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT),
        }))
    }

    /// A configuration sending to `traces_endpoint` with every other setting at its default
    /// (the desktop's setting starts from this).
    pub fn for_endpoint(traces_endpoint: impl Into<String>) -> Config {
        Config {
            traces_endpoint: traces_endpoint.into(),
            headers: Vec::new(),
            protocol: Protocol::default(),
            timeout: DEFAULT_TIMEOUT,
            service_name: DEFAULT_SERVICE_NAME.into(),
            resource: Vec::new(),
            capture_content: false,
        }
    }

    /// The endpoint as it may be printed: no user name, password or query (a key can hide
    /// there).
    pub fn endpoint_for_display(&self) -> String {
        strip_secrets(&self.traces_endpoint)
    }
}

/// The lookup with empty values taken as unset.
struct Vars<'a>(&'a dyn Fn(&str) -> Option<String>);

impl Vars<'_> {
    fn get(&self, name: &str) -> Option<String> {
        (self.0)(name).map(|v| v.trim().to_string()).filter(|v| !v.is_empty())
    }

    /// The first of `names` that is set, with its name (for errors).
    fn first(&self, names: &[&'static str]) -> Option<(&'static str, String)> {
        names.iter().find_map(|name| self.get(name).map(|v| (*name, v)))
    }

    fn is_true(&self, name: &str) -> bool {
        self.get(name).is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }
}

fn error(variable: &str, message: impl Into<String>) -> ConfigError {
    ConfigError { variable: variable.into(), message: message.into() }
}

/// `OTEL_TRACES_EXPORTER`: `otlp` (the default) or `none`; any other exporter is not built in.
fn exporter_is_none(vars: &Vars) -> Result<bool, ConfigError> {
    let Some(value) = vars.get(OTEL_TRACES_EXPORTER) else {
        return Ok(false);
    };
    let names: Vec<String> = value.split(',').map(|s| s.trim().to_ascii_lowercase()).collect();
    if names.iter().any(|n| n == "none") {
        return Ok(true);
    }
    match names.iter().find(|n| n.as_str() != "otlp") {
        Some(other) => Err(error(OTEL_TRACES_EXPORTER, format!("`{other}` is not supported: use `otlp` or `none`"))),
        None => Ok(false),
    }
}

/// The traces URL: the signal's variable as is, else the generic one with `/v1/traces`.
fn endpoint(vars: &Vars) -> Result<Option<String>, ConfigError> {
    if let Some(url) = vars.get(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
        return check_url(OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, &url).map(|()| Some(url));
    }
    let Some(base) = vars.get(OTEL_EXPORTER_OTLP_ENDPOINT) else {
        return Ok(None);
    };
    check_url(OTEL_EXPORTER_OTLP_ENDPOINT, &base)?;
    Ok(Some(format!("{}/v1/traces", base.trim_end_matches('/'))))
}

fn check_url(variable: &str, url: &str) -> Result<(), ConfigError> {
    let scheme_ok = url.starts_with("http://") || url.starts_with("https://");
    let parsed = url.parse::<http::Uri>();
    match parsed {
        Ok(uri) if scheme_ok && uri.host().is_some_and(|h| !h.is_empty()) => Ok(()),
        _ => Err(error(variable, format!("`{}` is not an http:// or https:// URL", strip_secrets(url)))),
    }
}

fn headers(vars: &Vars) -> Result<Vec<(String, String)>, ConfigError> {
    let Some((name, value)) = vars.first(&[OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_EXPORTER_OTLP_HEADERS]) else {
        return Ok(Vec::new());
    };
    let pairs = parse_pairs(&value).map_err(|e| pairs_error(name, e))?;
    for (key, _) in &pairs {
        if http::HeaderName::from_bytes(key.as_bytes()).is_err() {
            return Err(error(name, format!("`{key}` is not a valid header name")));
        }
    }
    Ok(pairs)
}

fn pairs_error(variable: &str, e: PairsError) -> ConfigError {
    // The value may hold a key: name the entry's position, never its text.
    error(variable, e.to_string())
}

fn protocol(vars: &Vars) -> Result<Protocol, ConfigError> {
    let Some((name, value)) = vars.first(&[OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, OTEL_EXPORTER_OTLP_PROTOCOL]) else {
        return Ok(Protocol::default());
    };
    match value.to_ascii_lowercase().as_str() {
        "http/protobuf" => Ok(Protocol::HttpProtobuf),
        "http/json" => Ok(Protocol::HttpJson),
        "grpc" => Err(error(
            name,
            "gRPC is not supported: use `http/protobuf` (the default) and the collector's OTLP/HTTP port (usually 4318)",
        )),
        other => Err(error(name, format!("`{other}` is not a protocol: use `http/protobuf` or `http/json`"))),
    }
}

fn timeout(vars: &Vars) -> Result<Duration, ConfigError> {
    let Some((name, value)) = vars.first(&[OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, OTEL_EXPORTER_OTLP_TIMEOUT]) else {
        return Ok(DEFAULT_TIMEOUT);
    };
    match value.parse::<u64>() {
        Ok(ms) if ms > 0 => Ok(Duration::from_millis(ms)),
        _ => Err(error(name, format!("`{value}` is not a number of milliseconds above 0"))),
    }
}

/// `service.name` and the other resource attributes.
fn resource(vars: &Vars) -> Result<(String, Vec<(String, String)>), ConfigError> {
    let mut attributes = match vars.get(OTEL_RESOURCE_ATTRIBUTES) {
        Some(value) => parse_pairs(&value).map_err(|e| pairs_error(OTEL_RESOURCE_ATTRIBUTES, e))?,
        None => Vec::new(),
    };
    let from_attributes = attributes.iter().position(|(k, _)| k == "service.name").map(|i| attributes.remove(i).1);
    let service_name =
        vars.get(OTEL_SERVICE_NAME).or(from_attributes).unwrap_or_else(|| DEFAULT_SERVICE_NAME.to_string());
    Ok((service_name, attributes))
}

/// `url` without userinfo and query (and fragment).
fn strip_secrets(url: &str) -> String {
    let without_query = url.split(['?', '#']).next().unwrap_or(url);
    match without_query.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
            let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
            format!("{scheme}://{host}{path}")
        }
        None => without_query.to_string(),
    }
}
