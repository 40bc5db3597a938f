//! # Switchyard's trace export
//!
//! The native hosts (the CLI, `switchyard serve`, the desktop app) send runs to an
//! OpenTelemetry collector or tracing tool over OTLP. The spans come from the engine's pure
//! mapping ([`engine::trace`]); this crate only configures the standard exporter (the
//! OpenTelemetry Rust SDK's batch processor and OTLP/HTTP exporter) and hands them over.
//! Export never slows or breaks a run: spans go through a bounded queue to a batch exporter
//! on its own thread, a full queue drops spans, and a collector that is down, failing or
//! hanging costs at most one warning per kind of problem and a bounded wait at exit.
//!
//! | module | what it holds |
//! |---|---|
//! | `config` | the `OTEL_*` environment variables (or a desktop setting) read into a [`Config`] |
//! | `pairs` | `key=value,…` lists (headers, resource attributes), percent-decoded |
//! | `exporter` | the [`Exporter`]: batch processor and OTLP/HTTP exporter, bounded; its warnings |
//! | `convert` | the engine's `SpanDoc` as the SDK's `SpanData` (ids and times as given) |
//! | `client` | the exporter's HTTP client: ureq with a bounded timeout, failures' causes kept |
//! | `health` | counters the export thread shares with the sender: in flight, lost, dropped, why |
//! | `receiver` | (feature `receiver`, for tests) a local OTLP/HTTP receiver that decodes what it is sent, or fails or hangs on purpose |

mod client;
mod config;
mod convert;
mod exporter;
mod health;
mod pairs;
#[cfg(feature = "receiver")]
pub mod receiver;

pub use config::{
    Config, ConfigError, DEFAULT_SERVICE_NAME, DEFAULT_TIMEOUT, OTEL_EXPORTER_OTLP_ENDPOINT,
    OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_EXPORTER_OTLP_TIMEOUT,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_HEADERS, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
    OTEL_EXPORTER_OTLP_TRACES_TIMEOUT, OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, OTEL_RESOURCE_ATTRIBUTES,
    OTEL_SDK_DISABLED, OTEL_SERVICE_NAME, OTEL_TRACES_EXPORTER, Protocol,
};
pub use exporter::{Exporter, MAX_QUEUED_SPANS, SHUTDOWN_WAIT};
pub use pairs::PairsError;
