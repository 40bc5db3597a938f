//! From the paths a module names to the files it depends on.
//!
//! A path is followed from its first segment: `crate` (or `$crate`), `self`, `super`, a
//! module declared in the same module, or a name bound by a `use` there (an import of a
//! module, or a glob import from a module that has a submodule of that name). Then it goes
//! down through submodules as far as they go: `crate::a::b::C::new` ends at module `a::b`,
//! and the edge goes to the file `a::b` is in; an item a module re-exports with a `use`
//! (`crate::Run` when `lib.rs` says `pub use run::Run`) leads on to the module it comes from. Any other first segment (an outside crate,
//! `std`, a type, a local name) names nothing in this crate.
//!
//! An edge to the file of one of the module's own ancestors is dropped: a child using what
//! its `mod.rs` (or `lib.rs`, `main.rs`, `a.rs` for `a/`) declares is how shared items are
//! meant to be reached. So is an edge within one file.

use std::collections::BTreeMap;

use crate::modules::{FileId, ModId, Tree};

/// How deep `use` aliases may chain before the lookup gives up.
const MAX_DEPTH: usize = 8;

/// Why one file depends on another: the first path that made the edge.
#[derive(Debug, Clone)]
pub struct Evidence {
    pub path: String,
    pub line: usize,
}

/// The file dependency graph: for each file, the files it uses and why.
pub type Edges = BTreeMap<(FileId, FileId), Evidence>;

pub fn edges(tree: &Tree) -> Edges {
    let mut edges = Edges::new();
    for (id, module) in tree.modules.iter().enumerate() {
        let ancestors = tree.ancestor_files(id);
        let mut add = |target: Option<ModId>, segments: &[String], line: usize| {
            let Some(target) = target else { return };
            let to = tree.modules[target].file;
            if !ancestors.contains(&to) {
                edges.entry((module.file, to)).or_insert_with(|| Evidence { path: segments.join("::"), line });
            }
        };
        for entry in &module.uses {
            add(resolve(tree, id, &entry.segments, 0).map(|(m, _)| m), &entry.segments, entry.line);
        }
        for path in &module.paths {
            add(resolve(tree, id, &path.segments, 0).map(|(m, _)| m), &path.segments, path.line);
        }
    }
    edges
}

/// The deepest module a path reaches from module `from`, and whether every segment was a
/// module. `None` when the path does not start in this crate.
fn resolve(tree: &Tree, from: ModId, segments: &[String], depth: usize) -> Option<(ModId, bool)> {
    let (first, rest) = segments.split_first()?;
    let mut current = match first.as_str() {
        "crate" => tree.crate_roots.get(tree.modules[from].krate).copied()?,
        "self" | "super" => from,
        name => match lookup(tree, from, name, depth)? {
            (module, true) => module,
            // A `use`d item: what follows (`Run::start`) is inside the item, not a module.
            (module, false) => return Some((module, false)),
        },
    };
    let mut rest = rest;
    if first == "super" {
        current = tree.modules[current].parent?;
    }
    while let Some((segment, tail)) = rest.split_first() {
        match segment.as_str() {
            "super" => current = tree.modules[current].parent?,
            "self" => {}
            name => match tree.modules[current].children.get(name) {
                Some(&child) => current = child,
                // An item the module re-exports (`crate::Run`, `lib.rs` saying `pub use
                // run::Run`) is reached where it is declared: the crate root must not hide an
                // import of a module above the one naming it.
                None if current != from && depth < MAX_DEPTH => {
                    return Some(lookup(tree, current, name, depth + 1).map_or((current, false), |(m, _)| (m, false)));
                }
                None => return Some((current, false)),
            },
        }
        rest = tail;
    }
    Some((current, true))
}

/// The module a bare name stands for in module `from`, and whether the name is that module
/// itself (rather than an item `use`d from it).
fn lookup(tree: &Tree, from: ModId, name: &str, depth: usize) -> Option<(ModId, bool)> {
    let module = &tree.modules[from];
    if let Some(&child) = module.children.get(name) {
        return Some((child, true));
    }
    if depth >= MAX_DEPTH {
        return None;
    }
    // `use a::b;` or `use a::b as name;` (an import of an item resolves to its module).
    let named = module.uses.iter().filter(|u| !u.glob && u.binds.as_deref() == Some(name));
    if let Some(found) = named.filter_map(|u| resolve(tree, from, &u.segments, depth + 1)).next() {
        return Some(found);
    }
    // `use a::*;` brings in `a`'s submodules too.
    module
        .uses
        .iter()
        .filter(|u| u.glob)
        .filter_map(|u| resolve(tree, from, &u.segments, depth + 1))
        .filter(|&(_, whole)| whole)
        .find_map(|(m, _)| tree.modules[m].children.get(name).map(|&child| (child, true)))
}
