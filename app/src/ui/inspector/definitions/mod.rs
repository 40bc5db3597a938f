//! The inspector's parts for definitions (format.md §9): the document's definitions in the
//! graph's form, and the choice a `subgraph` node makes between an embedded graph and one of
//! them. Each file is one component; they edit through the document state and the model's
//! `definitions`.
//!
//! | file | component | shows |
//! |---|---|---|
//! | `definitions_section.rs` | [`DefinitionsSection`] | the document's definitions: add, and one card each |
//! | `definition_card.rs` | `DefinitionCard` | one definition: name, size, users, edit, remove |
//! | `subgraph_fields.rs` | [`SubgraphFields`] | a `subgraph` node's graph or definition, inputs and outputs |

mod definition_card;
mod definitions_section;
mod subgraph_fields;

pub use definitions_section::DefinitionsSection;
pub use subgraph_fields::SubgraphFields;
