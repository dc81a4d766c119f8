//! The endgame tables a replica serves: prebuilt files loaded at startup, and small tables
//! computed on first use and kept in memory.
//!
//! - **Prebuilt** (`ARBITER_TABLES_DIR`): every `*.arbtb` file of the directory (written by
//!   `arbiter tables build`) is memory-mapped at startup and read in place
//!   ([`Table::from_shared`]), which checks its header (variant, material, rules fingerprint)
//!   and its checksums (reading the file once, through the page cache); a file it refuses is
//!   skipped with a warning. A probe reads the few bytes it needs from the map: the values
//!   live in the kernel's page cache, shared and reclaimable, not in the replica's own
//!   (anonymous) memory, whatever the size of the set. The files must not be rewritten in
//!   place while a replica serves them (replace a file by renaming a new one over it, or serve
//!   a read-only volume). Prebuilt tables are never evicted; their bytes are counted apart
//!   ([`TableStore::prebuilt_bytes`]): the size of the mapped values.
//! - **Built-in** (`ARBITER_TABLES_BUILTIN_PIECES`, default 4): a position with at most that
//!   many pieces (in a drop game, whose tables solve the game whole, any position while the
//!   bound is not 0) whose table is missing has it computed ([`Tables::build`], with every table
//!   it leads to) on a thread of its own, one build at a time per replica. A request waits for
//!   the build up to `ARBITER_TABLES_BUILD_WAIT` seconds and is otherwise answered 503
//!   `endgame-building` with `Retry-After` while the build goes on; concurrent requests for the
//!   same table wait for the same build. A build that fails is not tried again.
//! - **One memory budget** (`ARBITER_TABLES_MEMORY_BYTES`) holds the tables built here and the
//!   build running, together. Before a build starts, its peak is estimated
//!   ([`tables::build_memory`]: the tables it will build and the working memory of the largest
//!   step). A material whose build alone, from the prebuilt tables, would pass the budget is
//!   never built: its positions are outside this replica's tables (404, the problem naming
//!   the budget), as `/endgame/tables` lists. Otherwise the built tables of the variants used
//!   least recently are dropped until the build fits beside what stays; tables dropped but
//!   still read by a request in flight count until it lets them go, and the build waits for
//!   that. After a build, the built tables stay within the budget the same way.
//!
//! Everything here is a cache of values that are a pure function of the rules: a replica
//! answers the same with or without it, only sooner.

use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use arbiter_rules::tables::{self, Material, RulesError, Table, TableValue, Tables, Value};
use arbiter_rules::{Budget, DrawClock, GenError};
use arbiter_rules::{Position, Variant};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::config::TablesConfig;

/// The extension of a table file.
pub const FILE_EXTENSION: &str = "arbtb";

/// `Retry-After` of an `endgame-building` answer, in seconds.
pub const RETRY_AFTER_BUILDING_SECS: u64 = 5;

/// What tables exist for a variant: the problem document of a position outside them says it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Available {
    /// Positions with at most this many pieces are computed on first use (0: none are). The
    /// drop games, whose tables solve the game whole, are bounded by their positions only.
    #[schema(example = 4)]
    pub builtin_pieces: u32,
    /// ... and at most this many positions in their table (a larger one is served only from a
    /// prebuilt file). A table solved over an explicit graph (the drop games, BrainKing's
    /// Alquerque, the Camelot family), which holds each move both ways while it solves, counts
    /// its estimated working memory in units of 8 bytes, the memory of a position of the
    /// other tables.
    #[schema(example = 50000000)]
    pub builtin_max_positions: u64,
    /// ... and whose build fits in this many bytes, beside the prebuilt tables: the replica's
    /// memory budget for the tables it computes and the build computing them.
    #[schema(example = 671088640)]
    pub builtin_memory_bytes: u64,
    /// The materials of the tables loaded from files (`ARBITER_TABLES_DIR`), by name: White's
    /// pieces, `v`, Black's; `K` a king, `M` a man, `P` a parachutist, `N` a knight.
    #[schema(example = json!(["KKvK", "KMvK", "KKvKK"]))]
    pub prebuilt: Vec<String>,
}

