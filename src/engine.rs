//! Engine work off the I/O workers, within a budget.
//!
//! Every endpoint that runs the rules engine hands its work to [`Engine::run`] as a closure of a
//! [`Budget`]. The work is first tried on the I/O worker with a small slice of the budget
//! ([`EngineConfig::inline_units`], about a millisecond; a tenth of it while every slot is
//! busy): the common cheap request (the moves of a position, a short game) is answered there,
//! without a thread hop. Work that needs more is started again from scratch on the engine pool
//! with the request's whole budget, so its answer does not depend on where it ran. The pool has
//! [`EngineConfig::max_jobs`] threads; a request that finds every slot busy is not queued: it is
//! answered at once 503 `overloaded` with `Retry-After`. A job whose request is
//! dropped (the request timed out, the client left) is cancelled through its budget and stops
//! within a few milliseconds.
//!
//! So no request costs more than its budget, the I/O workers are never busy with engine work
//! for more than a slice at a time, and the memory of the engine work is bounded by the number
//! of slots. The probes and metrics have a listener and a thread of their own besides
//! (`--admin-addr`).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

use arbiter_rules::Budget;

use crate::config::EngineConfig;
use crate::problem::{ApiError, ProblemCode};

/// While every slot is busy, the slice tried on the I/O worker is this fraction of the usual
/// one: a request that needs more would be refused anyway, so the I/O workers (and the probes
/// they serve) spend little on it.
pub const SATURATED_INLINE_DIVISOR: u64 = 10;
/// `Retry-After` of an `overloaded` answer, in seconds.
pub const RETRY_AFTER_SECS: u64 = 1;

/// Which budget a request gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// `/moves`, `/play`, `/judge`, `/perft`.
    Request,
    /// `/v1/judge/pdn`.
    PdnFile,
}

type Job = Box<dyn FnOnce() + Send>;

/// Counters for `/metrics`.
#[derive(Debug, Default)]
pub struct EngineStats {
    /// Requests answered on the I/O worker.
    pub inline: AtomicU64,
    /// Requests run on the engine pool.
    pub pooled: AtomicU64,
    /// Requests refused 503 `overloaded`.
    pub shed: AtomicU64,
    /// Requests refused 422 `budget-exceeded`.
    pub over_budget: AtomicU64,
    /// Work units spent by finished requests.
    pub units: AtomicU64,
}

/// The engine pool of a server (shared by all its workers).
pub struct Engine {
    config: EngineConfig,
    jobs: mpsc::Sender<Job>,
    running: Arc<AtomicUsize>,
    stats: EngineStats,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("config", &self.config)
            .field("running", &self.running.load(Ordering::Relaxed))
            .finish()
    }
}

