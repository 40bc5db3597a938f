//! A graph's test suite (README, Tests from runs): `<graph file stem>.tests.json` beside the graph's
//! file, in the workflows folder or beside a file opened from anywhere else. Written
//! atomically like every other file; a graph renamed or deleted takes its suite along.

use std::fs;
use std::path::{Path, PathBuf};

use super::{FileError, Workflows, check_name, io_error, write_atomic};

/// What a suite file's name ends with; the folder's listing of graphs leaves these out.
pub const SUITE_SUFFIX: &str = ".tests.json";

/// Whether `file` names a test suite rather than a graph.
pub fn is_suite_file(file: &str) -> bool {
    file.ends_with(SUITE_SUFFIX)
}

/// The suite's file name for the graph file named `file` (`flow.json` → `flow.tests.json`).
pub fn suite_name(file: &str) -> String {
    format!("{}{SUITE_SUFFIX}", file.strip_suffix(".json").unwrap_or(file))
}

impl Workflows {
    /// Where the suite of `graph` is kept: beside it, whether it is a file of the folder (a
    /// checked name) or an absolute path anywhere.
    pub fn suite_path(&self, graph: &str) -> Result<PathBuf, FileError> {
        let path = Path::new(graph);
        if path.is_absolute() {
            let dir = path.parent().ok_or_else(|| FileError(format!("{graph} has no folder")))?;
            let name =
                path.file_name().and_then(|n| n.to_str()).ok_or_else(|| FileError(format!("{graph} has no name")))?;
            return Ok(dir.join(suite_name(name)));
        }
        check_name(graph)?;
        if is_suite_file(graph) {
            return Err(FileError(format!("“{graph}” is a test suite, not a graph")));
        }
        Ok(self.dir.join(suite_name(graph)))
    }

    /// The suite of `graph`, or `None` when it has none yet.
    pub fn load_suite(&self, graph: &str) -> Result<Option<String>, FileError> {
        let path = self.suite_path(graph)?;
        match fs::read_to_string(&path) {
            Ok(text) => Ok(Some(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_error(&format!("reading the tests of {graph}"), &e)),
        }
    }

    /// Writes the suite of `graph` (atomically).
    pub fn save_suite(&self, graph: &str, text: &str) -> Result<(), FileError> {
        let path = self.suite_path(graph)?;
        write_atomic(&path, text).map_err(|e| io_error(&format!("saving the tests of {graph}"), &e))
    }

    /// Moves the suite of graph `from` along with its file, when it has one.
    pub(crate) fn rename_suite(&self, from: &str, to: &str) {
        if let (Ok(a), Ok(b)) = (self.suite_path(from), self.suite_path(to))
            && a.exists()
            && !b.exists()
        {
            let _ = fs::rename(a, b);
        }
    }

    /// Deletes the suite of a deleted graph, when it has one.
    pub(crate) fn delete_suite(&self, graph: &str) {
        if let Ok(path) = self.suite_path(graph)
            && path.exists()
        {
            let _ = fs::remove_file(path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(name: &str) -> String {
        engine::Graph::new(name).to_pretty_json()
    }

    #[test]
    fn a_suite_lives_beside_its_graph_and_is_not_listed_as_a_graph() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path()).unwrap();
        w.save("approval.json", &doc("Approval")).unwrap();
        assert_eq!(w.load_suite("approval.json").unwrap(), None);
        w.save_suite("approval.json", "{\"format\":\"switchyard/tests@1\"}").unwrap();
        assert!(dir.path().join("approval.tests.json").is_file());
        assert_eq!(w.load_suite("approval.json").unwrap().as_deref(), Some("{\"format\":\"switchyard/tests@1\"}"));
        let files: Vec<_> = w.list().unwrap().into_iter().map(|e| e.file).collect();
        assert_eq!(files, vec!["approval.json".to_string()], "the suite is no graph of the folder");
        // No temporary file is left behind.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().flatten().map(|e| e.file_name()).collect();
        assert_eq!(names.len(), 2, "{names:?}");
    }

    #[test]
    fn a_suite_follows_its_graph_when_renamed_and_goes_when_deleted() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path()).unwrap();
        w.save("a.json", &doc("A")).unwrap();
        w.save_suite("a.json", "{}").unwrap();
        w.rename("a.json", "b.json").unwrap();
        assert_eq!(w.load_suite("b.json").unwrap().as_deref(), Some("{}"));
        assert_eq!(w.load_suite("a.json").unwrap(), None);
        w.delete("b.json").unwrap();
        assert!(!dir.path().join("b.tests.json").exists());
    }

    #[test]
    fn a_file_from_elsewhere_keeps_its_suite_beside_it_and_names_stay_checked() {
        let dir = tempfile::tempdir().unwrap();
        let w = Workflows::open(dir.path().join("workflows")).unwrap();
        let elsewhere = dir.path().join("flow.json");
        let graph = elsewhere.to_str().unwrap();
        w.save_suite(graph, "{}").unwrap();
        assert!(dir.path().join("flow.tests.json").is_file());
        assert!(w.save_suite("../x.json", "{}").is_err());
        assert!(w.save_suite("flow.tests.json", "{}").is_err(), "a suite has no suite");
    }
}
