//! The model's storage part: what is stored and exchanged: which document is open, the library, saved runs, exports and share links, provider keys, the import size cap.
//!
//! | module | what it holds |
//! |---|---|
//! | [`doc_id`] | which document is open: a library graph or a file anywhere |
//! | [`export`] | the document as Export writes it, naming its JSON Schema |
//! | [`import_cap`] | the size limit for an imported graph |
//! | [`keys`] | provider keys bound to origins, the old single key migrated |
//! | [`library`] | the saved graphs and their storage keys |
//! | [`saved_run`] | what is saved for a run, and the history's summary of it |
//! | [`share`] | share links carrying a compressed document |
//! | [`shipped_suites`] | the test suites gallery templates come with |

pub mod doc_id;
pub mod export;
pub mod import_cap;
pub mod keys;
pub mod library;
pub mod saved_run;
pub mod share;
pub mod shipped_suites;
