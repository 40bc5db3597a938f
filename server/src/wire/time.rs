//! Timestamps: ISO 8601 with microseconds and offset, as LangGraph writes them.

/// Now, as `2026-11-27T10:34:59.231782+00:00`.
pub fn now() -> String {
    chrono::Utc::now().format("%Y-%m-%dT%H:%M:%S%.6f+00:00").to_string()
}
