//! Dialogs over the editor: import, share, search, settings, help, the command palette, unsaved work, new origins.
//!
//! | module | what it holds |
//! |---|---|
//! | `command_palette` | the command palette: every command, filtered as one types, carried out with Enter |
//! | `help_dialog` | Help: every command and its keys on this platform, and the canvas's gestures |
//! | `host` | the dialog open over the editor (import, share, search, file changed), one at a time |
//! | `origins_dialog` | asking before a run reaches origins the person has not used |
//! | `settings` | settings: theme, model servers and their keys |
//! | `trace_settings` | the settings' Traces section: where runs are sent as traces (the desktop app) |
//! | `unsaved_dialog` | asking before work that could not be saved is left |

pub mod command_palette;
pub mod help_dialog;
pub mod host;
pub mod origins_dialog;
pub mod settings;
pub mod trace_settings;
pub mod unsaved_dialog;
