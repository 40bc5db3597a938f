//! The client commands behind an authenticating proxy (docs/scale.md, "Who may call what"):
//! with `SWITCHYARD_TOKEN` set, every call to the ingress carries it as a bearer token; without
//! it, none does.

mod support;

use std::process::Command;

use serde_json::json;
use support::{Reply, Server};

fn status_through(server: &Server, token: Option<&str>) -> Option<String> {
    let mut command = Command::new(env!("CARGO_BIN_EXE_switchyard"));
    command.args(["status", "run-1", "--server", &server.url()]).env_remove("SWITCHYARD_TOKEN");
    if let Some(token) = token {
        command.env("SWITCHYARD_TOKEN", token);
    }
    let out = command.output().expect("switchyard runs");
    assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
    let requests = server.requests();
    let last = requests.last().expect("the proxy was called");
    last.header("authorization").map(str::to_string)
}

#[test]
fn client_commands_send_the_token_to_the_proxy_only_when_set() {
    let proxy = Server::always(Reply::json(401, &json!({ "message": "who are you?" })));
    assert_eq!(status_through(&proxy, None), None);
    assert_eq!(status_through(&proxy, Some("s3cret-token")).as_deref(), Some("Bearer s3cret-token"));
}
