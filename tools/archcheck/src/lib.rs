//! # archcheck: Switchyard's architecture check
//!
//! Four rules, checked on every crate of the workspace by `./dev test`:
//!
//! 1. **No import cycle between source files.** File A depends on file B when A names a
//!    module that lives in B: in a `use` (groups, globs and renames included) or in any path
//!    written in its code or in a macro's input (`crate::a::b`, `super::x`, `self::y`, a
//!    submodule, a `use`d module, an item the crate root re-exports). Two files that depend
//!    on each other, directly or through others, form a cycle. A file naming its own
//!    ancestors' files (`mod.rs`, `lib.rs`, `main.rs`, or `a.rs` for the folder `a/`) is not an
//!    edge: that is where a module's shared items are declared. Code under `#[cfg(test)]` is
//!    left out.
//! 2. **No file over [`LINE_LIMIT`] lines** in any crate's `src/` folder, not counting a
//!    trailing `#[cfg(test)] mod tests { ... }` (every `.rs` file there is measured, whether
//!    or not a crate declares it). Integration tests (`tests/`) are not measured.
//! 3. **No upward import** in a folder stacked in layers ([`rules::LAYERS`]: the engine's
//!    modules, bottom to top), and no module left out of its layers.
//! 4. **No loose file** at the top of a folder meant to hold folders ([`rules::FOLDERS`]).
//!
//! Rules 3 and 4 are data in [`rules`], each enforced, warning only, or off.
//!
//! Files are parsed with `syn`; the modules are found from each crate's root through its
//! `mod` declarations, as rustc finds them.
//!
//! | module | what it holds |
//! |---|---|
//! | `workspace` | the members, their folders and their crate root files, from `cargo metadata` |
//! | `refs` | what one module's items name: `use` entries, paths, `mod` declarations |
//! | `modules` | the module tree of each crate and the file each module is in |
//! | `resolve` | paths to the files they reach: the file dependency graph |
//! | `scc` | strongly connected components (Tarjan) |
//! | `size` | a file's length, unit tests aside |
//! | [`rules`] | the layers and folder rules, as data |
//! | `layers` | the layers and folder rules checked |
//!
//! The binary prints each finding on a line of its own and exits 1, or prints one line per
//! rule (what it checked, with counts) and exits 0. `--why` adds the path behind each edge
//! of a cycle; `--edges` prints the whole file dependency graph.

mod layers;
mod modules;
mod refs;
mod resolve;
pub mod rules;
mod scc;
mod size;
mod workspace;

use std::fmt;
use std::path::{Path, PathBuf};

use layers::RuleResult;
use rules::Mode;

/// The most lines a source file may have, unit tests aside.
pub const LINE_LIMIT: usize = 700;

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
    /// Files measured for the line limit (every `.rs` file in a crate's `src/`).
    pub measured: usize,
    /// Files over the limit and their counted lines, relative to the workspace root.
    pub oversized: Vec<(PathBuf, usize)>,
    /// The longest file measured and its counted lines.
    pub largest: Option<(PathBuf, usize)>,
    /// The layers and folder rules, in the order of [`rules`].
    pub rules: Vec<RuleResult>,
}

impl Report {
    pub fn passed(&self) -> bool {
        self.cycles.is_empty()
            && self.oversized.is_empty()
            && self.rules.iter().all(|r| r.mode != Mode::Enforce || r.findings.is_empty())
    }

    /// One line for each cycle, oversized file and finding of an enforced or warning rule;
    /// with `why`, each cycle is followed by its edges, indented.
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
        for rule in &self.rules {
            match rule.mode {
                Mode::Enforce => lines.extend(rule.findings.iter().cloned()),
                Mode::Warn => lines.extend(rule.findings.iter().map(|f| format!("warning: {f}"))),
                Mode::Off => {}
            }
        }
        lines
    }

    /// The closing lines: one per rule, saying what it checked.
    pub fn summary(&self) -> Vec<String> {
        let (largest, most) = self.largest.as_ref().map_or((String::new(), 0), |(f, n)| (f.display().to_string(), *n));
        let mut lines = vec![
            match self.cycles.len() {
                0 => format!("import cycles: none among {} files of {} crates", self.files, self.crates),
                n => format!("import cycles: {n} among {} files of {} crates", self.files, self.crates),
            },
            match self.oversized.len() {
                0 => format!(
                    "file size: {} files in {} crates' src/, none over {LINE_LIMIT} lines (largest {largest}, {most})",
                    self.measured, self.crates
                ),
                n => format!("file size: {n} of {} files over {LINE_LIMIT} lines", self.measured),
            },
        ];
        lines.extend(self.rules.iter().map(|r| r.summary.clone()));
        lines
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

    let sources: Vec<PathBuf> = workspace.packages.iter().map(|p| p.dir.join("src")).collect();
    let sizes = measure(&sources, &relative)?;
    let files: Vec<PathBuf> = tree.files.iter().map(|f| relative(f)).collect();
    let mut rules: Vec<RuleResult> =
        rules::LAYERS.iter().map(|rule| layers::check_layers(rule, &files, &edges)).collect();
    for rule in rules::FOLDERS {
        rules.push(layers::check_folders(rule, root)?);
    }

    Ok(Report {
        crates: workspace.packages.len(),
        files: tree.files.len(),
        cycles,
        edges,
        measured: sizes.measured,
        oversized: sizes.oversized,
        largest: sizes.largest,
        rules,
    })
}

/// The line counts of every `.rs` file under the given folders.
struct Sizes {
    measured: usize,
    oversized: Vec<(PathBuf, usize)>,
    largest: Option<(PathBuf, usize)>,
}

fn measure(dirs: &[PathBuf], relative: &dyn Fn(&Path) -> PathBuf) -> Result<Sizes, Error> {
    let mut sizes = Sizes { measured: 0, oversized: Vec::new(), largest: None };
    let mut seen = std::collections::BTreeSet::new();
    for dir in dirs {
        for file in size::rust_files(dir)? {
            if !seen.insert(file.clone()) {
                continue;
            }
            let text =
                std::fs::read_to_string(&file).map_err(|e| Error(format!("cannot read {}: {e}", file.display())))?;
            let count = size::counted_lines(&text);
            let file = relative(&file);
            sizes.measured += 1;
            if count > LINE_LIMIT {
                sizes.oversized.push((file.clone(), count));
            }
            if sizes.largest.as_ref().is_none_or(|(_, most)| count > *most) {
                sizes.largest = Some((file, count));
            }
        }
    }
    sizes.oversized.sort();
    Ok(sizes)
}
