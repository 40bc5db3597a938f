//! The module tree of each crate, built the way rustc finds module files: from the crate
//! root through every `mod` declaration (`foo.rs` or `foo/mod.rs`, `#[path]`, inline
//! `mod x { }` blocks, which stay in their file). Declarations under `#[cfg(test)]` are
//! left out; other `cfg`s are kept, so code for every target is seen.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::Error;
use crate::refs::{self, PathRef, UseEntry};

pub type ModId = usize;
pub type FileId = usize;

/// One module: a file's top module or an inline `mod x { }` block in it.
pub struct Module {
    /// The crate (an index into [`Tree::crate_roots`]).
    pub krate: usize,
    pub parent: Option<ModId>,
    pub file: FileId,
    pub children: BTreeMap<String, ModId>,
    pub uses: Vec<UseEntry>,
    pub paths: Vec<PathRef>,
}

/// The modules of every crate loaded, and the files they are in.
#[derive(Default)]
pub struct Tree {
    pub modules: Vec<Module>,
    /// Every file loaded, as given (absolute or relative to where the check runs).
    pub files: Vec<PathBuf>,
    /// The root module of each crate.
    pub crate_roots: Vec<ModId>,
    file_ids: HashMap<PathBuf, FileId>,
}

impl Tree {
    /// Loads one crate from its root file (`lib.rs`, `main.rs`, a `src/bin/` file).
    pub fn load_crate(&mut self, root: &Path) -> Result<(), Error> {
        let krate = self.crate_roots.len();
        let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut seen = HashSet::new();
        let id = self.load_file(krate, root, None, &dir, &mut seen)?;
        self.crate_roots.push(id);
        Ok(())
    }

    /// The files of a module's ancestors, the module's own included.
    pub fn ancestor_files(&self, mut module: ModId) -> Vec<FileId> {
        let mut files = vec![self.modules[module].file];
        while let Some(parent) = self.modules[module].parent {
            files.push(self.modules[parent].file);
            module = parent;
        }
        files
    }

    fn file_id(&mut self, path: &Path) -> FileId {
        if let Some(&id) = self.file_ids.get(path) {
            return id;
        }
        self.files.push(path.to_path_buf());
        self.file_ids.insert(path.to_path_buf(), self.files.len() - 1);
        self.files.len() - 1
    }

    fn new_module(&mut self, krate: usize, parent: Option<ModId>, file: FileId) -> ModId {
        self.modules.push(Module {
            krate,
            parent,
            file,
            children: BTreeMap::new(),
            uses: Vec::new(),
            paths: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Loads a module file; `child_dir` is where its `mod x;` declarations look for files.
    fn load_file(
        &mut self,
        krate: usize,
        path: &Path,
        parent: Option<ModId>,
        child_dir: &Path,
        seen: &mut HashSet<PathBuf>,
    ) -> Result<ModId, Error> {
        seen.insert(path.to_path_buf());
        let text = std::fs::read_to_string(path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
        let ast = syn::parse_file(&text).map_err(|e| {
            let at = e.span().start();
            Error(format!("cannot parse {}:{}:{}: {e}", path.display(), at.line, at.column + 1))
        })?;
        let file = self.file_id(path);
        let id = self.new_module(krate, parent, file);
        let file_dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let dirs = Dirs { file_dir: &file_dir, child_dir, inline: false };
        self.fill(id, &ast.items, dirs, seen)?;
        Ok(id)
    }

    /// Records what a module's items name and loads the modules it declares.
    fn fill(
        &mut self,
        id: ModId,
        items: &[syn::Item],
        dirs: Dirs<'_>,
        seen: &mut HashSet<PathBuf>,
    ) -> Result<(), Error> {
        let scan = refs::scan(items);
        self.modules[id].uses = scan.uses;
        self.modules[id].paths = scan.paths;
        let (krate, file) = (self.modules[id].krate, self.modules[id].file);
        for decl in scan.mods {
            let child = match decl.content {
                Some(content) => {
                    let child = self.new_module(krate, Some(id), file);
                    let child_dir = dirs.child_dir.join(decl.path_attr.as_deref().unwrap_or(&decl.name));
                    let inner = Dirs { file_dir: dirs.file_dir, child_dir: &child_dir, inline: true };
                    self.fill(child, content, inner, seen)?;
                    child
                }
                None => {
                    let Some((path, child_dir)) = dirs.find(&decl.name, decl.path_attr.as_deref()) else {
                        continue; // rustc would report it; a missing file names nothing
                    };
                    if seen.contains(&path) {
                        continue;
                    }
                    self.load_file(krate, &path, Some(id), &child_dir, seen)?
                }
            };
            self.modules[id].children.insert(decl.name, child);
        }
        Ok(())
    }
}

/// Where a module's `mod x;` declarations are looked for.
#[derive(Clone, Copy)]
struct Dirs<'a> {
    /// The directory of the file the declaration is in (`#[path]` outside inline modules).
    file_dir: &'a Path,
    /// `src/` for `lib.rs`, `main.rs`, `mod.rs` and `#[path]` files; `src/a/` for `src/a.rs`;
    /// plus one directory per enclosing inline module.
    child_dir: &'a Path,
    /// Inside an inline `mod x { }` block.
    inline: bool,
}

impl Dirs<'_> {
    /// The file of `mod name;`, and where that file's own declarations look.
    fn find(&self, name: &str, path_attr: Option<&str>) -> Option<(PathBuf, PathBuf)> {
        if let Some(rel) = path_attr {
            let path = if self.inline { self.child_dir } else { self.file_dir }.join(rel);
            let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
            return path.is_file().then_some((path, dir));
        }
        let flat = self.child_dir.join(format!("{name}.rs"));
        if flat.is_file() {
            return Some((flat, self.child_dir.join(name)));
        }
        let nested = self.child_dir.join(name).join("mod.rs");
        nested.is_file().then(|| (nested, self.child_dir.join(name)))
    }
}
