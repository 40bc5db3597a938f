//! The workspace's crates, as `cargo metadata` reports them: the members of the root
//! `Cargo.toml` and the root file of each library and binary target (tests, benches,
//! examples and build scripts are not looked at).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use crate::Error;

/// A workspace member and the root files of its crates.
pub struct Package {
    pub name: String,
    /// The folder of its `Cargo.toml`.
    pub dir: PathBuf,
    pub roots: Vec<PathBuf>,
}

pub struct Workspace {
    pub root: PathBuf,
    pub packages: Vec<Package>,
}

/// Target kinds whose root is the top of a crate of source in `src/`.
const SOURCE_KINDS: &[&str] = &["lib", "rlib", "dylib", "cdylib", "staticlib", "proc-macro", "bin"];

/// Reads the workspace that `dir` is in.
pub fn load(dir: &Path) -> Result<Workspace, Error> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--offline", "--format-version", "1"])
        .current_dir(dir)
        .output()
        .map_err(|e| Error(format!("cannot run cargo metadata: {e}")))?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        return Err(Error(format!("cargo metadata failed in {}: {}", dir.display(), stderr.trim())));
    }
    let metadata: Value = serde_json::from_slice(&output.stdout)
        .map_err(|e| Error(format!("cannot read the output of cargo metadata: {e}")))?;
    let root =
        metadata["workspace_root"].as_str().ok_or_else(|| Error("cargo metadata has no workspace_root".into()))?;
    let members: Vec<&str> =
        metadata["workspace_members"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
    let mut packages = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        if !package["id"].as_str().is_some_and(|id| members.contains(&id)) {
            continue;
        }
        let mut roots: Vec<PathBuf> = package["targets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|target| {
                target["kind"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|k| k.as_str().is_some_and(|k| SOURCE_KINDS.contains(&k)))
            })
            .filter_map(|target| target["src_path"].as_str().map(PathBuf::from))
            .collect();
        roots.sort();
        roots.dedup();
        let manifest = PathBuf::from(package["manifest_path"].as_str().unwrap_or_default());
        let dir = manifest.parent().unwrap_or(Path::new("")).to_path_buf();
        packages.push(Package { name: package["name"].as_str().unwrap_or_default().to_owned(), dir, roots });
    }
    packages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(Workspace { root: PathBuf::from(root), packages })
}
