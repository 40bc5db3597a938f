//! The `http` node (format.md §4), and rendering a request's templates, which `http` tools share.

use serde_json::{Map, Value, json};

use super::send::send_taped;
use super::{Effect, EffectCall, cut};
use crate::document::Parse;
use crate::host::HttpRequest;
use crate::plan::{Body, HttpOp, JsonTemplate, RequestOp};
use crate::record::{ErrorKind, NodeError};
use crate::script::{Ctx, EvalError, Scripting};

/// An `http` node: renders and sends its request, and writes the reply (parsed as `parse`
/// says) to `writes`.
pub(crate) async fn http(call: &EffectCall<'_>, op: &HttpOp) -> Effect {
    let request = match render_request(call, call.ctx, &op.request, "") {
        Ok(r) => r,
        Err(e) => return e.into(),
    };
    let mut detail = json!({ "request": request_detail(&request) });
    let sent = send_taped(call, &request, ErrorKind::Http).await;
    detail["attempts"] = json!(sent.attempts);
    let resp = match sent.result {
        Ok(r) => r,
        Err((kind, message)) => return Effect::failed(call.error(kind, message), Some(detail)),
    };
    detail["status"] = json!(resp.status);
    detail["response"] = json!(cut(&resp.body));
    let value = match op.parse {
        Parse::Text => Value::String(resp.body),
        Parse::Json if resp.body.trim().is_empty() => Value::Null,
        Parse::Json => match serde_json::from_str(&resp.body) {
            Ok(v) => v,
            Err(e) => {
                let message = format!(
                    "{} {} answered with something that is not JSON ({e}): {}",
                    request.method,
                    request.url,
                    cut(&resp.body)
                );
                return Effect::failed(call.error(ErrorKind::Http, message), Some(detail));
            }
        },
    };
    Effect::writes(&op.writes, value, detail)
}

/// A rendered request as the step's details show it.
pub(super) fn request_detail(request: &HttpRequest) -> Value {
    json!({
        "method": request.method, "url": request.url,
        "headers": request.headers.iter().map(|(k, v)| (k.clone(), json!(v))).collect::<Map<String, Value>>(),
        "body": request.body,
    })
}

/// A request rendered in scope `ctx`: url, headers and body. Errors name the field as
/// `<prefix>url`, `<prefix>headers.<name>`, `<prefix>body`.
pub(super) fn render_request(
    call: &EffectCall<'_>,
    ctx: &Ctx,
    op: &RequestOp,
    prefix: &str,
) -> Result<HttpRequest, NodeError> {
    let url = call.render_in(ctx, &format!("{prefix}url"), &op.url)?;
    let mut headers = Vec::new();
    for (name, t) in &op.headers {
        headers.push((name.clone(), call.render_in(ctx, &format!("{prefix}headers.{name}"), t)?));
    }
    let body = match &op.body {
        None => None,
        Some(Body::Text(t)) => Some(call.render_in(ctx, &format!("{prefix}body"), t)?),
        Some(Body::Json(t)) => {
            let v = render_json(call.scripting, t, ctx)
                .map_err(|e| NodeError::expression(&call.node.id, &format!("{prefix}body"), e))?;
            if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("content-type")) {
                headers.push(("content-type".into(), "application/json".into()));
            }
            Some(v.to_string())
        }
    };
    Ok(HttpRequest { method: op.method.clone(), url, headers, body, timeout_ms: call.budget().0, auth: None })
}

/// JSON whose strings are templates. A string that is a single `{{ }}` hole takes the
/// expression's value as it is (a list stays a list); other strings are rendered as text.
pub(super) fn render_json(s: &Scripting, t: &JsonTemplate, ctx: &Ctx) -> Result<Value, EvalError> {
    Ok(match t {
        JsonTemplate::Literal(v) => v.clone(),
        JsonTemplate::Text(tpl) => match tpl.single_hole() {
            Some(e) => s.eval_json(e, ctx)?,
            None => Value::String(s.render(tpl, ctx)?),
        },
        JsonTemplate::List(items) => {
            Value::Array(items.iter().map(|i| render_json(s, i, ctx)).collect::<Result<_, _>>()?)
        }
        JsonTemplate::Object(fields) => {
            let mut m = Map::new();
            for (k, v) in fields {
                m.insert(k.clone(), render_json(s, v, ctx)?);
            }
            Value::Object(m)
        }
    })
}
