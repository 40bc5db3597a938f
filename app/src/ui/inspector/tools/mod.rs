//! The inspector's parts for agents (format.md §4 (llm, tools) and §8): the graph's tools, and the pieces of an
//! `llm` or `tools` node's form that deal with tools, transcripts and mock replies. Each file
//! is one component; they edit through the document state and the model's `tools` and
//! `mock_replies`, and use the controls of `ui/fields`.
//!
//! | file | component | shows |
//! |---|---|---|
//! | `tools_section.rs` | [`ToolsSection`] | the graph's tools, in the graph's form: add, and one card each |
//! | `tool_card.rs` | `ToolCard` | one tool: name, description, parameters, how it runs, remove |
//! | `tool_run_field.rs` | `ToolRunField` | how a tool runs: a script, an HTTP request, or a definition |
//! | `tool_picker.rs` | [`ToolPicker`] | an `llm` node's tools: a checkbox per tool of the graph |
//! | `mock_responses.rs` | [`MockResponses`] | a mock model's responses, in order: add, move, remove |
//! | `mock_response_row.rs` | `MockResponseRow` | one response: text, tool calls, or a rule |
//! | `reply_editor.rs` | `ReplyEditor` | a reply's content and tool calls |
//! | `messages_field_select.rs` | [`MessagesFieldSelect`] | a `tools` node's messages field |

mod messages_field_select;
mod mock_response_row;
mod mock_responses;
mod reply_editor;
mod tool_card;
mod tool_picker;
mod tool_run_field;
mod tools_section;

pub use messages_field_select::MessagesFieldSelect;
pub use mock_responses::MockResponses;
pub use tool_picker::ToolPicker;
pub use tools_section::ToolsSection;
