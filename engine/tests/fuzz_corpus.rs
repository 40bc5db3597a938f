//! The fuzz targets that need only the engine, replayed on their committed seeds and
//! regressions (`fuzz/checks/corpus.rs`): the checks are the fuzz targets' own, so `./dev
//! test` keeps every input that once broke them fixed without building the fuzzers.

#[path = "../../fuzz/checks/corpus.rs"]
mod corpus;
#[path = "../../fuzz/checks/document.rs"]
mod document;
#[path = "../../fuzz/checks/expression.rs"]
mod expression;
#[path = "../../fuzz/checks/record.rs"]
mod record;
#[path = "../../fuzz/checks/run.rs"]
mod run;
#[path = "../../fuzz/checks/schema.rs"]
mod schema;

use corpus::{MAIN_STACK, replay};

/// How many times more stack a debug build's frames take than a release build's, about.
const DEBUG_FRAMES: usize = 4;

#[test]
fn document_seeds_and_regressions_pass_the_document_checks() {
    replay("document", MAIN_STACK, document::check);
}

#[test]
fn expression_seeds_and_regressions_pass_the_expression_checks() {
    // The fuzzer's own small stack (release), as deep in frames here: unoptimized frames are
    // several times larger, and a value nested 1,900 deep (a regression) takes 1 MiB to drop.
    let stack = if cfg!(debug_assertions) { DEBUG_FRAMES * expression::STACK } else { expression::STACK };
    replay("expression", stack, expression::check);
}

#[test]
fn record_seeds_pass_the_record_checks() {
    replay("record", MAIN_STACK, record::check);
}

#[test]
fn run_seeds_pass_the_run_checks() {
    replay("run", MAIN_STACK, run::check);
}

#[test]
fn schema_seeds_pass_the_schema_checks() {
    replay("schema", MAIN_STACK, schema::check);
}
