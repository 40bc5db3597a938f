//! The [`Exporter`]: the SDK's batch span processor (its own thread, a bounded queue) in front
//! of the OTLP/HTTP span exporter, with [`Health`] counting what happened so that shutdown can
//! say, in one line per kind of problem, what did not reach the collector.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use engine::trace::SpanDoc;
use opentelemetry::{InstrumentationScope, KeyValue};
use opentelemetry_otlp::{WithExportConfig, WithHttpConfig};
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::error::{OTelSdkError, OTelSdkResult};
use opentelemetry_sdk::trace::{BatchConfigBuilder, BatchSpanProcessor, SpanData, SpanExporter, SpanProcessor};

use crate::client::UreqClient;
use crate::config::{Config, Protocol};
use crate::convert;
use crate::health::{Failure, Health};

/// Spans queued and not yet exported, at most; more are dropped (and counted) rather than
/// let memory grow while a collector is slow or away.
pub const MAX_QUEUED_SPANS: usize = 8192;

/// Spans per export request.
const BATCH_SIZE: usize = 512;

/// How long a host waits at exit for the last spans, by default.
pub const SHUTDOWN_WAIT: Duration = Duration::from_secs(5);

/// Sends spans in the background. Dropping it without [`Exporter::shutdown`] loses what is
/// still queued.
pub struct Exporter {
    config: Config,
    pipeline: Result<Pipeline, String>,
}

/// The running export thread and what it shares with the sending side.
struct Pipeline {
    processor: BatchSpanProcessor,
    health: Arc<Health>,
    scope: InstrumentationScope,
}

impl Exporter {
    /// Starts the batch exporter's thread. An exporter that cannot be built (a setting the
    /// OTLP crate refuses) sends nothing and says why at shutdown: a run never fails for it.
    pub fn start(config: Config) -> Exporter {
        let pipeline = Pipeline::start(&config);
        Exporter { config, pipeline }
    }

    /// Whether message content may be recorded.
    pub fn capture_content(&self) -> bool {
        self.config.capture_content
    }

    /// The configuration it was started with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Queues `spans`; returns at once. Spans beyond the queue's bound are dropped (and
    /// counted in the warning at shutdown).
    pub fn send(&self, spans: Vec<SpanDoc>) {
        if let Ok(pipeline) = &self.pipeline {
            pipeline.send(spans);
        }
    }

    /// Sends what is queued, waiting at most `wait`; returns the warnings to print (the
    /// collector could not be reached, spans dropped…), at most one per kind of problem.
    /// Each reads `could not send traces to <endpoint>: <why>`.
    pub fn shutdown(self, wait: Duration) -> Vec<String> {
        let endpoint = self.config.endpoint_for_display();
        let problems = match self.pipeline {
            Ok(pipeline) => pipeline.shutdown(wait),
            Err(why) => vec![why],
        };
        problems.into_iter().map(|why| format!("could not send traces to {endpoint}: {why}")).collect()
    }
}

impl Pipeline {
    fn start(config: &Config) -> Result<Pipeline, String> {
        let health = Arc::new(Health::default());
        let mut otlp = otlp_exporter(config, health.clone())?;
        otlp.set_resource(&resource(config));
        let watched = Watched { inner: otlp, health: health.clone() };
        let batch = BatchConfigBuilder::default()
            .with_max_queue_size(MAX_QUEUED_SPANS)
            .with_max_export_batch_size(BATCH_SIZE)
            .build();
        let processor = BatchSpanProcessor::new(watched, batch);
        Ok(Pipeline { processor, health, scope: convert::scope() })
    }

    fn send(&self, spans: Vec<SpanDoc>) {
        for span in spans {
            // Counted here, before the processor's own queue, so that a drop is known
            // (the processor keeps its count to itself).
            if self.health.in_flight.fetch_add(1, Ordering::AcqRel) >= MAX_QUEUED_SPANS {
                self.health.in_flight.fetch_sub(1, Ordering::AcqRel);
                self.health.dropped.fetch_add(1, Ordering::AcqRel);
                continue;
            }
            self.processor.on_end(convert::span_data(span, &self.scope));
        }
    }

    /// The problems to report, each as the reason after `could not send traces to …:`.
    fn shutdown(self, wait: Duration) -> Vec<String> {
        let outcome = self.processor.shutdown_with_timeout(wait);
        let health = &self.health;
        let lost = Health::count(&health.lost) + Health::count(&health.in_flight);
        let mut problems = Vec::new();
        match (health.first_failure(), &outcome) {
            (Some(failure), _) => problems.push(format!("{failure} ({lost} spans not delivered)")),
            (None, Err(OTelSdkError::Timeout(_))) => {
                problems.push(format!("no answer within {} s of exit ({lost} spans not delivered)", wait.as_secs_f64()))
            }
            (None, _) if lost > 0 => problems.push(format!("{lost} spans not delivered")),
            (None, _) => {}
        }
        let dropped = Health::count(&health.dropped);
        if dropped > 0 {
            problems.push(format!("{dropped} spans dropped: more than {MAX_QUEUED_SPANS} were waiting to be sent"));
        }
        problems
    }
}

fn otlp_exporter(config: &Config, health: Arc<Health>) -> Result<opentelemetry_otlp::SpanExporter, String> {
    let protocol = match config.protocol {
        Protocol::HttpProtobuf => opentelemetry_otlp::Protocol::HttpBinary,
        Protocol::HttpJson => opentelemetry_otlp::Protocol::HttpJson,
    };
    opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .with_endpoint(config.traces_endpoint.clone())
        .with_protocol(protocol)
        .with_timeout(config.timeout)
        .with_headers(config.headers.iter().cloned().collect())
        .with_http_client(UreqClient::new(config.timeout, health))
        .build()
        // The crate's message quotes the endpoint whole; print it without credentials.
        .map_err(|e| e.to_string().replace(&config.traces_endpoint, &config.endpoint_for_display()))
}

fn resource(config: &Config) -> Resource {
    let attributes = config.resource.iter().map(|(k, v)| KeyValue::new(k.clone(), v.clone()));
    // The person's attributes come last, so that theirs win over these defaults.
    Resource::builder_empty()
        .with_attributes([
            KeyValue::new("telemetry.sdk.name", "opentelemetry"),
            KeyValue::new("telemetry.sdk.language", "rust"),
            KeyValue::new("service.version", env!("CARGO_PKG_VERSION")),
        ])
        .with_attributes(attributes)
        .with_service_name(config.service_name.clone())
        .build()
}

/// The OTLP exporter, with each batch's outcome counted in [`Health`].
#[derive(Debug)]
struct Watched {
    inner: opentelemetry_otlp::SpanExporter,
    health: Arc<Health>,
}

impl SpanExporter for Watched {
    async fn export(&self, batch: Vec<SpanData>) -> OTelSdkResult {
        let n = batch.len();
        let outcome = self.inner.export(batch).await;
        if let Err(e) = &outcome {
            // The client noted the real cause of an HTTP failure; this covers the rest
            // (a body the exporter could not encode, a request it refused to send).
            self.health.note_failure(Failure::Other(e.to_string()));
        }
        self.health.settle(n, outcome.is_ok());
        outcome
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn set_resource(&mut self, resource: &Resource) {
        self.inner.set_resource(resource);
    }
}
