//! How many bytes a value takes as compact JSON, counted as serde_json writes it, without
//! building the text: state sizes, patch sizes and a step's memory estimate all need it.

use std::io;

use serde::Serialize;

/// Counts the bytes written to it.
pub(crate) struct ByteCount(pub u64);

impl io::Write for ByteCount {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0 += buf.len() as u64;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The length of `v` as compact JSON.
pub(crate) fn json_len<T: Serialize + ?Sized>(v: &T) -> u64 {
    let mut count = ByteCount(0);
    // Writing into a counter cannot fail; a value that cannot serialize counts what it wrote.
    let _ = serde_json::to_writer(&mut count, v);
    count.0
}
