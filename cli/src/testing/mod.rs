//! What `switchyard test` is made of, besides the command itself (`commands/test.rs`,
//! `commands/test_add.rs`).
//!
//! | module | what it holds |
//! |---|---|
//! | `suite_file` | a suite file read and parsed, and the files it names (graph, dataset, evaluator graphs) found relative to it |
//! | `workers` | the cases run on `--jobs N` threads, each compiling the graph itself (a run is not `Send`), results in the suite's order |
//! | `replay_host` | the host of a replayed case: the CLI's clock, and no network |
//! | `report` | one graph's results as text: a line a case, its failures, the summary |
//! | `compare` | two graphs' results side by side, and the mean difference of each evaluator |
//! | `junit` | `--junit FILE`: JUnit XML, a testcase a case, scores as properties |
//! | `bar` | the progress bar over the cases, on a terminal only |

pub mod bar;
pub mod compare;
pub mod junit;
pub mod replay_host;
pub mod report;
pub mod suite_file;
pub mod workers;
