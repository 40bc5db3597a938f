//! The left sidebar: node kinds to add, saved graphs, templates.
//!
//! | module | what it holds |
//! |---|---|
//! | `library_panel` | saved graphs and templates: open, rename, duplicate, delete |
//! | `palette_bar` | the node kinds to add |

pub mod library_panel;
pub mod palette_bar;
