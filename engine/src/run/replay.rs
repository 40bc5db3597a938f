//! A run replaying recorded replies instead of calling providers ([`Run::replay`]), and
//! what it could not replay ([`Run::replay_problems`]).

use super::Run;
use crate::record::{RecordedReply, ReplayMode, ReplayProblem};

impl Run {
    /// Gives the run the replies to answer its effects with, before it runs: each task's
    /// calls get the replies recorded for it in order while their requests are unchanged.
    /// [`ReplayMode::Live`] calls the providers and only records.
    pub fn replay(&mut self, replies: Vec<RecordedReply>, mode: ReplayMode) {
        self.tape.load(replies, mode);
    }

    /// The calls replay could not answer: a changed request, or no reply left for a call
    /// that needs one.
    pub fn replay_problems(&self) -> Vec<ReplayProblem> {
        self.tape.problems()
    }
}
