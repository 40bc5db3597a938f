//! # archcheck: Switchyard's architecture check
//!
//! Two rules, checked on every crate of the workspace by `./dev test`:
//!
//! 1. **No import cycle between source files.** File A depends on file B when A names a
//!    module that lives in B: in a `use` (groups, globs and renames included) or in any path
//!    written in its code or in a macro's input (`crate::a::b`, `super::x`, `self::y`, a
//!    submodule, a `use`d module). Two files that depend on each other, directly or through
//!    others, form a cycle. A file naming its own ancestors' files (`mod.rs`, `lib.rs`,
//!    `main.rs`, or `a.rs` for the folder `a/`) is not an edge: that is where a module's shared
//!    items are declared. Code under `#[cfg(test)]` is left out.
//! 2. **No file over [`LINE_LIMIT`] lines** in [`SIZE_LIMITED`] (`app/src`, `engine/src`),
//!    not counting a trailing `#[cfg(test)] mod tests { ... }` (every `.rs` file in those
//!    folders is measured, whether or not a crate declares it).
//!
//! Files are parsed with `syn`; the modules are found from each crate's root through its
//! `mod` declarations, as rustc finds them.
//!
//! | module | what it holds |
//! |---|---|
//! | `workspace` | the members and their crate root files, from `cargo metadata` |
//! | `refs` | what one module's items name: `use` entries, paths, `mod` declarations |
//! | `modules` | the module tree of each crate and the file each module is in |
//! | `resolve` | paths to the files they reach: the file dependency graph |
//! | `scc` | strongly connected components (Tarjan) |
//! | `size` | a file's length, unit tests aside |
//!
//! The binary prints each cycle and each oversized file on a line of its own and exits 1,
//! or prints a one-line summary and exits 0. `--why` adds the path behind each edge of a
//! cycle; `--edges` prints the whole file dependency graph.

mod modules;
mod refs;
mod resolve;
mod scc;
mod size;
mod workspace;

use std::fmt;
use std::path::{Path, PathBuf};

/// The most lines a file in [`SIZE_LIMITED`] may have, unit tests aside.
pub const LINE_LIMIT: usize = 700;

/// The source folders, relative to the workspace root, whose files [`LINE_LIMIT`] applies to.
pub const SIZE_LIMITED: &[&str] = &["app/src", "engine/src"];

/// Why the check could not run (as opposed to what it found).
#[derive(Debug)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

/// One file naming a module in another: from, line, to, and the path written there.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Edge {
    pub from: PathBuf,
    pub line: usize,
    pub to: PathBuf,
    pub path: String,
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{} uses {} ({})", self.from.display(), self.line, self.to.display(), self.path)
    }
}

/// What the check found.
pub struct Report {
    pub crates: usize,
    /// Source files in the module trees of all crates.
    pub files: usize,
    /// Each import cycle: its files, relative to the workspace root, sorted.
    pub cycles: Vec<Vec<PathBuf>>,
    /// The whole file dependency graph, the first path behind each edge.
    pub edges: Vec<Edge>,
    /// Files over the limit and their counted lines, relative to the workspace root.
    pub oversized: Vec<(PathBuf, usize)>,
    /// The longest file in [`SIZE_LIMITED`] and its counted lines.
    pub largest: Option<(PathBuf, usize)>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.cycles.is_empty() && self.oversized.is_empty()
    }

    /// One line for each cycle and each oversized file; with `why`, each cycle is followed
    /// by its edges, indented.
    pub fn findings(&self, why: bool) -> Vec<String> {
        let mut lines = Vec::new();
        for cycle in &self.cycles {
            let files: Vec<String> = cycle.iter().map(|f| f.display().to_string()).collect();
            lines.push(format!("import cycle of {} files: {}", files.len(), files.join(" ")));
            if why {
                let inside = self.edges.iter().filter(|e| cycle.contains(&e.from) && cycle.contains(&e.to));
                lines.extend(inside.map(|e| format!("    {e}")));
            }
        }
        for (file, count) in &self.oversized {
            lines.push(format!("{}: {count} lines, over the limit of {LINE_LIMIT} (unit tests aside)", file.display()));
        }
        lines
    }

    /// The closing line.
    pub fn summary(&self) -> String {
        if self.passed() {
            let largest = self.largest.as_ref().map_or(0, |(_, n)| *n);
            return format!(
                "{} files in {} crates, no import cycle, largest app/engine file {largest} lines",
                self.files, self.crates
            );
        }
        format!(
            "{} import cycle(s) and {} file(s) over {LINE_LIMIT} lines in {} files of {} crates",
            self.cycles.len(),
            self.oversized.len(),
            self.files,
            self.crates
        )
    }
}

/// Checks the workspace that `dir` is in.
pub fn check(dir: &Path) -> Result<Report, Error> {
    let workspace = workspace::load(dir)?;
    let root = &workspace.root;
    let relative = |path: &Path| path.strip_prefix(root).unwrap_or(path).to_path_buf();

    let mut tree = modules::Tree::default();
    for package in &workspace.packages {
        for crate_root in &package.roots {
            tree.load_crate(crate_root)?;
        }
    }
    let edges = resolve::edges(&tree);
    let mut adjacency = vec![Vec::new(); tree.files.len()];
    for &(from, to) in edges.keys() {
        adjacency[from].push(to);
    }
    let mut cycles: Vec<Vec<PathBuf>> = scc::cycles(&adjacency)
        .into_iter()
        .map(|members| {
            let mut files: Vec<PathBuf> = members.iter().map(|&f| relative(&tree.files[f])).collect();
            files.sort();
            files
        })
        .collect();
    cycles.sort();
    let mut edges: Vec<Edge> = edges
        .iter()
        .map(|(&(from, to), why)| Edge {
            from: relative(&tree.files[from]),
            line: why.line,
            to: relative(&tree.files[to]),
            path: why.path.clone(),
        })
        .collect();
    edges.sort();

    let mut oversized = Vec::new();
    let mut largest: Option<(PathBuf, usize)> = None;
    for dir in SIZE_LIMITED {
        for file in size::rust_files(&root.join(dir))? {
            let text =
                std::fs::read_to_string(&file).map_err(|e| Error(format!("cannot read {}: {e}", file.display())))?;
            let count = size::counted_lines(&text);
            let file = relative(&file);
            if count > LINE_LIMIT {
                oversized.push((file.clone(), count));
            }
            if largest.as_ref().is_none_or(|(_, most)| count > *most) {
                largest = Some((file, count));
            }
        }
    }

    Ok(Report { crates: workspace.packages.len(), files: tree.files.len(), cycles, edges, oversized, largest })
}
