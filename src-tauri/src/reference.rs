//! Help ▸ The Graph Format: the format reference (`docs/format.md`, built into the app) in a
//! window of its own, rendered from Markdown when asked for. The window loads it from the
//! app's `reference:` scheme and has no capability: it runs no script and calls no command.

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use tauri::http::{Request, Response, header};
use tauri::{AppHandle, Manager, WebviewUrl, WebviewWindowBuilder};

/// The scheme the reference is served under.
pub const SCHEME: &str = "reference";
const LABEL: &str = "reference";
const FORMAT: &str = include_str!("../../docs/format.md");

/// Answers every request of the scheme with the reference page.
pub fn serve(_request: Request<Vec<u8>>) -> Response<Vec<u8>> {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
        // Nothing but the page and its own style: no script, no request out.
        .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        .body(page().into_bytes())
        .unwrap_or_default()
}

/// Shows the reference window, opening it the first time.
pub fn show(app: &AppHandle) -> tauri::Result<()> {
    if let Some(window) = app.get_webview_window(LABEL) {
        return window.set_focus();
    }
    let url = tauri::Url::parse(&format!("{SCHEME}://localhost/format")).map_err(tauri::Error::InvalidUrl)?;
    let window = WebviewWindowBuilder::new(app, LABEL, WebviewUrl::CustomProtocol(url))
        .title("The Switchyard graph format")
        .inner_size(900.0, 800.0)
        .build()?;
    // The app's menus act on the editor's window; this one only reads.
    window.remove_menu()?;
    Ok(())
}

/// The reference as one HTML page. Links to other documents of the repository, which the
/// app does not carry, become their text.
fn page() -> String {
    let events = Parser::new_ext(FORMAT, Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES);
    let mut body = String::new();
    pulldown_cmark::html::push_html(&mut body, with_heading_ids(without_outside_links(events)));
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>The Switchyard graph format</title>\
         <style>{STYLE}</style></head><body><main>{body}</main></body></html>"
    )
}

/// The events without the start and end of each link that leaves the page (its text stays).
fn without_outside_links<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    let mut in_outside_link = false;
    events.filter(move |event| match event {
        Event::Start(Tag::Link { dest_url, .. }) if !dest_url.starts_with('#') => {
            in_outside_link = true;
            false
        }
        Event::End(TagEnd::Link) if in_outside_link => {
            in_outside_link = false;
            false
        }
        _ => true,
    })
}

/// Headings get the ids GitHub gives them, so the contents' `#…` links work.
fn with_heading_ids<'a>(events: impl Iterator<Item = Event<'a>>) -> impl Iterator<Item = Event<'a>> {
    let events: Vec<Event<'a>> = events.collect();
    let mut out = events.clone();
    for (i, event) in events.iter().enumerate() {
        if let Event::Start(Tag::Heading { level, id: None, classes, attrs }) = event {
            let text: String = events[i + 1..]
                .iter()
                .take_while(|e| !matches!(e, Event::End(TagEnd::Heading(_))))
                .filter_map(|e| match e {
                    Event::Text(t) | Event::Code(t) => Some(t.to_string()),
                    _ => None,
                })
                .collect();
            out[i] = Event::Start(Tag::Heading {
                level: *level,
                id: Some(slug(&text).into()),
                classes: classes.clone(),
                attrs: attrs.clone(),
            });
        }
    }
    out.into_iter()
}

/// GitHub's heading anchors: lower case, spaces to hyphens, punctuation other than `-` and
/// `_` dropped.
fn slug(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

const STYLE: &str = "body{margin:0;font:15px/1.55 system-ui,sans-serif;color:#1f2330;background:#fff}\
main{max-width:860px;margin:0 auto;padding:24px 32px 64px}\
h1,h2,h3{line-height:1.25}h2{border-bottom:1px solid #e3e5ec;padding-bottom:4px;margin-top:2em}\
a{color:#3730a3}code{font:13px/1.4 ui-monospace,monospace;background:#f2f3f7;padding:1px 4px;border-radius:4px}\
pre{background:#f2f3f7;padding:12px;border-radius:6px;overflow:auto}pre code{padding:0;background:none}\
table{border-collapse:collapse;margin:12px 0}th,td{border:1px solid #d7dae3;padding:4px 8px;text-align:left;vertical-align:top}\
@media (prefers-color-scheme:dark){body{background:#16181f;color:#e4e6ee}a{color:#a5b4fc}\
code,pre{background:#23262f}th,td{border-color:#3a3e4a}h2{border-color:#2c2f3a}}";
