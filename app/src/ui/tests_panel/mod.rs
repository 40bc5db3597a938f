//! The Tests panel (README, Tests and evaluations): the open graph's test cases with their status and scores,
//! the passes over them and their progress, imports and exports, a dataset's rows; and Save as
//! test, which the run panel shows.
//!
//! | module | what it holds |
//! |---|---|
//! | `panel` | the panel itself: a region named Tests in place of the inspector |
//! | `suite_actions` | Run tests, Check against saved runs, Import tests, Export tests |
//! | `pass_progress` | the pass under way: a progress bar and Stop |
//! | `case_list` | the cases, or how to make the first |
//! | `case_row` | one case: its status, the reason of a failure, its scores, Compare and Delete |
//! | `evaluator_means` | each evaluator's mean score and passes over the cases shown |
//! | `dataset_section` | Import dataset, live or mock models, the rows run and their scores |
//! | `save_as_test` | the run panel's Save as test: the name asked, the test made |

pub mod case_list;
pub mod case_row;
pub mod dataset_section;
pub mod evaluator_means;
pub mod panel;
pub mod pass_progress;
pub mod save_as_test;
pub mod suite_actions;
