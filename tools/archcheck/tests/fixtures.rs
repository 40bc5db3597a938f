//! The check run on small workspaces written to a temporary directory: it must find what it
//! is meant to find, and pass what it is meant to pass.

use std::path::Path;
use std::process::Command;

/// A workspace of the given crates, each `(name, [(path under the crate, text)])`.
fn workspace(crates: &[(&str, &[(&str, &str)])]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let members: Vec<String> = crates.iter().map(|(name, _)| format!("{name:?}")).collect();
    write(dir.path(), "Cargo.toml", &format!("[workspace]\nresolver = \"3\"\nmembers = [{}]\n", members.join(", ")));
    for (name, files) in crates {
        let manifest = format!("[package]\nname = {name:?}\nversion = \"0.1.0\"\nedition = \"2024\"\n");
        write(dir.path(), &format!("{name}/Cargo.toml"), &manifest);
        for (path, text) in *files {
            write(dir.path(), &format!("{name}/{path}"), text);
        }
    }
    dir
}

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().expect("a parent directory")).expect("a directory for the fixture");
    std::fs::write(&path, text).expect("a fixture file");
}

/// Runs the check on a workspace: its exit status and what it printed.
fn archcheck(dir: &Path) -> (i32, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_archcheck"))
        .arg("--root")
        .arg(dir)
        .arg("--why")
        .output()
        .expect("archcheck runs");
    let text = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    (output.status.code().expect("an exit status"), text)
}

/// `count` lines of code, one function each.
fn code_lines(count: usize) -> String {
    (0..count).map(|i| format!("pub fn f{i}() {{}}\n")).collect()
}

#[test]
fn two_siblings_that_use_each_other_are_a_cycle() {
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", "use crate::b::B;\npub struct A(B);\n"),
            ("src/b.rs", "pub struct B;\npub fn make() -> super::a::A {\n    todo!()\n}\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("archcheck: import cycle of 2 files: core/src/a.rs core/src/b.rs\n"), "{out}");
    assert!(out.contains("core/src/b.rs:2 uses core/src/a.rs (super::a::A)"), "{out}");
}

#[test]
fn a_child_using_its_parent_mod_rs_is_no_cycle() {
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "pub mod run;\npub use run::Run;\n"),
            ("src/run/mod.rs", "mod start;\nmod step;\npub use self::step::go;\npub struct Run;\n"),
            // `Run::start` is a function of the struct, not the module `run::start`.
            (
                "src/run/step.rs",
                "use super::Run;\nuse crate::run::Run as Same;\npub fn go(_: Same) {\n    Run::start();\n}\n",
            ),
            (
                "src/run/start.rs",
                "impl super::Run {\n    pub fn start() {\n        super::step::go(super::Run);\n    }\n}\n",
            ),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 0, "{out}");
    assert!(out.starts_with("archcheck: import cycles: none among 4 files of 1 crates\n"), "{out}");
    assert!(out.contains("archcheck: file size: 4 files in 1 crates' src/, none over 700 lines (largest "), "{out}");
}

#[test]
fn a_three_file_cycle_through_a_use_group_is_found() {
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "mod a;\nmod b;\nmod top;\n"),
            (
                "src/a.rs",
                "pub struct X;\nimpl X {\n    pub fn y() -> crate::b::c::Y {\n        crate::b::c::Y\n    }\n}\n",
            ),
            ("src/b.rs", "pub mod c;\n"),
            // A path inside a macro's input counts too.
            (
                "src/b/c.rs",
                "pub struct Y;\npub fn z() -> Vec<usize> {\n    vec![std::mem::size_of::<crate::top::Z>()]\n}\n",
            ),
            ("src/top.rs", "use crate::{a::X, b::{c::Y}};\npub struct Z;\npub fn both(_: X, _: Y) {}\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("import cycle of 3 files: core/src/a.rs core/src/b/c.rs core/src/top.rs\n"), "{out}");
    assert!(out.contains("core/src/top.rs:1 uses core/src/b/c.rs (crate::b::c::Y)"), "{out}");
    assert!(out.contains("core/src/b/c.rs:3 uses core/src/top.rs (crate::top::Z)"), "{out}");
}

#[test]
fn a_701_line_file_fails() {
    let dir = workspace(&[("core", &[("src/lib.rs", "mod big;\n"), ("src/big.rs", &code_lines(701))])]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("archcheck: core/src/big.rs: 701 lines, over the limit of 700"), "{out}");
}

#[test]
fn a_650_line_file_with_a_200_line_test_module_passes() {
    let tests = format!("#[cfg(test)]\nmod tests {{\n{}}}\n", "    // a test line\n".repeat(197));
    let text = format!("{}\n{tests}", code_lines(650));
    assert_eq!(text.lines().count(), 851);
    let dir = workspace(&[("core", &[("src/lib.rs", "mod big;\n"), ("src/big.rs", &text)])]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 0, "{out}");
    assert!(out.contains("none over 700 lines (largest core/src/big.rs, 650)\n"), "{out}");
}

#[test]
fn a_test_module_in_the_middle_still_counts() {
    let text = format!("{}#[cfg(test)]\nmod tests {{}}\n{}", code_lines(400), code_lines(400));
    let dir = workspace(&[("app", &[("src/lib.rs", "mod big;\n"), ("src/big.rs", &text)])]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("app/src/big.rs: 802 lines"), "{out}");
}

