//! Building endgame table files: a whole set in the order of its plan, or one material of it,
//! reading the finished tables it needs from the output directory.
//!
//! Every file is written under a temporary name in the directory, flushed to the disk and
//! renamed, so a reader (a replica, another build) sees a whole file or none. A material whose
//! valid file is already there (its header, rules fingerprint, lengths and checksums check) is
//! kept: a build stopped at any moment and started again ends with the same files, and two
//! builds given the same material do no harm (each writes the same bytes under a name of its
//! own, and the second rename replaces the first file with an identical one).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant, SystemTime};

use arbiter_rules::tables::{self, Material, Progress, Step, Table, Tables};
use arbiter_rules::Variant;

use crate::tables::FILE_EXTENSION;

/// Why a build stopped: what the command line asked cannot be done (exit code 2), or the
/// work failed (1).
#[derive(Debug)]
pub enum BuildError {
    Usage(String),
    Failed(String),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Usage(s) | BuildError::Failed(s) => f.write_str(s),
        }
    }
}

/// A temporary file older than this is left from a build that stopped: the next build of its
/// material removes it. A build writes its file at once, in seconds, once it is solved.
pub const STALE_PARTIAL: Duration = Duration::from_secs(3600);

/// The file of `material` in `dir`: `<variant>-<material>.arbtb`.
pub fn file_path(dir: &Path, variant: &Variant, material: &Material) -> PathBuf {
    dir.join(format!(
        "{}-{}.{FILE_EXTENSION}",
        variant.id(),
        material.name()
    ))
}

/// What one material's build did.
pub struct Done {
    pub material: Material,
    /// Its table: built, or read from the file that was there (`None` for a file kept by
    /// [`build_material`], which checks it without reading its values).
    pub table: Option<Arc<Table>>,
    pub file_bytes: u64,
    /// Whether a valid file was there already (nothing was built).
    pub kept: bool,
    /// The build's time (`None` when kept).
    pub seconds: Option<f64>,
}

/// Whether `path` holds a valid table file of `material`: its size if it does.
fn valid_file(variant: &'static Variant, material: &Material, path: &Path) -> Option<u64> {
    let bytes = std::fs::read(path).ok()?;
    let m = Table::check_bytes(variant, &bytes).ok()?;
    (m == *material).then_some(bytes.len() as u64)
}

/// Reads the table of `material` from `dir` for a build that needs it.
fn read_needed(
    variant: &'static Variant,
    dir: &Path,
    material: &Material,
    by: &Material,
) -> Result<Table, BuildError> {
    let path = file_path(dir, variant, material);
    let bytes = std::fs::read(&path).map_err(|e| {
        BuildError::Usage(format!(
            "{} {by} needs the {material} table, and {} cannot be read ({e}): build {material} \
             first (the plan's earlier waves)",
            variant.id(),
            path.display()
        ))
    })?;
    let table = Table::from_bytes(variant, &bytes).map_err(|e| {
        BuildError::Usage(format!(
            "{} {by} needs the {material} table, and {} is refused: {e}; remove it and build \
             {material} again",
            variant.id(),
            path.display()
        ))
    })?;
    if table.material() != *material {
        return Err(BuildError::Usage(format!(
            "{} holds {}, not {material}",
            path.display(),
            table.material()
        )));
    }
    Ok(table)
}

