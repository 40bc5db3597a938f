//! The layout rules of [`crate::rules`]: imports that go up a folder's layers, modules in no
//! layer, and loose files in folders meant to hold folders only.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::rules::{Folders, Layers, Mode};
use crate::{Edge, Error};

/// What one rule found, and the line that says what it checked.
pub struct RuleResult {
    pub mode: Mode,
    /// One line per finding.
    pub findings: Vec<String>,
    /// What the rule checked, with counts (for the closing lines).
    pub summary: String,
}

/// The module directly in `dir` that `file` belongs to (its file name without `.rs`, or its
/// folder), or `None` for a file outside `dir` or `dir`'s own `mod.rs`, `lib.rs`, `main.rs`.
fn module_of(dir: &Path, file: &Path) -> Option<String> {
    let rest = file.strip_prefix(dir).ok()?;
    let mut parts = rest.components();
    let first = parts.next()?.as_os_str().to_str()?;
    if parts.next().is_some() {
        return Some(first.to_string());
    }
    let name = first.strip_suffix(".rs")?;
    (!matches!(name, "mod" | "lib" | "main")).then(|| name.to_string())
}

/// Checks one folder's layers against the file dependency graph (`files` are the files of
/// every crate's module tree, relative to the workspace root).
pub fn check_layers(rule: &Layers, files: &[PathBuf], edges: &[Edge]) -> RuleResult {
    let dir = Path::new(rule.dir);
    let layer: BTreeMap<&str, usize> =
        rule.layers.iter().enumerate().flat_map(|(k, names)| names.iter().map(move |&n| (n, k))).collect();
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(dir, f)).collect();
    let mut findings = Vec::new();
    for module in &modules {
        if !layer.contains_key(module.as_str()) {
            findings.push(format!("{}/{module}: a module in no layer (add it to {}'s layers)", rule.dir, rule.dir));
        }
    }
    let mut between = BTreeSet::new();
    for edge in edges {
        let (Some(from), Some(to)) = (module_of(dir, &edge.from), module_of(dir, &edge.to)) else { continue };
        if from == to {
            continue;
        }
        between.insert((from.clone(), to.clone()));
        let (Some(&low), Some(&high)) = (layer.get(from.as_str()), layer.get(to.as_str())) else { continue };
        if high > low {
            findings.push(format!("upward import: {edge} ({from}, layer {}, uses {to}, layer {})", low + 1, high + 1));
        }
    }
    let summary = format!(
        "{}: {} layers, {} modules, {} imports between modules, {}",
        rule.dir,
        rule.layers.len(),
        modules.len(),
        between.len(),
        outcome(rule.mode, findings.len(), "upward or unplaced", "none upward")
    );
    RuleResult { mode: rule.mode, findings, summary }
}

/// Checks that a folder holds no loose file at its top but the ones allowed.
pub fn check_folders(rule: &Folders, root: &Path) -> Result<RuleResult, Error> {
    let dir = root.join(rule.dir);
    let mut loose = Vec::new();
    let mut folders = 0;
    if dir.is_dir() {
        let entries = std::fs::read_dir(&dir).map_err(|e| Error(format!("cannot list {}: {e}", dir.display())))?;
        for entry in entries {
            let path = entry.map_err(|e| Error(format!("cannot list {}: {e}", dir.display())))?.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
            if path.is_dir() {
                folders += 1;
            } else if name.ends_with(".rs") && !rule.allowed.contains(&name.as_str()) {
                loose.push(name);
            }
        }
    }
    loose.sort();
    let findings =
        loose.iter().map(|name| format!("{}/{name}: a loose file (move it into a folder)", rule.dir)).collect();
    let summary =
        format!("{}: {folders} folders, {}", rule.dir, outcome(rule.mode, loose.len(), "loose files", "no loose file"));
    Ok(RuleResult { mode: rule.mode, findings, summary })
}

/// The end of a rule's line: what it found, and whether that counts.
fn outcome(mode: Mode, found: usize, what: &str, clean: &str) -> String {
    match (mode, found) {
        (Mode::Off, 0) => format!("{clean} (rule off)"),
        (Mode::Off, n) => format!("{n} {what} (rule off: set its mode in tools/archcheck/src/rules.rs)"),
        (_, 0) => clean.to_string(),
        (Mode::Warn, n) => format!("{n} {what} (warnings)"),
        (Mode::Enforce, n) => format!("{n} {what}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(from: &str, to: &str) -> Edge {
        Edge { from: from.into(), line: 1, to: to.into(), path: "crate::x".into() }
    }

    const MODEL: Layers = Layers { dir: "app/src/model", layers: &[&["editing"], &["runs"]], mode: Mode::Enforce };

    #[test]
    fn model_folders_importing_upward_are_found_once_on() {
        let files: Vec<PathBuf> =
            ["app/src/model/mod.rs", "app/src/model/editing/mod.rs", "app/src/model/runs/playback.rs"]
                .iter()
                .map(PathBuf::from)
                .collect();
        let down =
            check_layers(&MODEL, &files, &[edge("app/src/model/runs/playback.rs", "app/src/model/editing/mod.rs")]);
        assert!(down.findings.is_empty(), "{:?}", down.findings);
        assert_eq!(down.summary, "app/src/model: 2 layers, 2 modules, 1 imports between modules, none upward");
        let up =
            check_layers(&MODEL, &files, &[edge("app/src/model/editing/mod.rs", "app/src/model/runs/playback.rs")]);
        assert_eq!(up.findings.len(), 1, "{:?}", up.findings);
        assert!(up.findings[0].contains("(editing, layer 1, uses runs, layer 2)"), "{}", up.findings[0]);
    }

    #[test]
    fn a_loose_file_is_found_when_the_folder_rule_is_on() {
        let root = tempfile::tempdir().expect("a temporary directory");
        let ui = root.path().join("app/src/ui");
        std::fs::create_dir_all(ui.join("canvas")).expect("folders");
        for file in ["mod.rs", "toolbar.rs", "canvas/mod.rs"] {
            std::fs::write(ui.join(file), "").expect("a file");
        }
        let rule = Folders { dir: "app/src/ui", allowed: &["mod.rs"], mode: Mode::Enforce };
        let result = check_folders(&rule, root.path()).expect("the folder is read");
        assert_eq!(result.findings, ["app/src/ui/toolbar.rs: a loose file (move it into a folder)"]);
        assert_eq!(result.summary, "app/src/ui: 1 folders, 1 loose files");
    }
}