#[test]
fn code_under_cfg_test_is_ignored() {
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "mod a;\nmod b;\n"),
            ("src/a.rs", "pub struct A;\n#[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\n"),
            ("src/b.rs", "pub struct B(crate::a::A);\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 0, "{out}");
}

#[test]
fn cycles_are_found_in_every_crate_and_through_path_attributes() {
    let dir = workspace(&[
        ("core", &[("src/lib.rs", "pub fn f() {}\n")]),
        (
            "cli",
            &[
                ("src/main.rs", "#[path = \"parts/one.rs\"]\nmod one;\nmod two;\nfn main() {}\n"),
                ("src/parts/one.rs", "pub fn one() {\n    crate::two::two();\n}\n"),
                ("src/two.rs", "use super::one;\npub fn two() {\n    one::one();\n}\n"),
            ],
        ),
    ]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("import cycle of 2 files: cli/src/parts/one.rs cli/src/two.rs\n"), "{out}");
}

#[test]
fn a_parent_in_a_cycle_with_files_outside_it_counts() {
    // `plan/mod.rs` declares `Plan`, which holds a `run::Run`, which holds a `Plan`: a cycle
    // through the parent, since `run.rs` is not below `plan/`.
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "mod plan;\nmod run;\n"),
            ("src/plan/mod.rs", "mod compile;\npub struct Plan(crate::run::Run);\n"),
            ("src/plan/compile.rs", "pub fn compile() {}\n"),
            ("src/run.rs", "pub struct Run(Box<crate::plan::Plan>);\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("import cycle of 2 files: core/src/plan/mod.rs core/src/run.rs\n"), "{out}");
}

#[test]
fn a_re_export_leads_to_the_file_that_declares_the_item() {
    // `plan/mod.rs` re-exports `Plan` from its child: `run.rs` naming `crate::plan::Plan`
    // depends on `compile.rs`, which depends on `run.rs`.
    let dir = workspace(&[(
        "core",
        &[
            ("src/lib.rs", "mod plan;\nmod run;\n"),
            ("src/plan/mod.rs", "mod compile;\npub use compile::Plan;\n"),
            ("src/plan/compile.rs", "pub struct Plan(crate::run::Run);\n"),
            ("src/run.rs", "pub struct Run(Box<crate::plan::Plan>);\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("import cycle of 2 files: core/src/plan/compile.rs core/src/run.rs\n"), "{out}");
    assert!(out.contains("core/src/run.rs:1 uses core/src/plan/compile.rs (crate::plan::Plan)"), "{out}");
}

#[test]
fn a_directory_outside_a_workspace_is_an_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 2, "{out}");
    assert!(out.contains("cargo metadata failed"), "{out}");
}

#[test]
fn a_long_file_fails_in_any_crate() {
    let dir = workspace(&[("cli", &[("src/main.rs", "mod big;\nfn main() {}\n"), ("src/big.rs", &code_lines(701))])]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("archcheck: cli/src/big.rs: 701 lines, over the limit of 700"), "{out}");
}

/// An engine whose `record` (below `run` in the engine's layers) holds `extra`.
fn engine(record: &str) -> tempfile::TempDir {
    workspace(&[(
        "engine",
        &[
            ("src/lib.rs", "pub mod document;\npub mod record;\npub mod run;\npub use run::Run;\n"),
            ("src/document.rs", "pub struct Graph;\n"),
            ("src/record.rs", record),
            ("src/run/mod.rs", "pub struct Run(pub crate::document::Graph, pub crate::record::Status);\n"),
        ],
    )])
}

#[test]
fn the_engine_importing_downwards_passes_and_says_so() {
    let dir = engine("pub struct Status(pub crate::document::Graph);\n");
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 0, "{out}");
    assert!(
        out.contains("archcheck: engine/src: 11 layers, 3 modules, 3 imports between modules, none upward\n"),
        "{out}"
    );
}

#[test]
fn an_upward_import_in_the_engine_fails() {
    let dir = engine("pub struct Status;\npub fn of(run: &crate::run::Run) -> &Status {\n    &run.1\n}\n");
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(
        out.contains(
            "archcheck: upward import: engine/src/record.rs:2 uses engine/src/run/mod.rs (crate::run::Run) \
             (record, layer 7, uses run, layer 9)"
        ),
        "{out}"
    );
}

#[test]
fn an_upward_import_through_the_crate_roots_re_export_fails() {
    let dir = engine("pub struct Status;\npub fn of(run: &crate::Run) -> &Status {\n    &run.1\n}\n");
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("engine/src/record.rs:2 uses engine/src/run/mod.rs (crate::Run)"), "{out}");
}

#[test]
fn an_engine_module_in_no_layer_fails() {
    let dir = workspace(&[("engine", &[("src/lib.rs", "mod extra;\n"), ("src/extra.rs", "pub struct E;\n")])]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("archcheck: engine/src/extra: a module in no layer"), "{out}");
}

#[test]
fn a_loose_file_at_the_top_of_the_editors_components_fails() {
    let dir = workspace(&[(
        "app",
        &[
            ("src/lib.rs", "mod ui;\n"),
            ("src/ui/mod.rs", "mod toolbar;\nmod canvas;\n"),
            ("src/ui/toolbar.rs", "pub struct T;\n"),
            ("src/ui/canvas/mod.rs", "pub struct C;\n"),
        ],
    )]);
    let (status, out) = archcheck(dir.path());
    assert_eq!(status, 1, "{out}");
    assert!(out.contains("archcheck: app/src/ui/toolbar.rs: a loose file (move it into a folder)"), "{out}");
}
