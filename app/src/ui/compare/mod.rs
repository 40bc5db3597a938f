//! `Compare runs`: two runs side by side, opened for a test case that no longer ends like its
//! saved run, or for any two runs of the History.
//!
//! | module | what it holds |
//! |---|---|
//! | `compare_dialog` | the dialog: the two runs' labels, the summary, Previous and Next difference, Close; Escape and the focus given back |
//! | `step_rows` | the steps of both runs, one row per step number, as a listbox moved through with the arrows |
//! | `state_difference` | the state keys that differ after the selected step, with each run's value |

pub mod compare_dialog;
pub mod state_difference;
pub mod step_rows;
