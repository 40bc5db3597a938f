//! Which document is open: a graph of the library (a local-storage key in the browser, a
//! file of the workflows folder on the desktop), or a file the user picked anywhere with
//! Open… or Save As… (desktop only), which is saved back there and is not part of the
//! library.
//!
//! Stored as a plain string (the "current" setting, the library index), as before the type
//! existed: a library id as is, a file as its absolute path. An absolute path can never be a
//! library id (those are slugs or file names), so old stored ids read back unchanged.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize, Serializer};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum DocId {
    /// A graph of the library, by its storage id.
    Library(String),
    /// A file outside the library, by its absolute path.
    File(PathBuf),
}

impl DocId {
    /// Reads the stored form: an absolute path is a file, anything else a library id.
    pub fn parse(text: &str) -> DocId {
        if is_absolute(text) { DocId::File(PathBuf::from(text)) } else { DocId::Library(text.to_string()) }
    }

    /// The library id, when the document is in the library.
    pub fn library_id(&self) -> Option<&str> {
        match self {
            DocId::Library(id) => Some(id),
            DocId::File(_) => None,
        }
    }

    /// The last part of the name: a library id whole, a file's name without its folders.
    pub fn short_name(&self) -> String {
        let full = self.to_string();
        full.rsplit(['/', '\\']).next().unwrap_or(&full).to_string()
    }
}

/// `/home/…`, `\\server\…` or `C:\…`: paths the desktop dialogs return.
fn is_absolute(text: &str) -> bool {
    let b = text.as_bytes();
    text.starts_with('/')
        || text.starts_with('\\')
        || (b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'\\' || b[2] == b'/'))
        || Path::new(text).is_absolute()
}

impl fmt::Display for DocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DocId::Library(id) => f.write_str(id),
            DocId::File(path) => write!(f, "{}", path.display()),
        }
    }
}

impl Serialize for DocId {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for DocId {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<DocId, D::Error> {
        Ok(DocId::parse(&String::deserialize(d)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_ids_read_back_as_before() {
        assert_eq!(DocId::parse("my-flow-1a2b"), DocId::Library("my-flow-1a2b".into()));
        assert_eq!(DocId::parse("approval.json"), DocId::Library("approval.json".into()));
        assert_eq!(DocId::parse("/home/me/flows/a.json"), DocId::File(PathBuf::from("/home/me/flows/a.json")));
        assert!(matches!(DocId::parse(r"C:\flows\a.json"), DocId::File(_)));
        for text in ["my-flow-1a2b", "approval.json", "/home/me/flows/a.json"] {
            assert_eq!(DocId::parse(text).to_string(), text);
        }
    }

    #[test]
    fn serde_form_is_the_plain_string() {
        let id = DocId::File(PathBuf::from("/tmp/x.json"));
        assert_eq!(serde_json::to_string(&id).unwrap(), r#""/tmp/x.json""#);
        assert_eq!(serde_json::from_str::<DocId>(r#""/tmp/x.json""#).unwrap(), id);
        assert_eq!(serde_json::from_str::<DocId>(r#""abc""#).unwrap(), DocId::Library("abc".into()));
    }

    #[test]
    fn names_and_membership() {
        let file = DocId::parse("/home/me/flows/a.json");
        assert_eq!(file.short_name(), "a.json");
        assert_eq!(file.library_id(), None);
        let lib = DocId::parse("flow.json");
        assert_eq!(lib.short_name(), "flow.json");
        assert_eq!(lib.library_id(), Some("flow.json"));
    }
}
