//! The `share` fuzz target (it needs the editor's share links), replayed on its committed
//! seeds and regressions through the fuzz target's own check (`fuzz/checks/corpus.rs`).

#[path = "../../fuzz/checks/corpus.rs"]
mod corpus;
#[path = "../../fuzz/checks/share.rs"]
mod share;

#[test]
fn share_seeds_and_regressions_pass_the_share_checks() {
    corpus::replay("share", corpus::MAIN_STACK, share::check);
}
