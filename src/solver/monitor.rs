//! Node counting, limits and progress reports for one search.

use super::outcome::Progress;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// Limits and reporting for one search.
pub(crate) struct Limits<'a> {
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    pub stop: Arc<AtomicBool>,
    pub max_depth: u32,
    pub progress_every: Duration,
    pub progress: Option<&'a mut (dyn FnMut(&Progress) + Send + 'static)>,
}

/// The boxed progress callback a [`Solver`](super::Solver) keeps.
pub(crate) type ProgressFn = Box<dyn FnMut(&Progress) + Send>;
