//! Every `OTEL_*` variable read into a `Config`, from a table of environments (never the
//! process environment).

use std::collections::HashMap;
use std::time::Duration;

use switchyard_otel::{Config, ConfigError, Protocol};

fn config(vars: &[(&str, &str)]) -> Result<Option<Config>, ConfigError> {
    let vars: HashMap<String, String> = vars.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    Config::from_vars(|name| vars.get(name).cloned())
}

fn configured(vars: &[(&str, &str)]) -> Config {
    match config(vars) {
        Ok(Some(c)) => c,
        other => panic!("{vars:?} should configure an exporter, got {other:?}"),
    }
}

fn refused(vars: &[(&str, &str)]) -> ConfigError {
    match config(vars) {
        Err(e) => e,
        other => panic!("{vars:?} should be refused, got {other:?}"),
    }
}

const BASE: (&str, &str) = ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318");

#[test]
fn nothing_set_or_disabled_means_no_exporter() {
    let cases: &[&[(&str, &str)]] = &[
        &[],
        &[("OTEL_EXPORTER_OTLP_ENDPOINT", "")],
        &[("OTEL_EXPORTER_OTLP_HEADERS", "a=b")],
        &[BASE, ("OTEL_SDK_DISABLED", "true")],
        &[BASE, ("OTEL_SDK_DISABLED", "TRUE")],
        &[BASE, ("OTEL_TRACES_EXPORTER", "none")],
        &[BASE, ("OTEL_TRACES_EXPORTER", "otlp,none")],
    ];
    for vars in cases {
        assert_eq!(config(vars), Ok(None), "{vars:?}");
    }
    assert!(configured(&[BASE, ("OTEL_SDK_DISABLED", "false")]).traces_endpoint.ends_with("/v1/traces"));
    assert!(configured(&[BASE, ("OTEL_TRACES_EXPORTER", "otlp")]).traces_endpoint.ends_with("/v1/traces"));
}

#[test]
fn endpoints_follow_the_specification() {
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[BASE], "http://127.0.0.1:4318/v1/traces"),
        (&[("OTEL_EXPORTER_OTLP_ENDPOINT", "https://otel.example.com/")], "https://otel.example.com/v1/traces"),
        (&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://h:1/api/public/otel")], "http://h:1/api/public/otel/v1/traces"),
        // The signal's own variable is used as is, and wins over the generic one.
        (&[("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://h:2/custom")], "http://h:2/custom"),
        (&[BASE, ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://h:2/custom")], "http://h:2/custom"),
        (&[BASE, ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "")], "http://127.0.0.1:4318/v1/traces"),
    ];
    for (vars, want) in cases {
        assert_eq!(configured(vars).traces_endpoint, *want, "{vars:?}");
    }
    for bad in ["localhost:4318", "ftp://h/x", "http://"] {
        let e = refused(&[("OTEL_EXPORTER_OTLP_ENDPOINT", bad)]);
        assert_eq!(e.variable, "OTEL_EXPORTER_OTLP_ENDPOINT", "{bad}");
        let e = refused(&[("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", bad)]);
        assert_eq!(e.variable, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "{bad}");
    }
}