/// Removes the temporary files of `path` left by builds that stopped ([`STALE_PARTIAL`]).
fn remove_stale_partials(path: &Path) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!(".{}.", name.to_string_lossy());
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let n = e.file_name().to_string_lossy().into_owned();
        if !n.starts_with(&prefix) || !n.ends_with(".partial") {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .is_some_and(|age| age > STALE_PARTIAL);
        if old {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Writes `data` to `path` atomically: a temporary file of its own in the same directory,
/// flushed to the disk, renamed over `path`, and the directory flushed.
pub fn write_atomically(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let partial = dir.join(format!(".{name}.{}-{nanos}.partial", std::process::id()));
    let written = (|| {
        let mut f = std::fs::File::create(&partial)?;
        f.write_all(data)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&partial, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    written?;
    // The rename itself, on the disk.
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Builds `material` with `needs` held and writes its file to `dir`.
fn build_one(
    variant: &'static Variant,
    material: Material,
    needs: Vec<Arc<Table>>,
    dir: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<Done, BuildError> {
    let mut tables = Tables::new(variant)
        .map_err(|u| BuildError::Usage(format!("{} has no endgame tables: {u}", variant.id())))?;
    for t in needs {
        tables.insert(t);
    }
    let at = Instant::now();
    let built = tables
        .build(material, progress)
        .map_err(|e| BuildError::Failed(format!("{} {material}: {e}", variant.id())))?;
    let seconds = at.elapsed().as_secs_f64();
    if built != [material] {
        // The plan lists every table a build reads: anything else built here is a fault.
        return Err(BuildError::Failed(format!(
            "{} {material}: built {built:?}, not {material} alone",
            variant.id()
        )));
    }
    let table = tables
        .get(&material)
        .cloned()
        .ok_or_else(|| BuildError::Failed(format!("{} {material}: not built", variant.id())))?;
    let data = table.to_bytes();
    let path = file_path(dir, variant, &material);
    remove_stale_partials(&path);
    write_atomically(&path, &data)
        .map_err(|e| BuildError::Failed(format!("cannot write {}: {e}", path.display())))?;
    Ok(Done {
        material,
        table: Some(table),
        file_bytes: data.len() as u64,
        kept: false,
        seconds: Some(seconds),
    })
}

fn create_dir(dir: &Path) -> Result<(), BuildError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| BuildError::Failed(format!("cannot create {}: {e}", dir.display())))
}

/// Builds the table of `material` alone into `dir`, reading the tables it needs
/// ([`tables::needs`]) from there; keeps a valid file already there.
pub fn build_material(
    variant: &'static Variant,
    material: Material,
    dir: &Path,
    progress: &mut dyn FnMut(Progress),
) -> Result<Done, BuildError> {
    tables::supported(variant)
        .map_err(|u| BuildError::Usage(format!("{} has no endgame tables: {}", variant.id(), u)))?;
    if tables::positions(variant, &material).is_none() {
        return Err(BuildError::Usage(format!(
            "{} cannot have the material {material}",
            variant.id()
        )));
    }
    create_dir(dir)?;
    let path = file_path(dir, variant, &material);
    if let Some(size) = valid_file(variant, &material, &path) {
        return Ok(Done {
            material,
            table: None,
            file_bytes: size,
            kept: true,
            seconds: None,
        });
    }
    let needs = tables::needs(variant, &material)
        .iter()
        .map(|n| read_needed(variant, dir, n, &material).map(Arc::new))
        .collect::<Result<Vec<_>, _>>()?;
    build_one(variant, material, needs, dir, progress)
}

/// How a whole set is built.
#[derive(Clone, Copy, Debug)]
pub struct SetOptions {
    /// Materials of a wave built at once.
    pub jobs: usize,
    /// A bound on the estimated working memory of the builds running at once, in bytes: a
    /// build waits until it fits (one build always runs).
    pub memory: Option<u64>,
}

/// What a whole set's build reports as it goes.
pub enum Event<'a> {
    /// A material's build progressed.
    Progress(Progress),
    /// A material is done (built or kept).
    Done(&'a Done),
}

/// The estimated memory of the builds running, against the bound.
struct Gate {
    running: Mutex<u64>,
    freed: Condvar,
    bound: Option<u64>,
}

impl Gate {
    fn enter(&self, bytes: u64) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        while let Some(bound) = self.bound {
            if *running == 0 || *running + bytes <= bound {
                break;
            }
            running = self.freed.wait(running).unwrap_or_else(|e| e.into_inner());
        }
        *running += bytes;
    }

    fn leave(&self, bytes: u64) {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        *running -= bytes;
        self.freed.notify_all();
    }
}

/// Builds every material of `steps` (a plan, [`tables::plan`]) into `dir`, wave by wave, up
/// to `options.jobs` materials of a wave at once, keeping the valid files already there; the
/// tables built or read stay in memory for the builds that need them. Returns every
/// material's [`Done`], in the plan's order.
pub fn build_set(
    variant: &'static Variant,
    steps: &[Step],
    dir: &Path,
    options: SetOptions,
    on: &(dyn Fn(Event) + Sync),
) -> Result<Vec<Done>, BuildError> {
    tables::supported(variant)
        .map_err(|u| BuildError::Usage(format!("{} has no endgame tables: {}", variant.id(), u)))?;
    create_dir(dir)?;
    let held: Mutex<HashMap<Material, Arc<Table>>> = Mutex::new(HashMap::new());
    let gate = Gate {
        running: Mutex::new(0),
        freed: Condvar::new(),
        bound: options.memory,
    };
    let mut all: Vec<Done> = Vec::with_capacity(steps.len());
    let waves = steps.iter().map(|s| s.wave).max().unwrap_or(0);
    for wave in 1..=waves {
        let of_wave: Vec<&Step> = steps.iter().filter(|s| s.wave == wave).collect();
        let next = Mutex::new(0usize);
        let results: Mutex<Vec<Option<Result<Done, BuildError>>>> =
            Mutex::new((0..of_wave.len()).map(|_| None).collect());
        let work = || loop {
            let i = {
                let mut n = next.lock().unwrap_or_else(|e| e.into_inner());
                let i = *n;
                *n += 1;
                i
            };
            let Some(step) = of_wave.get(i) else {
                break;
            };
            let failed = results
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .iter()
                .any(|r| matches!(r, Some(Err(_))));
            if failed {
                break;
            }
            let done = set_step(variant, step, dir, &held, &gate, on);
            if let Ok(d) = &done {
                on(Event::Done(d));
            }
            results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(done);
        };
        let jobs = options.jobs.clamp(1, of_wave.len().max(1));
        std::thread::scope(|s| {
            for _ in 1..jobs {
                s.spawn(work);
            }
            work();
        });
        for r in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
            match r {
                Some(Ok(d)) => all.push(d),
                Some(Err(e)) => return Err(e),
                None => {}
            }
        }
    }
    Ok(all)
}

/// One material of a whole set's build: kept if its file is valid (and read, for the builds
/// that need it), else built from the tables held.
fn set_step(
    variant: &'static Variant,
    step: &Step,
    dir: &Path,
    held: &Mutex<HashMap<Material, Arc<Table>>>,
    gate: &Gate,
    on: &(dyn Fn(Event) + Sync),
) -> Result<Done, BuildError> {
    let m = step.material;
    let path = file_path(dir, variant, &m);
    let kept = std::fs::read(&path)
        .ok()
        .and_then(|bytes| Some((Table::from_bytes(variant, &bytes).ok()?, bytes.len())))
        .filter(|(t, _)| t.material() == m);
    if let Some((table, size)) = kept {
        let table = Arc::new(table);
        held.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(m, table.clone());
        return Ok(Done {
            material: m,
            table: Some(table),
            file_bytes: size as u64,
            kept: true,
            seconds: None,
        });
    }
    let needs: Vec<Arc<Table>> = {
        let held = held.lock().unwrap_or_else(|e| e.into_inner());
        step.needs
            .iter()
            .map(|n| {
                held.get(n).cloned().ok_or_else(|| {
                    BuildError::Failed(format!("{} {m}: {n} is not built", variant.id()))
                })
            })
            .collect::<Result<_, _>>()?
    };
    gate.enter(step.working_bytes);
    let done = build_one(variant, m, needs, dir, &mut |p| on(Event::Progress(p)));
    gate.leave(step.working_bytes);
    let done = done?;
    if let Some(t) = &done.table {
        held.lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(m, t.clone());
    }
    Ok(done)
}

/// The material of index `index` of wave `wave` of a plan (the order of a wave is the plan's),
/// for the pods of an Indexed Job.
pub fn material_of_wave(steps: &[Step], wave: u32, index: usize) -> Result<Material, BuildError> {
    let of_wave: Vec<&Step> = steps.iter().filter(|s| s.wave == wave).collect();
    if of_wave.is_empty() {
        let waves = steps.iter().map(|s| s.wave).max().unwrap_or(0);
        return Err(BuildError::Usage(format!(
            "the plan has waves 1 to {waves}, not {wave}"
        )));
    }
    of_wave.get(index).map(|s| s.material).ok_or_else(|| {
        BuildError::Usage(format!(
            "wave {wave} has {} materials (indices 0 to {}), not index {index}",
            of_wave.len(),
            of_wave.len() - 1
        ))
    })
}

/// Memory a build process takes besides its tables (the program, its threads), in bytes.
const PROCESS_BYTES: u64 = 64 << 20;

/// The plan as JSON: every material, the waves, the totals.
pub fn plan_json(variant: &Variant, pieces: u32, steps: &[Step]) -> serde_json::Value {
    let materials: Vec<serde_json::Value> = steps
        .iter()
        .map(|s| {
            serde_json::json!({
                "material": s.material.name(),
                "wave": s.wave,
                "method": s.method.name(),
                "needs": s.needs.iter().map(Material::name).collect::<Vec<_>>(),
                "positions": s.indices,
                "file_bytes": s.file_bytes,
                "memory_bytes": s.memory_bytes + PROCESS_BYTES,
                "seconds": (s.seconds * 10.0).ceil() / 10.0,
            })
        })
        .collect();
    let t = totals(steps);
    let waves: Vec<serde_json::Value> = (1..=t.waves)
        .map(|w| {
            let of: Vec<&Step> = steps.iter().filter(|s| s.wave == w).collect();
            serde_json::json!({
                "wave": w,
                "materials": of.iter().map(|s| s.material.name()).collect::<Vec<_>>(),
                "memory_bytes": of.iter().map(|s| s.memory_bytes).max().unwrap_or(0)
                    + PROCESS_BYTES,
                "seconds": (of.iter().map(|s| s.seconds).fold(0.0, f64::max) * 10.0).ceil()
                    / 10.0,
            })
        })
        .collect();
    serde_json::json!({
        "variant": variant.id(),
        "pieces": pieces,
        "rates": {
            "solve_positions_per_second": tables::SOLVE_RATE,
            "mirror_positions_per_second": tables::MIRROR_RATE,
            "graph_positions_per_second": tables::GRAPH_RATE,
        },
        "materials": materials,
        "waves": waves,
        "total": {
            "materials": steps.len(),
            "waves": t.waves,
            "positions": t.positions,
            "file_bytes": t.file_bytes,
            "largest_memory_bytes": t.largest_memory + PROCESS_BYTES,
            "largest_memory_material": t.largest_material.map(|m| m.name()),
            "seconds": t.seconds.ceil(),
            "critical_path_seconds": t.critical.ceil(),
        },
    })
}

/// A plan's totals.
pub struct Totals {
    pub waves: u32,
    pub positions: u64,
    pub file_bytes: u64,
    /// The largest estimated memory of one build, without the process's own.
    pub largest_memory: u64,
    pub largest_material: Option<Material>,
    /// Every build's estimated time, summed: the work.
    pub seconds: f64,
    /// The longest build of each wave, summed: the time with a pod per material.
    pub critical: f64,
}

pub fn totals(steps: &[Step]) -> Totals {
    let waves = steps.iter().map(|s| s.wave).max().unwrap_or(0);
    let largest = steps.iter().max_by_key(|s| s.memory_bytes);
    Totals {
        waves,
        positions: steps.iter().map(|s| s.indices).sum(),
        file_bytes: steps.iter().map(|s| s.file_bytes).sum(),
        largest_memory: largest.map_or(0, |s| s.memory_bytes),
        largest_material: largest.map(|s| s.material),
        seconds: steps.iter().map(|s| s.seconds).sum(),
        critical: (1..=waves)
            .map(|w| {
                steps
                    .iter()
                    .filter(|s| s.wave == w)
                    .map(|s| s.seconds)
                    .fold(0.0, f64::max)
            })
            .sum(),
    }
}

/// Bytes as Kubernetes quantity in MiB, rounded up.
fn mebibytes(bytes: u64) -> String {
    format!("{}Mi", bytes.div_ceil(1 << 20))
}

/// The Kubernetes Jobs that build the set of a plan: one Indexed Job per wave, `completions`
/// its materials and `parallelism` at most `parallelism`, each pod building the material of
/// its index (`JOB_COMPLETION_INDEX`) into the claim `arbiter-tables`. Apply a wave once the
/// one before has completed (docs/endgame.md).
pub fn kubernetes(variant: &Variant, pieces: u32, steps: &[Step], parallelism: u32) -> String {
    let t = totals(steps);
    let id = variant.id();
    let mut out = String::new();
    for w in 1..=t.waves {
        let of: Vec<&Step> = steps.iter().filter(|s| s.wave == w).collect();
        let memory = of.iter().map(|s| s.memory_bytes).max().unwrap_or(0) + PROCESS_BYTES;
        let seconds = of.iter().map(|s| s.seconds).fold(0.0, f64::max);
        let names: Vec<String> = of.iter().map(|s| s.material.name()).collect();
        let mut listed = String::new();
        let mut line = String::from("#");
        for (i, n) in names.iter().enumerate() {
            let item = format!(" {i}={n}");
            if line.len() + item.len() > 96 {
                listed.push_str(&line);
                listed.push('\n');
                line = String::from("#");
            }
            line.push_str(&item);
        }
        listed.push_str(&line);
        listed.push('\n');
        out.push_str(&format!(
            "---\n\
             # `arbiter tables plan --variant {id} --pieces {pieces} --emit kubernetes`: wave {w} of\n\
             # {waves}; materials: {n}, the largest build about {mem} and {secs} s.\n\
             # {when}. Pod index = material:\n\
             {listed}\
             apiVersion: batch/v1\n\
             kind: Job\n\
             metadata:\n  \
               name: arbiter-tables-{id}-{pieces}-wave-{w}\n  \
               labels:\n    \
                 app.kubernetes.io/name: arbiter-tables\n    \
                 app.kubernetes.io/part-of: arbiter\n    \
                 app.kubernetes.io/component: tables-build\n    \
                 arbiter-tables/set: {id}-{pieces}\n    \
                 arbiter-tables/wave: \"{w}\"\n\
             spec:\n  \
               completionMode: Indexed\n  \
               completions: {n}\n  \
               parallelism: {par}\n  \
               backoffLimit: {backoff}\n  \
               template:\n    \
                 metadata:\n      \
                   labels:\n        \
                     app.kubernetes.io/name: arbiter-tables\n        \
                     app.kubernetes.io/component: tables-build\n    \
                 spec:\n      \
                   restartPolicy: OnFailure\n      \
                   automountServiceAccountToken: false\n      \
                   enableServiceLinks: false\n      \
                   securityContext:\n        \
                     runAsNonRoot: true\n        \
                     runAsUser: 65532\n        \
                     runAsGroup: 65532\n        \
                     fsGroup: 65532\n        \
                     fsGroupChangePolicy: OnRootMismatch\n        \
                     seccompProfile:\n          \
                       type: RuntimeDefault\n      \
                   containers:\n        \
                     - name: build\n          \
                       image: arbiter:0.1.0\n          \
                       imagePullPolicy: IfNotPresent\n          \
                       # The material of JOB_COMPLETION_INDEX in the wave.\n          \
                       args: [\"tables\", \"build\", \"--variant\", \"{id}\", \"--pieces\", \"{pieces}\", \"--wave\", \"{w}\",\n                 \
                              \"--out\", \"/var/lib/arbiter/tables\"]\n          \
                       resources:\n            \
                         requests:\n              \
                           cpu: \"1\"\n              \
                           memory: {mem}\n            \
                         limits:\n              \
                           memory: {limit}\n          \
                       volumeMounts:\n            \
                         - name: tables\n              \
                           mountPath: /var/lib/arbiter/tables\n          \
                       securityContext:\n            \
                         allowPrivilegeEscalation: false\n            \
                         readOnlyRootFilesystem: true\n            \
                         runAsNonRoot: true\n            \
                         privileged: false\n            \
                         capabilities:\n              \
                           drop: [\"ALL\"]\n            \
                         seccompProfile:\n              \
                           type: RuntimeDefault\n      \
                   volumes:\n        \
                     - name: tables\n          \
                       persistentVolumeClaim:\n            \
                         claimName: arbiter-tables\n",
            waves = t.waves,
            n = of.len(),
            mem = mebibytes(memory),
            // Twice the estimate: a build whose counting rules' pass lists most of its states
            // takes more than the plan's bytes an index (international KKKKKvM, built alone:
            // 7.6 GiB at its peak against 4.2 GiB estimated), as a first-use build's
            // reservation allows for (`src/tables.rs`).
            limit = mebibytes(2 * memory),
            secs = seconds.ceil(),
            when = if w == 1 {
                "Apply it first".to_string()
            } else {
                format!("Apply it once wave {} has completed", w - 1)
            },
            par = parallelism.min(of.len() as u32).max(1),
            backoff = 2 * of.len() + 4,
        ));
    }
    out
}
