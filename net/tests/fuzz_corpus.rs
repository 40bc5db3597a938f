//! The `reply` fuzz target (it needs this crate's reply reader), replayed on its committed
//! seeds and regressions through the fuzz target's own check (`fuzz/checks/corpus.rs`).

#[path = "../../fuzz/checks/corpus.rs"]
mod corpus;
#[path = "../../fuzz/checks/reply.rs"]
mod reply;

#[test]
fn reply_seeds_and_regressions_pass_the_reply_checks() {
    corpus::replay("reply", corpus::MAIN_STACK, reply::check);
}
