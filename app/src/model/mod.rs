//! The editor's model: plain data and pure operations, with no browser in sight. The UI
//! turns gestures into calls here and renders what comes out; everything here is tested
//! natively. Three folders by job, stacked: `storage` at the bottom, `editing` may use it,
//! `runs` may use both; nothing imports upward (`tools/archcheck` checks it).
//!
//! | module | what it holds |
//! |---|---|
//! | [`storage`] | what is stored and exchanged: which document is open, the library, saved runs, exports and share links, provider keys, the import size cap |
//! | [`editing`] | the open graph as it is edited: the editor and its edits (the undo log), selection, gestures, geometry and layout, the palette, the inspector's models (tools, definitions, forms, mock replies, state fields), names and words |
//! | [`runs`] | runs as the person watches them: the live run as a service and the worker's messages, playback and moving through a run, versions, inputs, imports, instances, transcripts, usage, outcomes, breakpoints, form answers, the origins a run reaches |

pub mod editing;
pub mod runs;
pub mod storage;
