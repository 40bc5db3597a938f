//! Tests and evaluations built from runs: the suite format, `switchyard/tests@1` (cases with
//! their input, answers, recorded replies, expectations and a baseline run; evaluators;
//! a dataset), and the case runner the CLI and the editor share.
//!
//! A case replays the replies its run recorded, so it runs offline and the same way every
//! time, until the graph changes: a changed prompt changes a model request and fails the
//! call, naming the node and the first differing path; a changed route ends the run unlike
//! its baseline, naming the first differing step.
//!
//! | module | what it holds |
//! |---|---|
//! | `types` | [`Suite`], [`SuiteGraph`], [`Case`], [`CaseAnswer`], [`Evaluator`], [`GraphRef`], [`TESTS_FORMAT`] |
//! | `parse` | [`parse_suite`]: strict, errors with path, line and column |
//! | `dataset` | [`parse_dataset`]: JSON Lines of inputs, errors naming the line ([`DatasetError`]) |
//! | `prepare` | [`prepare`]: the suite checked to be for the graph, evaluators compiled or loaded ([`Prepared`], [`SuiteError`]) |
//! | `check` | [`check_case`]: a case naming nodes the graph no longer has ([`CaseProblem`]) |
//! | `case` | [`run_case`]: a case run and judged ([`CaseResult`], [`CaseFailure`]) |
//! | `expect` | expectations and expression evaluators over a finished run |
//! | `evaluate` | evaluators scoring a run ([`Score`]); judge graphs |
//! | `summary` | [`summarize`]: passed, failed, per evaluator mean and pass rate ([`Summary`]) |
//! | `from_record` | [`case_from_record`]: a run made into a case |

mod case;
mod check;
mod dataset;
mod evaluate;
mod expect;
mod from_record;
mod parse;
mod prepare;
mod summary;
mod types;

pub use self::case::{CaseFailure, CaseResult, run_case};
pub use self::check::{CaseProblem, check_case};
pub use self::dataset::{DatasetError, parse_dataset};
pub use self::evaluate::Score;
pub use self::from_record::case_from_record;
pub use self::parse::parse_suite;
pub use self::prepare::{Prepared, SuiteError, prepare};
pub use self::summary::{EvaluatorSummary, Summary, summarize};
pub use self::types::{
    Case, CaseAnswer, DEFAULT_THRESHOLD, Evaluator, GraphRef, Suite, SuiteGraph, TESTS_FORMAT, TESTS_SCHEMA_ID,
};
// What a case's run replays, as the suite's users name it.
pub use crate::record::{RecordedReply, ReplayMode, ReplayProblem};
