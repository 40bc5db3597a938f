//! The inspector's parts for human forms and ends (format.md §4, human; format.md §4, end): a human node's prompt and
//! its answer (one value, or a form of fields with `route_by`), and an end node's outcome.
//! Each file is one component; they edit the node through [`NodeEdit`](crate::ui::inspector::node_edit::NodeEdit)
//! and the model's `form_fields`.
//!
//! | file | component | shows |
//! |---|---|---|
//! | `human_fields.rs` | [`HumanFields`] | the prompt, then writes and options, or the form's fields, `Add field` and `Route by` |
//! | `form_field_card.rs` | `FormFieldCard` | one field: name, type, label, options, required, default |
//! | `end_fields.rs` | [`EndFields`] | an end's outcome (completed or failed) and its message |

mod end_fields;
mod form_field_card;
mod human_fields;

pub use end_fields::EndFields;
pub use human_fields::HumanFields;
