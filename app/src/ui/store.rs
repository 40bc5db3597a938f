//! What the forms and their fields take from the state (kept under this name, which the
//! fields use): the store, for the editor and error messages.

pub use crate::state::{Store, use_store};