/// Why a position has no value from the tables (besides "not in the tables", `Ok(None)`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TablesError {
    /// The variant has no tables (`arbiter_rules::tables::supported`).
    Unsupported {
        variant: &'static str,
        reason: &'static str,
    },
    /// The table is being computed and was not ready within the wait; retry later.
    Building {
        material: Material,
        retry_after: u64,
    },
    /// The table could not be computed (too large); it will not be tried again.
    Failed { material: Material, reason: String },
    /// The value under the counting rules needed more engine work than the request may do:
    /// the search of counts the tables do not hold.
    Work(GenError),
}

impl std::fmt::Display for TablesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TablesError::Unsupported { variant, reason } => {
                write!(f, "{variant} has no endgame tables: {reason}")
            }
            TablesError::Building {
                material,
                retry_after,
            } => write!(
                f,
                "the {material} table is being computed on this replica; retry after \
                 {retry_after} s"
            ),
            TablesError::Failed { material, reason } => {
                write!(f, "the {material} table cannot be computed: {reason}")
            }
            TablesError::Work(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TablesError {}

/// Counters for `/metrics`.
#[derive(Debug, Default)]
pub struct StoreStats {
    /// Probes answered from the tables.
    pub hits: AtomicU64,
    /// Probes of positions outside the tables.
    pub misses: AtomicU64,
    /// Tables computed on this replica.
    pub built: AtomicU64,
    /// Variants whose built tables were dropped to stay within the memory budget.
    pub evictions: AtomicU64,
}

/// The tables of every variant a replica serves (shared by all its workers).
pub struct TableStore {
    inner: Arc<Inner>,
}

/// Tables by variant id.
type ByVariant = HashMap<&'static str, Vec<Arc<Table>>>;

struct Inner {
    config: TablesConfig,
    /// Tables read from files, by variant id.
    prebuilt: ByVariant,
    prebuilt_bytes: usize,
    state: Mutex<State>,
    /// Notified when a build ends.
    changed: Condvar,
    stats: StoreStats,
}

#[derive(Default)]
struct State {
    variants: HashMap<&'static str, Cached>,
    /// Ticks of the least-recently-used clock.
    clock: u64,
    /// The build running now, if any.
    building: Option<(&'static str, Material)>,
    /// Built tables dropped from the cache that requests in flight may still hold.
    draining: Vec<std::sync::Weak<Table>>,
    /// Builds that failed, with why.
    failed: HashMap<(&'static str, Material), String>,
}

/// One variant's tables in memory: its prebuilt ones and those built here.
struct Cached {
    tables: Tables,
    /// Memory of the tables built here (not the prebuilt ones).
    built_bytes: usize,
    last_used: u64,
}

impl std::fmt::Debug for TableStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TableStore")
            .field("config", &self.inner.config)
            .field("prebuilt_bytes", &self.inner.prebuilt_bytes)
            .finish()
    }
}

impl TableStore {
    /// The store `cfg` describes: with a directory, every table file in it is read now (a
    /// file whose header does not match is skipped with a warning); an unreadable directory
    /// is an error.
    pub fn from_config(cfg: &TablesConfig) -> Result<TableStore, String> {
        if cfg.builtin_pieces > 0 {
            allocator::release_large_blocks();
        }
        let (prebuilt, prebuilt_bytes) = match &cfg.dir {
            Some(dir) => load_dir(dir)?,
            None => (HashMap::new(), 0),
        };
        Ok(TableStore {
            inner: Arc::new(Inner {
                config: cfg.clone(),
                prebuilt,
                prebuilt_bytes,
                state: Mutex::new(State::default()),
                changed: Condvar::new(),
                stats: StoreStats::default(),
            }),
        })
    }

    /// The configuration it was built with.
    pub fn config(&self) -> &TablesConfig {
        &self.inner.config
    }

    /// Its counters.
    pub fn stats(&self) -> &StoreStats {
        &self.inner.stats
    }

    /// Tables loaded from files, over every variant.
    pub fn prebuilt_count(&self) -> usize {
        self.inner.prebuilt.values().map(Vec::len).sum()
    }

    /// Bytes of the values of the tables loaded from files, mapped from the files (page
    /// cache, not the replica's own memory).
    pub fn prebuilt_bytes(&self) -> usize {
        self.inner.prebuilt_bytes
    }

    /// Tables built on this replica and in memory now, and their memory in bytes.
    pub fn built(&self) -> (usize, usize) {
        let state = self.lock();
        let prebuilt = |id: &str| self.inner.prebuilt.get(id).map_or(0, Vec::len);
        state.variants.iter().fold((0, 0), |(n, bytes), (id, c)| {
            (
                n + c.tables.materials().len().saturating_sub(prebuilt(id)),
                bytes + c.built_bytes,
            )
        })
    }

    /// Whether `variant` has tables at all.
    pub fn check(&self, variant: &'static Variant) -> Result<(), TablesError> {
        tables::supported(variant).map_err(|u| TablesError::Unsupported {
            variant: variant.id(),
            reason: u.reason,
        })
    }

    /// What exists for `variant`: the built-in bound and the prebuilt materials.
    pub fn available(&self, variant: &'static Variant) -> Available {
        let mut prebuilt: Vec<Material> = self
            .inner
            .prebuilt
            .get(variant.id())
            .map(|ts| ts.iter().map(|t| t.material()).collect())
            .unwrap_or_default();
        prebuilt.sort();
        Available {
            builtin_pieces: self.inner.config.builtin_pieces,
            builtin_max_positions: self.inner.config.builtin_max_positions,
            builtin_memory_bytes: self.inner.config.memory_bytes,
            prebuilt: prebuilt.iter().map(Material::name).collect(),
        }
    }

    /// Whether `material` of `variant` is computed on first use here: within the built-in
    /// number of pieces and positions, and its build, beside the variant's prebuilt tables,
    /// within the memory budget.
    pub fn builds(&self, variant: &'static Variant, material: &Material) -> bool {
        let config = &self.inner.config;
        // A drop game's materials count the stones in hand: they are bounded by their
        // positions only (a whole game is a few million), unless built-in tables are off.
        let pieces = if tables::whole_game(variant) {
            config.builtin_pieces > 0
        } else {
            material.pieces() <= config.builtin_pieces
        };
        pieces
            && tables::build_cost(variant, material)
                .is_some_and(|n| n <= config.builtin_max_positions)
            && self
                .scratch_memory(variant, material)
                .is_some_and(|bytes| bytes <= config.memory_bytes)
    }

    /// The memory reserved for building `material` with only the prebuilt tables held.
    fn scratch_memory(&self, variant: &'static Variant, material: &Material) -> Option<u64> {
        let prebuilt = self.inner.prebuilt.get(variant.id());
        tables::build_memory(variant, material, &|m| {
            prebuilt.is_some_and(|ts| ts.iter().any(|t| t.material() == *m))
        })
        .map(reserve)
    }

    /// The value of `pos` for the side to move, computing its table (and every table it leads
    /// to) first if it has at most the built-in number of pieces. Blocking: it may wait up to
    /// the configured build wait, so call it off the I/O workers (`web::block` or the engine
    /// pool). `Ok(None)`: not in the tables (more pieces than the built-in bound and no
    /// prebuilt table). Once it has answered `Some`, the tables of every position a move leads
    /// to are in memory too, and [`TableStore::lookup`] finds them.
    pub fn probe(
        &self,
        variant: &'static Variant,
        pos: &Position,
    ) -> Result<Option<Value>, TablesError> {
        let deadline = Instant::now() + self.inner.config.build_wait;
        // With a deadline there is always an answer.
        self.probe_until(variant, pos, Some(deadline))
            .unwrap_or(Ok(None))
    }

    /// [`TableStore::probe`] without waiting: `None` when the answer needs a table built
    /// first (the build is not started); a probe that can answer at once does. For the I/O
    /// workers, which must not block.
    pub fn try_probe(
        &self,
        variant: &'static Variant,
        pos: &Position,
    ) -> Option<Result<Option<Value>, TablesError>> {
        self.probe_until(variant, pos, None)
    }

    /// The probe: with a deadline, builds what is missing and waits for it up to then; without,
    /// answers `None` where it would build.
    fn probe_until(
        &self,
        variant: &'static Variant,
        pos: &Position,
        deadline: Option<Instant>,
    ) -> Option<Result<Option<Value>, TablesError>> {
        if let Err(e) = self.check(variant) {
            return Some(Err(e));
        }
        let id = variant.id();
        let material = tables::material_of(variant, pos);
        let mut state = self.lock();
        loop {
            if let Some(value) = self.lookup_locked(&mut state, variant, pos) {
                self.inner.stats.hits.fetch_add(1, Ordering::Relaxed);
                return Some(Ok(Some(value)));
            }
            if !self.builds(variant, &material) {
                self.inner.stats.misses.fetch_add(1, Ordering::Relaxed);
                return Some(Ok(None));
            }
            if let Some(reason) = state.failed.get(&(id, material)) {
                return Some(Err(TablesError::Failed {
                    material,
                    reason: reason.clone(),
                }));
            }
            let deadline = deadline?;
            // Waiting for memory that requests in flight still hold: look again soon (their
            // release notifies no one).
            let mut wake = deadline;
            if state.building.is_none() && !self.start_build(&mut state, variant, material) {
                wake = wake.min(Instant::now() + MEMORY_POLL);
            }
            let now = Instant::now();
            if now >= deadline {
                return Some(Err(TablesError::Building {
                    material,
                    retry_after: RETRY_AFTER_BUILDING_SECS,
                }));
            }
            state = match self
                .inner
                .changed
                .wait_timeout(state, wake.saturating_duration_since(now))
            {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }

    /// What the tables say of `pos` in a game whose counted draw rules stand at `clock`: its
    /// game-theoretic value and its value under the counting rules ([`TableValue`]),
    /// charged to `budget`. Builds and waits as [`TableStore::probe`] does; the value under
    /// the rules is read (or, for counts the tables do not hold, searched) on a snapshot of
    /// the variant's tables, outside the store's lock.
    pub fn probe_game(
        &self,
        variant: &'static Variant,
        pos: &Position,
        clock: &DrawClock,
        budget: &Budget,
    ) -> Result<Option<TableValue>, TablesError> {
        if self.probe(variant, pos)?.is_none() {
            return Ok(None);
        }
        let Some(tables) = self.snapshot(variant) else {
            return Ok(None);
        };
        under_rules(&tables, pos, clock, budget)
    }

    /// The tables of `variant` in memory now (the tables are shared, not copied), marking
    /// them used: for reading values outside the store's lock.
    pub fn snapshot(&self, variant: &'static Variant) -> Option<Tables> {
        tables::supported(variant).ok()?;
        let mut state = self.lock();
        state.clock += 1;
        let clock = state.clock;
        let cached = cached(&self.inner, &mut state, variant)?;
        cached.last_used = clock;
        Some(cached.tables.clone())
    }

    /// The value of `pos` if its table is in memory now (never builds, never waits): for the
    /// positions after the moves of a position [`TableStore::probe`] answered.
    pub fn lookup(&self, variant: &'static Variant, pos: &Position) -> Option<Value> {
        tables::supported(variant).ok()?;
        let mut state = self.lock();
        self.lookup_locked(&mut state, variant, pos)
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The state stays consistent across a panic (a build runs outside the lock).
        self.inner
            .state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// The value of `pos` from the variant's tables in memory, marking them used.
    fn lookup_locked(
        &self,
        state: &mut State,
        variant: &'static Variant,
        pos: &Position,
    ) -> Option<Value> {
        state.clock += 1;
        let clock = state.clock;
        let cached = cached(&self.inner, state, variant)?;
        cached.last_used = clock;
        cached.tables.probe(pos)
    }

    /// Starts building `material` of `variant` on a thread of its own, once its estimated
    /// memory fits the budget beside the tables kept (dropping the built tables of the
    /// variants used least recently first); when it ends, the tables are in the cache (or the
    /// failure is recorded) and waiting probes are woken. `false`: not started, because
    /// tables dropped are still held by requests in flight.
    fn start_build(
        &self,
        state: &mut State,
        variant: &'static Variant,
        material: Material,
    ) -> bool {
        let id = variant.id();
        let budget = self.inner.config.memory_bytes;
        let Some(current) = cached(&self.inner, state, variant) else {
            return true;
        };
        let estimate = |tables: &Tables| {
            tables::build_memory(variant, &material, &|m| tables.get(m).is_some())
                .map_or(u64::MAX, reserve)
        };
        let mut need = estimate(&current.tables);
        // Room for the build: the other variants' built tables go first, least recently used
        // first; this variant's own built tables last (the build then makes them again).
        while kept_bytes(state) + need > budget {
            if !drop_least_used(&self.inner, state, Some(id)) {
                if !drop_variant(&self.inner, state, id) {
                    break;
                }
                let Some(current) = cached(&self.inner, state, variant) else {
                    return true;
                };
                need = estimate(&current.tables);
            }
        }
        if kept_bytes(state) + need > budget {
            // Only tables that requests in flight still read stand in the way (`builds`
            // checked that the build fits alone): wait for them.
            tracing::debug!(variant = id, material = %material, need, "table build waits for memory");
            return false;
        }
        let Some(current) = cached(&self.inner, state, variant) else {
            return true;
        };
        // The build works on a copy of the variant's tables (the tables are shared, not
        // copied), so that probes go on while it runs.
        let Ok(mut tables) = Tables::new(variant) else {
            return true;
        };
        for m in current.tables.materials() {
            if let Some(t) = current.tables.get(&m) {
                tables.insert(t.clone());
            }
        }
        state.building = Some((id, material));
        let inner = self.inner.clone();
        let spawned = std::thread::Builder::new()
            .name("arbiter-tables-build".to_string())
            .spawn(move || build(inner, tables, variant, material));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start a table build");
            state.building = None;
            state
                .failed
                .insert((id, material), "the build could not be started".into());
        }
        true
    }
}

/// The memory reserved for a build estimated at `estimate` bytes ([`tables::build_memory`]):
/// twice the estimate and 16 MiB. Measured as the growth of a process's peak resident memory
/// over a first-use build from nothing, with the allocator settings of [`allocator`], the
/// estimate ranges from 0.48 of it (Frisian KKvKK, whose counting-rules pass keeps a list
/// entry for most states) to 1.2 of it (Russian KMMvM); docs/operations.md gives the table.
fn reserve(estimate: u64) -> u64 {
    estimate.saturating_mul(2).saturating_add(16 << 20)
}

/// The memory a replica reserves to compute `material` of `variant` on first use with no
/// table held ([`reserve`] of [`tables::build_memory`]); `None` when the variant cannot have
/// it.
pub fn first_use_memory(variant: &Variant, material: &Material) -> Option<u64> {
    tables::build_memory(variant, material, &|_| false).map(reserve)
}

/// How often a build waiting for memory held by requests in flight looks again.
const MEMORY_POLL: Duration = Duration::from_millis(50);

/// The memory the tables built here take now: those in the cache, and those dropped from it
/// that a request in flight still holds.
fn kept_bytes(state: &mut State) -> u64 {
    state.draining.retain(|w| w.strong_count() > 0);
    let cached: usize = state.variants.values().map(|c| c.built_bytes).sum();
    let draining: usize = state
        .draining
        .iter()
        .filter_map(std::sync::Weak::upgrade)
        .map(|t| t.bytes())
        .sum();
    (cached + draining) as u64
}

/// [`Tables::probe_game`] with its errors as the store's.
pub fn under_rules(
    tables: &Tables,
    pos: &Position,
    clock: &DrawClock,
    budget: &Budget,
) -> Result<Option<TableValue>, TablesError> {
    tables.probe_game(pos, clock, budget).map_err(|e| match e {
        RulesError::Missing(material) => TablesError::Failed {
            material,
            reason: "a table the value under the counting rules needs is not in memory".into(),
        },
        RulesError::Gen(e) => TablesError::Work(e),
        RulesError::TooLarge => TablesError::Work(GenError::Budget {
            limit: budget.limit(),
        }),
    })
}

/// The cache entry of `variant`, made from its prebuilt tables if it has none.
fn cached<'a>(
    inner: &Inner,
    state: &'a mut State,
    variant: &'static Variant,
) -> Option<&'a mut Cached> {
    use std::collections::hash_map::Entry;
    match state.variants.entry(variant.id()) {
        Entry::Occupied(e) => Some(e.into_mut()),
        Entry::Vacant(e) => {
            let tables = prebuilt_tables(inner, variant)?;
            Some(e.insert(Cached {
                tables,
                built_bytes: 0,
                last_used: 0,
            }))
        }
    }
}

/// The variant's prebuilt tables as a [`Tables`] (`None` if the variant has no tables).
fn prebuilt_tables(inner: &Inner, variant: &'static Variant) -> Option<Tables> {
    let mut tables = Tables::new(variant).ok()?;
    for t in inner.prebuilt.get(variant.id()).into_iter().flatten() {
        tables.insert(t.clone());
    }
    Some(tables)
}

/// The body of a build thread.
fn build(inner: Arc<Inner>, mut tables: Tables, variant: &'static Variant, material: Material) {
    let id = variant.id();
    let started = Instant::now();
    tracing::info!(variant = id, material = %material, "building endgame tables");
    let mut last_log = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| {
        tables.build(material, &mut |p| {
            if last_log.elapsed() >= Duration::from_secs(5) {
                last_log = Instant::now();
                tracing::info!(
                    variant = id,
                    material = %p.material,
                    done = p.done,
                    total = p.total,
                    "building endgame tables"
                );
            }
        })
    }));
    let mut state = inner
        .state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match result {
        Ok(Ok(built)) => {
            let prebuilt: Vec<Material> = inner
                .prebuilt
                .get(id)
                .map(|ts| ts.iter().map(|t| t.material()).collect())
                .unwrap_or_default();
            let built_bytes = tables
                .materials()
                .iter()
                .filter(|m| !prebuilt.contains(m))
                .filter_map(|m| tables.get(m))
                .map(|t| t.bytes())
                .sum();
            inner
                .stats
                .built
                .fetch_add(built.len() as u64, Ordering::Relaxed);
            tracing::info!(
                variant = id,
                material = %material,
                tables = built.len(),
                bytes = built_bytes,
                seconds = started.elapsed().as_secs_f64(),
                "endgame tables built"
            );
            state.clock += 1;
            let clock = state.clock;
            state.variants.insert(
                id,
                Cached {
                    tables,
                    built_bytes,
                    last_used: clock,
                },
            );
            evict(&inner, &mut state, id);
        }
        Ok(Err(e)) => {
            tracing::warn!(variant = id, material = %material, error = %e, "endgame table not built");
            state.failed.insert((id, material), e.to_string());
        }
        Err(_) => {
            tracing::error!(variant = id, material = %material, "endgame table build panicked");
            state
                .failed
                .insert((id, material), "the build failed".to_string());
        }
    }
    state.building = None;
    drop(state);
    // What the build freed and the allocator kept goes back to the system.
    allocator::trim();
    inner.changed.notify_all();
}