#[test]
fn headers_are_pairs_percent_decoded_and_the_signal_variable_wins() {
    let c = configured(&[BASE, ("OTEL_EXPORTER_OTLP_HEADERS", " Authorization=Basic%20abc%3D%3D , x-team = a%2Cb ,")]);
    assert_eq!(c.headers, vec![("Authorization".into(), "Basic abc==".into()), ("x-team".into(), "a,b".into())]);
    let c = configured(&[BASE, ("OTEL_EXPORTER_OTLP_HEADERS", "a=1"), ("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "b=2")]);
    assert_eq!(c.headers, vec![("b".into(), "2".into())]);
    assert!(configured(&[BASE]).headers.is_empty());
    for bad in ["novalue", "=v", "bad name=v"] {
        let e = refused(&[BASE, ("OTEL_EXPORTER_OTLP_HEADERS", bad)]);
        assert_eq!(e.variable, "OTEL_EXPORTER_OTLP_HEADERS", "{bad}");
    }
    // The error names the entry, never its text: a header value is often a key.
    let e = refused(&[BASE, ("OTEL_EXPORTER_OTLP_HEADERS", "a=1,sk-secret-key")]);
    assert!(e.message.contains("entry 2") && !e.message.contains("sk-secret"), "{e}");
}

#[test]
fn protocols_http_protobuf_and_json_are_taken_grpc_is_named() {
    let cases: &[(&[(&str, &str)], Protocol)] = &[
        (&[BASE], Protocol::HttpProtobuf),
        (&[BASE, ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")], Protocol::HttpProtobuf),
        (&[BASE, ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")], Protocol::HttpJson),
        (
            &[BASE, ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json")],
            Protocol::HttpJson,
        ),
    ];
    for (vars, want) in cases {
        assert_eq!(configured(vars).protocol, *want, "{vars:?}");
    }
    let e = refused(&[BASE, ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")]);
    assert_eq!(e.variable, "OTEL_EXPORTER_OTLP_PROTOCOL");
    assert!(e.message.contains("gRPC is not supported"), "{e}");
    let e = refused(&[BASE, ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc")]);
    assert_eq!(e.variable, "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL");
    assert_eq!(refused(&[BASE, ("OTEL_EXPORTER_OTLP_PROTOCOL", "thrift")]).variable, "OTEL_EXPORTER_OTLP_PROTOCOL");
}

#[test]
fn timeouts_are_milliseconds() {
    assert_eq!(configured(&[BASE]).timeout, Duration::from_secs(10));
    assert_eq!(configured(&[BASE, ("OTEL_EXPORTER_OTLP_TIMEOUT", "2500")]).timeout, Duration::from_millis(2500));
    let both = [BASE, ("OTEL_EXPORTER_OTLP_TIMEOUT", "2500"), ("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "700")];
    assert_eq!(configured(&both).timeout, Duration::from_millis(700));
    for bad in ["0", "-1", "5s", "1.5"] {
        assert_eq!(refused(&[BASE, ("OTEL_EXPORTER_OTLP_TIMEOUT", bad)]).variable, "OTEL_EXPORTER_OTLP_TIMEOUT");
    }
}

#[test]
fn service_name_and_resource_attributes() {
    let c = configured(&[BASE]);
    assert_eq!((c.service_name.as_str(), c.resource.len()), ("switchyard", 0));
    let c = configured(&[BASE, ("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=prod,service.name=agents")]);
    assert_eq!(c.service_name, "agents");
    assert_eq!(c.resource, vec![("deployment.environment".into(), "prod".into())]);
    let c = configured(&[
        BASE,
        ("OTEL_SERVICE_NAME", "triage"),
        ("OTEL_RESOURCE_ATTRIBUTES", "service.name=agents,team=a%20b"),
    ]);
    assert_eq!(c.service_name, "triage");
    assert_eq!(c.resource, vec![("team".into(), "a b".into())]);
    assert_eq!(refused(&[BASE, ("OTEL_RESOURCE_ATTRIBUTES", "oops")]).variable, "OTEL_RESOURCE_ATTRIBUTES");
}

#[test]
fn content_capture_is_opt_in() {
    assert!(!configured(&[BASE]).capture_content);
    assert!(!configured(&[BASE, ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "yes")]).capture_content);
    assert!(configured(&[BASE, ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "true")]).capture_content);
    assert!(configured(&[BASE, ("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "True")]).capture_content);
}

#[test]
fn other_exporters_are_refused_by_name() {
    let e = refused(&[BASE, ("OTEL_TRACES_EXPORTER", "zipkin")]);
    assert_eq!(e.variable, "OTEL_TRACES_EXPORTER");
    assert!(e.message.contains("zipkin"), "{e}");
}

#[test]
fn the_endpoint_is_shown_without_credentials_or_query() {
    let c = configured(&[("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://user:pw@h.example:4318/v1/traces?key=k1")]);
    assert_eq!(c.endpoint_for_display(), "https://h.example:4318/v1/traces");
    let e = refused(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "ftp://user:pw@h/x?key=k1")]);
    assert!(!e.message.contains("pw") && !e.message.contains("k1"), "{e}");
}
