//! Small form fields for the inspector, one control per file.
//!
//! Every field shows the model's value and keeps what is being typed as a *draft*: checks
//! (expression, template, JSON, number) run on the draft as you type, and the value is
//! committed only on `change` (blur or Enter), so one edit is one step of undo and a
//! half-typed value never reaches the document. After a commit the field shows the model's
//! value again: a refused value (a clashing id, a name already used) springs back.
//!
//! Each control has an accessible name (`aria-label`, and a `<label>` around it), which is
//! how the end-to-end tests find it. A `…Input` is the bare control (for rows and cards that
//! lay out their own labels); the `…Field` of the same name puts it in a
//! [`Labelled`](labelled::Labelled) frame with its text and hint.
//!
//! | file | control | edits |
//! |---|---|---|
//! | `source_input.rs` | [`SourceInput`] | text, with a draft and an optional source check |
//! | `text_field.rs` | [`TextField`] | a line (or block) of text |
//! | `code_field.rs` | [`CodeField`] | a Rhai expression, script or `{{ }}` template, compiled as you type |
//! | `number_input.rs` | [`NumberInput`] | a number; empty means absent |
//! | `number_field.rs` | [`NumberField`] | the same, labelled |
//! | `checkbox_field.rs` | [`CheckboxField`] | a flag |
//! | `select_input.rs` | [`SelectInput`] | one of a few values |
//! | `select_field.rs` | [`SelectField`] | the same, labelled |
//! | `json_input.rs` | [`JsonInput`] | any JSON value, checked as you type |
//! | `json_field.rs` | [`JsonField`] | the same, labelled |
//! | `list_editor.rs` | [`ListEditor`](list_editor::ListEditor) | any list of named rows (generic over the row) |
//! | `kv_field.rs` | [`KvField`] | a map of names to text (`set`, `inputs`, `outputs`, `headers`) |
//! | `list_field.rs` | [`ListField`] | a list of strings (`options`, `required`) |
//! | `check_status.rs` | [`CheckStatus`](check_status::CheckStatus) | nothing: shows a check's verdict |
//! | `labelled.rs` | [`Labelled`](labelled::Labelled) | nothing: frames a control with its label |
//!
//! Shared by several controls: `body_check.rs` ([`templates_in_json`]: templates inside a
//! JSON body), `check.rs` ([`Check`], [`Verdict`](check::Verdict), [`Validator`],
//! [`ScopeNames`], [`check_source`](check::check_source): compiling source in a sandbox as the engine will) and `helpers.rs`
//! ([`unique_id`](helpers::unique_id), [`fresh_name`], [`focus_later`]: adding a row; [`scroll_to_show`]: a listbox's active row kept in view;
//! [`focus_first`]: carrying keyboard focus into a new form).
//!
//! These files use each other and the state (the document, the alerts), never another
//! component of `ui`.

mod body_check;
mod check;
mod check_status;
mod checkbox_field;
mod code_field;
mod helpers;
mod json_field;
mod json_input;
mod kv_field;
mod labelled;
mod list_editor;
mod list_field;
mod number_field;
mod number_input;
mod select_field;
mod select_input;
mod source_input;
mod text_field;

pub use body_check::templates_in_json;
pub use check::{Check, ScopeNames, Validator};
pub use checkbox_field::CheckboxField;
pub use code_field::CodeField;
pub use helpers::{focus_first, focus_later, fresh_name, scroll_to_show, unique_id};
pub use json_field::JsonField;
pub use json_input::JsonInput;
pub use kv_field::KvField;
pub use list_field::ListField;
pub use number_field::NumberField;
pub use number_input::NumberInput;
pub use select_field::SelectField;
pub use select_input::{SelectInput, options};
pub use source_input::SourceInput;
pub use text_field::TextField;