/// The allocator's side of the memory budget. A build allocates and frees hundreds of MiB in
/// blocks of every size; glibc's allocator keeps freed blocks below its mapping threshold for
/// reuse, and raises that threshold (up to 32 MiB) each time a mapped block is freed, so a
/// replica would keep the memory of builds long done, outside the budget's account. Measured
/// on English KMvKM's first-use set (25 tables): the process held 32 MiB after the build for
/// 10 MiB of tables, and peaked at 48 MiB; with blocks of 1 MiB and more always mapped, it
/// held 11 MiB and peaked at 35 MiB, in the same time.
mod allocator {
    /// Blocks of at least this many bytes are mapped from the system and returned on free.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    const MMAP_THRESHOLD: libc::c_int = 1 << 20;

    /// Fixes glibc's mapping threshold at [`MMAP_THRESHOLD`] (which also stops its raising).
    pub fn release_large_blocks() {
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        {
            static ONCE: std::sync::Once = std::sync::Once::new();
            // SAFETY: mallopt sets a parameter of the allocator; the value is in its range.
            ONCE.call_once(|| unsafe {
                libc::mallopt(libc::M_MMAP_THRESHOLD, MMAP_THRESHOLD);
            });
        }
    }

    /// Returns the free memory the allocator holds to the system.
    pub fn trim() {
        // SAFETY: malloc_trim only releases free memory of the allocator.
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        unsafe {
            libc::malloc_trim(0);
        }
    }
}

