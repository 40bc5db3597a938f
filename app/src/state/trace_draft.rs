//! The settings dialog's Traces section while the dialog is open (the desktop app): what
//! the person typed, and the setting as read, which arrives after the dialog shows.

use leptos::prelude::*;
use switchyard_ipc::PublicTraces;

/// What the Traces section holds while the dialog is open, saved with the dialog's Save.
#[derive(Clone, Copy)]
pub struct TraceDraft {
    pub endpoint: RwSignal<String>,
    /// Headers typed now (`name=value, …`); empty keeps those kept.
    pub headers: RwSignal<String>,
    pub capture_content: RwSignal<bool>,
    /// The setting as read when the dialog opened; `None` until it is read.
    pub kept: RwSignal<Option<PublicTraces>>,
    /// Whether the person edited a field. The setting is read after the dialog shows, so a
    /// slow read must not overwrite what was typed meanwhile.
    pub edited: RwSignal<bool>,
}

impl TraceDraft {
    pub fn empty() -> TraceDraft {
        TraceDraft {
            endpoint: RwSignal::new(String::new()),
            headers: RwSignal::new(String::new()),
            capture_content: RwSignal::new(false),
            kept: RwSignal::new(None),
            edited: RwSignal::new(false),
        }
    }

    /// Shows the setting as read, unless the person already edited the fields.
    pub fn fill(&self, kept: PublicTraces) {
        if !self.edited.get_untracked() {
            self.endpoint.set(kept.endpoint.clone());
            self.capture_content.set(kept.capture_content);
        }
        self.kept.set(Some(kept));
    }

    /// Whether saving would change the setting: the person edited it, and it differs from
    /// the setting as read (or the setting was not read yet).
    pub fn changed(&self) -> bool {
        self.edited.get_untracked()
            && self.kept.with_untracked(|k| {
                k.as_ref().is_none_or(|k| {
                    k.endpoint != self.endpoint.get_untracked().trim()
                        || k.capture_content != self.capture_content.get_untracked()
                        || !self.headers.with_untracked(|h| h.trim().is_empty())
                })
            })
    }

    /// Sets one field, as the person did.
    pub fn edit<T>(&self, field: RwSignal<T>, value: T)
    where
        T: Send + Sync + 'static,
    {
        self.edited.set(true);
        field.set(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(endpoint: &str) -> PublicTraces {
        PublicTraces { endpoint: endpoint.to_string(), ..PublicTraces::default() }
    }

    #[test]
    fn a_setting_read_after_the_person_typed_keeps_what_they_typed() {
        let draft = TraceDraft::empty();
        draft.edit(draft.endpoint, "http://127.0.0.1:6006".to_string());
        draft.fill(kept(""));
        assert_eq!(draft.endpoint.get_untracked(), "http://127.0.0.1:6006");
        assert!(draft.changed(), "the typed address is saved");
    }

    #[test]
    fn typing_before_the_setting_is_read_still_saves() {
        let draft = TraceDraft::empty();
        draft.edit(draft.capture_content, true);
        assert!(draft.changed());
    }

    #[test]
    fn an_untouched_dialog_shows_the_setting_and_saves_nothing() {
        let draft = TraceDraft::empty();
        assert!(!draft.changed(), "nothing read, nothing typed");
        draft.fill(kept("http://collector:4318"));
        assert_eq!(draft.endpoint.get_untracked(), "http://collector:4318");
        assert!(!draft.changed());
        draft.edit(draft.endpoint, " http://collector:4318 ".to_string());
        assert!(!draft.changed(), "the same address, spaced, is no change");
    }
}
