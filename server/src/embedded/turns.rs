//! How many runs go at once on the whole server: a run takes a turn before its engine
//! thread starts and gives it back when it ends. Runs beyond that wait in line; past the
//! line's bound a new run is refused (429) rather than held in memory without end.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::backend::BackendError;

/// A run's turn, held for its life.
pub type Turn = OwnedSemaphorePermit;

/// The turns and the line.
pub struct Turns {
    slots: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
}

impl Turns {
    /// `running` runs at once (at least one), `max_waiting` more in line.
    pub fn new(running: usize, max_waiting: usize) -> Turns {
        Turns { slots: Arc::new(Semaphore::new(running.max(1))), waiting: AtomicUsize::new(0), max_waiting }
    }

    /// A turn now, if one is free.
    pub fn try_take(&self) -> Option<Turn> {
        self.slots.clone().try_acquire_owned().ok()
    }

    /// A place in the line of runs waiting (for their thread or a turn); refused when the
    /// line is full.
    pub fn line(self: &Arc<Self>) -> Result<Place, BackendError> {
        let before = self.waiting.fetch_add(1, Ordering::SeqCst);
        if before >= self.max_waiting {
            self.waiting.fetch_sub(1, Ordering::SeqCst);
            return Err(BackendError::TooMany(format!(
                "the server is running as many runs as it may and {before} more are waiting; try again later"
            )));
        }
        Ok(Place(self.clone()))
    }

    /// A turn, however long the line (a run continued after a restart was accepted already).
    pub async fn wait(&self) -> Result<Turn, BackendError> {
        self.slots.clone().acquire_owned().await.map_err(|_| BackendError::Internal("the server is stopping".into()))
    }
}

/// A run's place in the line, given up when dropped (it got its turn, or was dropped).
pub struct Place(Arc<Turns>);

impl Drop for Place {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::SeqCst);
    }
}