/// Drops the built tables of the variants used least recently (never `keep`'s) until the
/// built tables fit the memory budget.
fn evict(inner: &Inner, state: &mut State, keep: &str) {
    let bound = inner.config.memory_bytes;
    while kept_bytes(state) > bound {
        if !drop_least_used(inner, state, Some(keep)) {
            tracing::warn!(
                variant = keep,
                bytes = kept_bytes(state),
                bound,
                "the built tables exceed ARBITER_TABLES_MEMORY_BYTES"
            );
            return;
        }
    }
}

/// Drops the built tables of the variant used least recently that has any (not `except`).
/// `false`: there is none.
fn drop_least_used(inner: &Inner, state: &mut State, except: Option<&str>) -> bool {
    let victim = state
        .variants
        .iter()
        .filter(|(id, c)| Some(**id) != except && c.built_bytes > 0)
        .min_by_key(|(_, c)| c.last_used)
        .map(|(id, _)| *id);
    victim.is_some_and(|id| drop_variant(inner, state, id))
}

/// Drops the tables built here of variant `id`, keeping its prebuilt ones; the dropped ones
/// are watched until the requests holding them let them go. `false`: it had none.
fn drop_variant(inner: &Inner, state: &mut State, id: &str) -> bool {
    let Some(c) = state.variants.get(id) else {
        return false;
    };
    if c.built_bytes == 0 {
        return false;
    }
    let prebuilt = inner.prebuilt.get(id);
    let dropped: Vec<std::sync::Weak<Table>> = c
        .tables
        .materials()
        .iter()
        .filter_map(|m| c.tables.get(m))
        .filter(|t| prebuilt.is_none_or(|ps| !ps.iter().any(|p| Arc::ptr_eq(p, t))))
        .map(Arc::downgrade)
        .collect();
    let replacement = arbiter_rules::variant(id).and_then(|v| prebuilt_tables(inner, v));
    match replacement {
        Some(tables) => {
            if let Some(c) = state.variants.get_mut(id) {
                c.tables = tables;
                c.built_bytes = 0;
            }
        }
        None => {
            state.variants.remove(id);
        }
    }
    state.draining.extend(dropped);
    inner.stats.evictions.fetch_add(1, Ordering::Relaxed);
    tracing::info!(variant = id, "endgame tables dropped from the cache");
    true
}

