//! Messages for the user: errors stay until dismissed, notices fade. A context of its own,
//! so what only reports (or lists) messages takes just this.

use leptos::prelude::*;

/// A message shown to the user in the alert area (`role="alert"` for errors).
#[derive(Debug, Clone, PartialEq)]
pub struct Alert {
    pub id: u64,
    pub kind: AlertKind,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AlertKind {
    Error,
    Info,
}

#[derive(Clone, Copy)]
pub struct Alerts {
    /// The messages shown, oldest first.
    pub list: RwSignal<Vec<Alert>>,
    next: RwSignal<u64>,
}

impl Default for Alerts {
    fn default() -> Alerts {
        Alerts::new()
    }
}

impl Alerts {
    pub fn new() -> Alerts {
        Alerts { list: RwSignal::new(Vec::new()), next: RwSignal::new(1) }
    }

    /// Shows a message; info messages go away by themselves.
    pub fn alert(&self, kind: AlertKind, text: impl Into<String>) {
        let id = self.next.get_untracked();
        self.next.set(id + 1);
        let text = text.into();
        self.list.update(|a| {
            a.retain(|x| x.text != text);
            a.push(Alert { id, kind, text });
            if a.len() > 4 {
                a.remove(0);
            }
        });
        // Natively (the actions' tests) there is no page to time it: info stays to be read.
        if kind == AlertKind::Info && cfg!(target_arch = "wasm32") {
            let list = self.list;
            set_timeout(move || list.update(|a| a.retain(|x| x.id != id)), std::time::Duration::from_millis(4000));
        }
    }

    pub fn error(&self, text: impl Into<String>) {
        self.alert(AlertKind::Error, text);
    }

    pub fn info(&self, text: impl Into<String>) {
        self.alert(AlertKind::Info, text);
    }

    pub fn dismiss(&self, id: u64) {
        self.list.update(|v| v.retain(|x| x.id != id));
    }
}

pub fn use_alerts() -> Alerts {
    expect_context::<Alerts>()
}
