//! `key=value,key2=value2` lists, as `OTEL_EXPORTER_OTLP_HEADERS` and
//! `OTEL_RESOURCE_ATTRIBUTES` write them: entries split on commas, keys and values trimmed and
//! percent-decoded (so a value can hold a comma as `%2C`).

use percent_encoding::percent_decode_str;

/// Which entry of a list is malformed. It never quotes the entry: a header value may be a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairsError {
    /// 1-based position of the entry in the list.
    pub entry: usize,
    pub why: &'static str,
}

impl std::fmt::Display for PairsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "entry {} {} (expected `key=value,key2=value2`)", self.entry, self.why)
    }
}

impl std::error::Error for PairsError {}

/// The pairs of `list`, in order; empty entries (a trailing comma) are skipped.
pub fn parse_pairs(list: &str) -> Result<Vec<(String, String)>, PairsError> {
    list.split(',')
        .enumerate()
        .filter(|(_, entry)| !entry.trim().is_empty())
        .map(|(i, entry)| parse_entry(i + 1, entry))
        .collect()
}

fn parse_entry(entry: usize, text: &str) -> Result<(String, String), PairsError> {
    let Some((key, value)) = text.split_once('=') else {
        return Err(PairsError { entry, why: "has no `=`" });
    };
    let key = decode(entry, key.trim())?;
    if key.is_empty() {
        return Err(PairsError { entry, why: "has an empty key" });
    }
    Ok((key, decode(entry, value.trim())?))
}

fn decode(entry: usize, text: &str) -> Result<String, PairsError> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| PairsError { entry, why: "is not UTF-8 once percent-decoded" })
}
