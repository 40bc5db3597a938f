//! The model's editing part: the open graph as it is edited: the editor and its edits (the undo log), selection, gestures, geometry and layout, the palette, the inspector's models (tools, definitions, forms, mock replies, state fields), names and words.
//!
//! | module | what it holds |
//! |---|---|
//! | [`clipboard`] | copy and paste as JSON fragments |
//! | [`commands`] | the command palette's filter: the commands a typed query keeps, best first |
//! | [`definitions`] | the document's definitions: listed with their users, added, renamed with every use, removed, used |
//! | [`edit`] | the edits every gesture becomes, each returning its inverse |
//! | [`editor`] | one open graph: document, selection, undo log, gestures as edits |
//! | [`focus_nav`] | moving between nodes with the arrow keys |
//! | [`form_fields`] | a human node's form fields and `route_by` as the inspector edits them |
//! | [`geometry`] | node boxes, pan and zoom, fitting a view, snapping |
//! | [`gesture`] | the canvas's pointer gestures (drag, pan, marquee, wire, clicks) as what they show and the commands they end in |
//! | [`indent`] | Tab and Shift+Tab in a script field: spaces to the next stop, selected lines indented or outdented |
//! | [`layout`] | automatic layered layout |
//! | [`map_edge`] | a map edge's item name, checked |
//! | [`mcp_servers`] | the graph's MCP servers: added by URL or command, renamed and removed with their tools, listed tools made graph tools |
//! | [`mock_replies`] | a mock model's responses as text, tool calls and rules |
//! | [`names`] | fresh names for what is added: `name`, else `name_2`, `name_3`… |
//! | [`palette`] | what each node kind looks like and starts as |
//! | [`placement`] | where a node added from the palette goes: free space near the selection |
//! | [`selection`] | selected nodes and edges, clicks and marquee |
//! | [`state_fields`] | a state field's type and reducer kept fitting; the transcript fields |
//! | [`tools`] | the graph's tools: add, rename and remove them with the nodes offering them |
//! | [`words`] | counts written as people write them (1 step, 2 steps) |

pub mod clipboard;
pub mod commands;
pub mod definitions;
pub mod edit;
pub mod editor;
pub mod focus_nav;
pub mod form_fields;
pub mod geometry;
pub mod gesture;
pub mod indent;
pub mod layout;
pub mod map_edge;
pub mod mcp_servers;
pub mod mock_replies;
pub mod names;
pub mod palette;
pub mod placement;
pub mod selection;
pub mod state_fields;
pub mod tools;
pub mod words;