/// Sets the flag when dropped: the request went away, so its job must stop.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Frees a slot when dropped (the job ended, panicked or was never run).
struct Slot(Arc<AtomicUsize>);

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Engine {
    /// Starts the pool's threads.
    pub fn start(config: EngineConfig) -> Arc<Engine> {
        let config = EngineConfig {
            max_jobs: config.max_jobs.max(1),
            ..config
        };
        let (tx, rx) = mpsc::channel::<Job>();
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..config.max_jobs {
            let rx = rx.clone();
            std::thread::Builder::new()
                .name(format!("arbiter-engine-{i}"))
                .spawn(move || loop {
                    let job = {
                        let Ok(rx) = rx.lock() else { return };
                        match rx.recv() {
                            Ok(job) => job,
                            Err(_) => return,
                        }
                    };
                    job();
                })
                .expect("spawn an engine thread");
        }
        Arc::new(Engine {
            config,
            jobs: tx,
            running: Arc::new(AtomicUsize::new(0)),
            stats: EngineStats::default(),
        })
    }

    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    pub fn stats(&self) -> &EngineStats {
        &self.stats
    }

    /// Jobs running on the pool now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    fn limit(&self, work: Work) -> u64 {
        match work {
            Work::Request => self.config.work_budget,
            Work::PdnFile => self.config.pdn_work_budget,
        }
    }

    /// Runs `f` within the budget of `work`: first on this thread with a slice of it, then, if
    /// the slice was not enough, from scratch on the pool with the whole budget (503
    /// `overloaded` when no slot is free).
    pub async fn run<T, F>(&self, work: Work, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&Budget) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        let limit = self.limit(work);
        let mut slice = self.config.inline_units.min(limit);
        if self.running.load(Ordering::Relaxed) >= self.config.max_jobs {
            slice /= SATURATED_INLINE_DIVISOR;
        }
        let budget = Budget::new(slice);
        let first = f(&budget);
        if first.is_ok() || budget.left() > 0 || slice == limit {
            self.stats.inline.fetch_add(1, Ordering::Relaxed);
            self.stats.units.fetch_add(budget.used(), Ordering::Relaxed);
            if is_over_budget(&first) {
                self.stats.over_budget.fetch_add(1, Ordering::Relaxed);
            }
            return first;
        }
        self.stats.units.fetch_add(budget.used(), Ordering::Relaxed);
        // Admission: a free slot or an immediate refusal.
        if self.running.fetch_add(1, Ordering::AcqRel) >= self.config.max_jobs {
            self.running.fetch_sub(1, Ordering::AcqRel);
            self.stats.shed.fetch_add(1, Ordering::Relaxed);
            return Err(ApiError::overloaded(self.config.max_jobs, RETRY_AFTER_SECS));
        }
        let slot = Slot(self.running.clone());
        self.stats.pooled.fetch_add(1, Ordering::Relaxed);
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let (tx, rx) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move || {
            let budget = Budget::new(limit).with_cancel(cancel);
            let result = catch_unwind(AssertUnwindSafe(|| f(&budget))).unwrap_or_else(|_| {
                tracing::error!("engine job panicked");
                Err(ApiError::internal())
            });
            // The slot is free before the answer is: the client's next request finds it.
            drop(slot);
            let _ = tx.send((result, budget.used()));
        });
        if self.jobs.send(job).is_err() {
            // The pool is gone (the server is stopping); the job, and its slot, were dropped.
            return Err(ApiError::unavailable());
        }
        match rx.await {
            Ok((result, used)) => {
                self.stats.units.fetch_add(used, Ordering::Relaxed);
                if is_over_budget(&result) {
                    self.stats.over_budget.fetch_add(1, Ordering::Relaxed);
                }
                result
            }
            Err(_) => Err(ApiError::internal()),
        }
    }

    /// Runs `f` within the whole budget of `work` on the runtime's blocking threads, for work
    /// that may wait rather than compute (a probe of the endgame tables waiting for a table
    /// being built): it holds no engine slot while it waits. Cancelled through its budget when
    /// the request goes away.
    pub async fn run_waiting<T, F>(&self, work: Work, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&Budget) -> Result<T, ApiError> + Send + 'static,
    {
        let limit = self.limit(work);
        let cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let job = actix_web::rt::task::spawn_blocking(move || {
            let budget = Budget::new(limit).with_cancel(cancel);
            let result = catch_unwind(AssertUnwindSafe(|| f(&budget))).unwrap_or_else(|_| {
                tracing::error!("engine job panicked");
                Err(ApiError::internal())
            });
            (result, budget.used())
        });
        let (result, used) = job.await.map_err(|_| ApiError::internal())?;
        self.stats.units.fetch_add(used, Ordering::Relaxed);
        if is_over_budget(&result) {
            self.stats.over_budget.fetch_add(1, Ordering::Relaxed);
        }
        result
    }
}