/// Maps every `*.arbtb` file of `dir`: the tables by variant id, and the bytes of their values.
fn load_dir(dir: &Path) -> Result<(ByVariant, usize), String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the tables directory {}: {e}", dir.display()))?;
    let mut paths: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == FILE_EXTENSION))
        .collect();
    paths.sort();
    let mut by_variant = ByVariant::new();
    let mut bytes = 0;
    for path in paths {
        match load_file(&path) {
            Ok(table) => {
                let id = variant_of_file(&path).map_or("?", Variant::id);
                let list = by_variant.entry(id).or_default();
                if list.iter().any(|t| t.material() == table.material()) {
                    tracing::warn!(file = %path.display(), "a second table of the same material: skipped");
                    continue;
                }
                bytes += table.data_bytes();
                tracing::info!(
                    file = %path.display(),
                    variant = id,
                    material = %table.material(),
                    bytes = table.data_bytes(),
                    "endgame table mapped"
                );
                list.push(Arc::new(table));
            }
            Err(e) => {
                tracing::warn!(file = %path.display(), error = %e, "endgame table file refused");
            }
        }
    }
    Ok((by_variant, bytes))
}

/// The variant a table file is named for (`<variant>-<material>.arbtb`): the longest variant
/// id the name starts with, followed by `-`.
pub fn variant_of_file(path: &Path) -> Option<&'static Variant> {
    let stem = path.file_stem()?.to_str()?;
    arbiter_rules::variants()
        .iter()
        .filter(|v| {
            stem.strip_prefix(v.id())
                .is_some_and(|rest| rest.starts_with('-'))
        })
        .max_by_key(|v| v.id().len())
}

