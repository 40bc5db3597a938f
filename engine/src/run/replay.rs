//! A run replaying recorded replies instead of calling providers ([`Run::replay`]), and
//! what it could not replay ([`Run::replay_problems`]).

use std::rc::Rc;

use super::Run;
use crate::effects::Tape;
use crate::record::{GivenAnswer, RecordedReply, ReplayMode, ReplayProblem};

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

impl Run {
    /// This run as one inside another whose tape is `tape`: its calls go on that tape, named
    /// `<prefix><task>`, and its record leaves the tape to the outer run's.
    pub(crate) fn share_tape(&mut self, tape: &Rc<Tape>, prefix: String) {
        self.tape = tape.clone();
        self.tape_prefix = prefix;
        self.owns_tape = false;
        // Its spans are the outer run's: it has no trace of its own.
        self.sessions = Default::default();
    }

    /// The replies and answers a run rewound to checkpoint `step` keeps: the calls made in
    /// the steps up to it, and the answers given before it (the step after it asks again).
    pub(super) fn tape_until(&self, step: u64) -> (Rc<Tape>, Vec<GivenAnswer>) {
        let tape = Tape::new();
        let replies: Vec<RecordedReply> = self.tape.replies().into_iter().filter(|r| r.step <= step).collect();
        tape.restore(&replies);
        let given = self.given.iter().filter(|a| a.step < step).cloned().collect();
        (Rc::new(tape), given)
    }

    /// Carries the tape of this run over to `rewound`, the same run from its last good
    /// checkpoint (a failed run resumed): a run of its own drops the failed step's calls, a
    /// run inside another keeps using the outer tape.
    pub(super) fn hand_tape_to(&mut self, rewound: &mut Run, last_good: u64) {
        if self.owns_tape {
            self.tape.keep_until(last_good);
        }
        rewound.tape = self.tape.clone();
        rewound.tape_prefix = std::mem::take(&mut self.tape_prefix);
        rewound.owns_tape = self.owns_tape;
        rewound.given = std::mem::take(&mut self.given);
        rewound.sessions = std::mem::take(&mut self.sessions);
    }

    /// Picks up the replies and answers of the record a run is rebuilt from.
    pub(super) fn restore_tape(&mut self, replies: &[RecordedReply], answers: &[GivenAnswer]) {
        self.tape.restore(replies);
        self.given = answers.to_vec();
    }

    /// About how many bytes the run's record takes: its steps and, for a run of its own, the
    /// replies on its tape.
    pub(super) fn record_size(&self) -> u64 {
        self.record_bytes.saturating_add(if self.owns_tape { self.tape.bytes() } else { 0 })
    }

    /// The replies and answers the record holds: a run inside another leaves them to the
    /// outer run's record.
    pub(super) fn recorded_tape(&self) -> (Vec<RecordedReply>, Vec<GivenAnswer>) {
        if self.owns_tape { (self.tape.replies(), self.given.clone()) } else { (Vec::new(), Vec::new()) }
    }
}
