//! Ids and timestamps as LangGraph writes them: UUID v7 (time-ordered) and ISO 8601 with an
//! offset.

pub fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, false)
}

pub fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}