/// Maps one table file and reads it in place, for the variant its name gives (the header is
/// checked against it, and the checksums).
pub fn load_file(path: &Path) -> Result<Table, String> {
    let variant = variant_of_file(path).ok_or_else(|| {
        format!(
            "the file name does not start with a variant id and '-' \
             (<variant>-<material>.{FILE_EXTENSION})"
        )
    })?;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot read it: {e}"))?;
    // SAFETY: the map is read only, and the files are not changed while a replica serves
    // them (the module's documentation says so; a read-only volume in the manifests). A file
    // truncated under the map would fault the process, as a disk failing under it would.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| format!("cannot map it: {e}"))?;
    Table::from_shared(variant, Arc::new(map)).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::{first_use_memory, variant_of_file, TableStore, TablesError};
    use crate::config::TablesConfig;
    use arbiter_rules::tables::Material;
    use std::path::Path;
    use std::time::Duration;

    /// A build that needs the memory of tables dropped from the cache waits while a request
    /// still holds them (a snapshot), and starts once it lets them go.
    #[test]
    fn a_build_waits_for_dropped_tables_a_request_holds() {
        let english = arbiter_rules::variant("english").unwrap();
        let russian = arbiter_rules::variant("russian").unwrap();
        let kkvk = Material::parse("KKvK").unwrap();
        let (e, r) = (
            first_use_memory(english, &kkvk).unwrap(),
            first_use_memory(russian, &kkvk).unwrap(),
        );
        // The smaller first, so that the larger cannot be built beside its tables.
        let ((first, first_fen), (second, second_fen)) = if e <= r {
            ((english, "B:WK14,K18:BK5"), (russian, "W:WKc3,Ke1:BKh8"))
        } else {
            ((russian, "W:WKc3,Ke1:BKh8"), (english, "B:WK14,K18:BK5"))
        };
        let store = TableStore::from_config(&TablesConfig {
            memory_bytes: e.max(r),
            build_wait: Duration::from_secs(60),
            ..TablesConfig::default()
        })
        .unwrap();
        let first_pos = first.parse_fen(first_fen).unwrap();
        assert!(store.probe(first, &first_pos).unwrap().is_some());
        let held = store.snapshot(first).unwrap();

        let second_pos = second.parse_fen(second_fen).unwrap();
        let quick = TableStore {
            inner: store.inner.clone(),
        };
        // Waits (a short wait: answered "building"), and has not started.
        let deadline = std::time::Instant::now() + Duration::from_millis(300);
        let waited = quick.probe_until(second, &second_pos, Some(deadline));
        assert!(
            matches!(waited, Some(Err(TablesError::Building { .. }))),
            "{waited:?}"
        );
        assert!(store.lock().building.is_none());
        assert!(
            store.lookup(first, &first_pos).is_none(),
            "the first was dropped"
        );
        assert!(
            held.probe(&first_pos).is_some(),
            "the request still reads it"
        );

        drop(held);
        assert!(store.probe(second, &second_pos).unwrap().is_some());
    }

    #[test]
    fn a_file_is_named_for_its_variant() {
        let id = |name: &str| variant_of_file(Path::new(name)).map(|v| v.id());
        assert_eq!(id("english-KKvK.arbtb"), Some("english"));
        assert_eq!(
            id("/tables/international-KMvKK.arbtb"),
            Some("international")
        );
        assert_eq!(id("englishKKvK.arbtb"), None);
        assert_eq!(id("chess-KvK.arbtb"), None);
        // The longest id that the name starts with, then '-'.
        for v in arbiter_rules::variants() {
            let name = format!("{}-KvK.arbtb", v.id());
            assert_eq!(id(&name), Some(v.id()), "{name}");
        }
    }
}
