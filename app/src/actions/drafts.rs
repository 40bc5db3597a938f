//! Nothing typed is lost: what is being typed in a field is committed before anything else
//! can take the field away (a press elsewhere, Escape, a shortcut, leaving the graph or the
//! page). The page's side of it, its listeners and the `change` sent to the field, is the
//! platform's ([`crate::platform::Platform::commit_draft`]).

use crate::platform::PlatformRef;

/// Commits the draft of the focused field, if it has one, as leaving the field would.
pub fn commit_focused(platform: PlatformRef) {
    platform.get().commit_draft();
}

/// Starts committing drafts before the editor's own handlers see a press or a key; once.
pub fn install(platform: PlatformRef) {
    platform.get().watch_drafts();
}