fn is_over_budget<T>(r: &Result<T, ApiError>) -> bool {
    matches!(r, Err(e) if e.problem().code == ProblemCode::BudgetExceeded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_rules::GenError;

    fn spin(units: u64) -> impl Fn(&Budget) -> Result<u64, ApiError> + Send + Sync + 'static {
        move |b: &Budget| {
            for _ in 0..units {
                b.charge(1).map_err(|e| ApiError::engine(&e))?;
            }
            Ok(units)
        }
    }

    fn config(max_jobs: usize) -> EngineConfig {
        EngineConfig {
            max_jobs,
            work_budget: 1_000,
            pdn_work_budget: 10_000,
            inline_units: 10,
        }
    }

    #[actix_web::test]
    async fn cheap_work_runs_inline_and_heavy_work_on_the_pool() {
        let e = Engine::start(config(1));
        assert_eq!(e.run(Work::Request, spin(5)).await.unwrap(), 5);
        assert_eq!(e.stats().inline.load(Ordering::Relaxed), 1);
        assert_eq!(e.run(Work::Request, spin(500)).await.unwrap(), 500);
        assert_eq!(e.stats().pooled.load(Ordering::Relaxed), 1);
        // Over the whole budget: the deterministic 422 naming the budget, not the slice.
        let err = e.run(Work::Request, spin(5_000)).await.unwrap_err();
        assert_eq!(err.problem().code, ProblemCode::BudgetExceeded);
        assert_eq!(err.problem().limit, Some(1_000));
        assert_eq!(e.run(Work::PdnFile, spin(5_000)).await.unwrap(), 5_000);
        assert_eq!(e.running(), 0);
    }

    #[actix_web::test]
    async fn a_full_pool_sheds_at_once() {
        let e = Engine::start(config(1));
        let gate = Arc::new(AtomicBool::new(false));
        let g = gate.clone();
        let e2 = e.clone();
        let blocker = actix_web::rt::spawn(async move {
            e2.run(Work::Request, move |b: &Budget| {
                b.charge(11).map_err(|e| ApiError::engine(&e))?;
                while !g.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                Ok(())
            })
            .await
        });
        while e.running() == 0 {
            actix_web::rt::time::sleep(std::time::Duration::from_millis(1)).await;
        }
        let err = e.run(Work::Request, spin(500)).await.unwrap_err();
        assert_eq!(err.problem().code, ProblemCode::Overloaded);
        assert_eq!(err.status(), 503);
        // Cheap work still runs on the I/O worker, within a tenth of the usual slice (1 unit of
        // 10); a little more is refused at once.
        assert!(e.run(Work::Request, spin(1)).await.is_ok());
        let err = e.run(Work::Request, spin(3)).await.unwrap_err();
        assert_eq!(err.problem().code, ProblemCode::Overloaded);
        gate.store(true, Ordering::Relaxed);
        blocker.await.unwrap().unwrap();
        assert_eq!(e.stats().shed.load(Ordering::Relaxed), 2);
        // A free slot again: the usual slice.
        assert!(e.run(Work::Request, spin(3)).await.is_ok());
    }

    #[actix_web::test]
    async fn a_dropped_request_cancels_its_job() {
        // No inline slice: the job goes to the pool at once.
        let e = Engine::start(EngineConfig {
            inline_units: 0,
            ..config(1)
        });
        let run = e.run(Work::PdnFile, move |b: &Budget| {
            b.charge(1).map_err(|e| ApiError::engine(&e))?;
            loop {
                match b.charge(0) {
                    Err(GenError::Cancelled) => return Ok(()),
                    Err(other) => return Err(ApiError::engine(&other)),
                    Ok(()) => std::thread::sleep(std::time::Duration::from_millis(1)),
                }
            }
        });
        let timed = actix_web::rt::time::timeout(std::time::Duration::from_millis(50), run).await;
        assert!(timed.is_err(), "the job runs until cancelled");
        // The timeout dropped the request: the slot is freed once the job sees the flag.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while e.running() != 0 {
            assert!(std::time::Instant::now() < deadline, "job not cancelled");
            actix_web::rt::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }
}
