//! The frame around the editor: its layout, the toolbar and its icons, the messages for the user.
//!
//! | module | what it holds |
//! |---|---|
//! | `alerts` | the messages for the user, each dismissable |
//! | `app` | the whole editor: starts the actions on the chosen platform and lays out the regions |
//! | `icons` | the toolbar's line icons |
//! | `toolbar` | the header: file, edit, view and help commands, each button named from the command table |

pub mod alerts;
pub mod app;
pub mod icons;
pub mod toolbar;
