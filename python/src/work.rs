//! Long engine work without the GIL, and stoppable.
//!
//! [`run`] runs the work on a thread of its own while the calling thread, the GIL released,
//! wakes every few milliseconds to let Python look at its signals: on Ctrl-C (or any handler
//! that raises) the work's cancellation flag is raised, the engine stops at its next charge
//! (`GenError::Cancelled`), and the signal's exception is what the call raises. Other Python
//! threads run meanwhile. A panic in the work reaches Python as `pyo3`'s `PanicException`,
//! as any panic at the boundary does.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use arbiter_rules::Budget;
use pyo3::prelude::*;

/// How often the waiting thread looks at Python's signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(20);

/// A budget of `limit` work units (`None`: no bound) that `cancel` stops.
pub fn budget(limit: Option<u64>, cancel: &Arc<AtomicBool>) -> Budget {
    Budget::new(limit.unwrap_or(u64::MAX)).with_cancel(cancel.clone())
}

/// Runs `work` on a thread of its own without the GIL, handing it the cancellation flag that
/// a signal raises; its answer, or the exception a signal handler raised.
pub fn run<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    let caller = std::thread::current();
    std::thread::scope(|scope| {
        let handle = scope.spawn(|| {
            let out = work(&cancel);
            done.store(true, Ordering::Release);
            caller.unpark();
            out
        });
        loop {
            if done.load(Ordering::Acquire) || handle.is_finished() {
                break;
            }
            py.detach(|| std::thread::park_timeout(SIGNAL_CHECK));
            if done.load(Ordering::Acquire) || handle.is_finished() {
                break;
            }
            if let Err(signal) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                // The engine stops at its next charge; its answer is dropped.
                let _ = py.detach(|| handle.join());
                return Err(signal);
            }
        }
        match py.detach(|| handle.join()) {
            Ok(out) => Ok(out),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
