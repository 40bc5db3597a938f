//! A suite file on disk: read and parsed strictly, with the files it names (the graph, the
//! dataset, evaluator graphs) found relative to it, as format.md's test suite section says.

use std::path::{Path, PathBuf};

use engine::suite::{Case, Suite, parse_dataset, parse_suite};

use crate::input::{BadInput, read_text};

/// A suite as read from FILE.
pub struct SuiteFile {
    /// FILE as given on the command line, for messages.
    pub path: String,
    /// The folder relative paths in the suite start from.
    pub dir: PathBuf,
    pub suite: Suite,
}

impl SuiteFile {
    /// Reads and parses FILE; a malformed suite is bad input with its line and column.
    pub fn read(path: &str) -> Result<SuiteFile, BadInput> {
        let text = read_text(path)?;
        let suite = parse_suite(&text).map_err(|e| BadInput::new(format!("{path}: {e}")))?;
        Ok(SuiteFile { path: path.to_string(), dir: folder_of(Path::new(path)), suite })
    }

    /// The graphs to test: those given with `--graph`, else the suite's own `graph.path`.
    pub fn graph_paths(&self, given: &[String]) -> Result<Vec<String>, BadInput> {
        if !given.is_empty() {
            return Ok(given.to_vec());
        }
        match self.suite.graph.path.as_deref() {
            Some(rel) => Ok(vec![self.resolve(rel)]),
            None => Err(BadInput::new(format!(
                "{}: the suite names no graph file (graph.path): give --graph GRAPH.json",
                self.path
            ))),
        }
    }

    /// The dataset's rows as cases: from `--dataset FILE`, else the suite's `dataset`.
    pub fn dataset_cases(&self, given: Option<&str>) -> Result<Vec<Case>, BadInput> {
        let path = match (given, self.suite.dataset.as_deref()) {
            (Some(file), _) => file.to_string(),
            (None, Some(rel)) => self.resolve(rel),
            (None, None) => return Ok(Vec::new()),
        };
        let text = read_text(&path)?;
        parse_dataset(&text).map_err(|e| BadInput::new(format!("{path}: {e}")))
    }

    /// A path the suite holds, relative to the suite's folder.
    pub fn resolve(&self, rel: &str) -> String {
        // A suite in the current folder names its files as they are, not `./NAME`.
        if self.dir == Path::new(".") { rel.to_string() } else { self.dir.join(rel).to_string_lossy().into_owned() }
    }

    /// Reads a file the suite names (an evaluator graph), relative to the suite's folder.
    pub fn load(&self, rel: &str) -> Result<String, String> {
        let path = self.resolve(rel);
        read_text(&path).map_err(|e| e.to_string())
    }
}

/// The folder holding `file` (`.` for a bare file name).
pub fn folder_of(file: &Path) -> PathBuf {
    match file.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
