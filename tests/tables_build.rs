//! Building table sets the distributed way: the plan's materials built one per process, two
//! processes at a time in the plan's order, give the files of the one-process build byte for
//! byte; so does `--jobs`; a build stopped part way (a temporary file left, a file cut short,
//! one damaged, one missing) is finished by running it again; and the Kubernetes Jobs of
//! `k8s/tables-build/` are the ones `tables plan --emit kubernetes` renders.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

use serde_json::Value;

const VARIANT: &str = "english";
const PIECES: &str = "4";

fn arbiter() -> Command {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
}

fn run(args: &[&str]) -> Output {
    arbiter()
        .args(args)
        .env_remove("JOB_COMPLETION_INDEX")
        .output()
        .expect("run arbiter")
}

fn ok(out: Output) -> Output {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file of `dir` by name, with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The files of `dir` that are tables, by name.
fn tables(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files(dir)
        .into_iter()
        .filter(|(n, _)| n.ends_with(".arbtb") && !n.starts_with('.'))
        .collect()
}

fn assert_same(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>, what: &str) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}: the same files"
    );
    for (name, bytes) in a {
        assert!(b[name] == *bytes, "{what}: {name} differs");
    }
}

/// The one-process build of the set, into a directory of its own.
fn whole_build(name: &str, extra: &[&str]) -> (PathBuf, Value) {
    let dir = temp_dir(name);
    let mut args = vec![
        "tables",
        "build",
        "--variant",
        VARIANT,
        "--pieces",
        PIECES,
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let out = ok(run(&args));
    (
        dir,
        serde_json::from_slice(&out.stdout).expect("one JSON object"),
    )
}

fn plan() -> Value {
    let out = ok(run(&[
        "tables",
        "plan",
        "--variant",
        VARIANT,
        "--pieces",
        PIECES,
        "--json",
    ]));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn spawn(args: &[&str], index: Option<usize>) -> Child {
    let mut c = arbiter();
    c.args(args)
        .env_remove("JOB_COMPLETION_INDEX")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(i) = index {
        c.env("JOB_COMPLETION_INDEX", i.to_string());
    }
    c.spawn().expect("start arbiter")
}

#[test]
fn a_set_built_material_by_material_is_the_one_process_build() {
    let (single, summary) = whole_build("tables-single", &[]);
    let reference = tables(&single);
    assert_eq!(
        summary["total"]["tables"].as_u64().unwrap() as usize,
        reference.len()
    );
    assert_eq!(summary["total"]["kept"], 0);

    // Every material once, each wave after the waves of the tables it reads.
    let plan = plan();
    let materials = plan["materials"].as_array().unwrap();
    assert_eq!(materials.len(), reference.len());
    let wave_of: BTreeMap<&str, u64> = materials
        .iter()
        .map(|m| (m["material"].as_str().unwrap(), m["wave"].as_u64().unwrap()))
        .collect();
    for m in materials {
        for n in m["needs"].as_array().unwrap() {
            assert!(
                wave_of[n.as_str().unwrap()] < m["wave"].as_u64().unwrap(),
                "{m}"
            );
        }
    }

    // One process per material, two at a time, wave after wave: half of them named with
    // --material, the others as a pod of an Indexed Job names them (--wave and
    // JOB_COMPLETION_INDEX).
    let units = temp_dir("tables-units");
    let out = units.to_str().unwrap();
    let waves = plan["total"]["waves"].as_u64().unwrap();
    for wave in 1..=waves {
        let of_wave: Vec<&str> = materials
            .iter()
            .filter(|m| m["wave"] == wave)
            .map(|m| m["material"].as_str().unwrap())
            .collect();
        assert!(!of_wave.is_empty());
        for (pair, two) in of_wave.chunks(2).enumerate() {
            let children: Vec<Child> = two
                .iter()
                .enumerate()
                .map(|(k, m)| {
                    let index = pair * 2 + k;
                    let wave = wave.to_string();
                    if index % 2 == 0 {
                        let args = ["tables", "build", "--variant", VARIANT, "--out", out];
                        spawn(&[&args[..], &["--material", m]].concat(), None)
                    } else {
                        let args = [
                            "tables",
                            "build",
                            "--variant",
                            VARIANT,
                            "--pieces",
                            PIECES,
                            "--wave",
                            &wave,
                            "--out",
                            out,
                        ];
                        spawn(&args, Some(index))
                    }
                })
                .collect();
            for (child, m) in children.into_iter().zip(two) {
                let o = ok(child.wait_with_output().unwrap());
                let text = String::from_utf8(o.stdout).unwrap();
                assert!(text.starts_with(&format!("{m}: ")), "{m}: {text}");
            }
        }
    }
    assert_same(&reference, &files(&units), "material by material");

    // Again: every file is kept, and nothing changes.
    let again = ok(run(&[
        "tables",
        "build",
        "--variant",
        VARIANT,
        "--out",
        out,
        "--material",
        "KMvKM",
    ]));
    let text = String::from_utf8(again.stdout).unwrap();
    assert!(text.starts_with("KMvKM: kept"), "{text}");
    assert_same(&reference, &files(&units), "after a second run");

    // The whole set with two materials of a wave at once (in a pod of an Indexed Job too:
    // without --wave, its index is not read).
    let jobs = temp_dir("tables-jobs");
    let out = ok(arbiter()
        .args([
            "tables",
            "build",
            "--variant",
            VARIANT,
            "--pieces",
            PIECES,
            "--jobs",
            "2",
        ])
        .args(["--json", "--out", jobs.to_str().unwrap()])
        .env("JOB_COMPLETION_INDEX", "1")
        .output()
        .unwrap());
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["total"]["built"], reference.len());
    assert_same(&reference, &files(&jobs), "--jobs 2");

    for d in [single, units, jobs] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_stopped_build_is_finished_by_running_it_again() {
    let (dir, _) = whole_build("tables-stopped", &[]);
    let reference = tables(&dir);
    let path = |name: &str| dir.join(format!("{VARIANT}-{name}.arbtb"));
    // What a build killed at various moments, or a damaged disk, leaves.
    let cut = std::fs::read(path("KMvKM")).unwrap();
    std::fs::write(path("KMvKM"), &cut[..cut.len() / 2]).unwrap();
    let mut damaged = std::fs::read(path("KKvKM")).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x40;
    std::fs::write(path("KKvKM"), damaged).unwrap();
    std::fs::remove_file(path("MMvMM")).unwrap();
    std::fs::write(path("KMMvK"), b"").unwrap();
    // A temporary file of a build that is still running (another process's), and one left
    // by a build stopped long ago.
    let running = dir.join(format!(".{VARIANT}-KKvK.arbtb.4242-1.partial"));
    std::fs::write(&running, &cut[..100]).unwrap();
    let stale = dir.join(format!(".{VARIANT}-KMvKM.arbtb.4343-1.partial"));
    std::fs::write(&stale, &cut[..cut.len() / 3]).unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 3600);
    std::fs::File::options()
        .write(true)
        .open(&stale)
        .unwrap()
        .set_modified(old)
        .unwrap();

    // One material alone refuses to build on a damaged table it reads, with exit code 2.
    let out = run(&[
        "tables",
        "build",
        "--variant",
        VARIANT,
        "--out",
        dir.to_str().unwrap(),
        "--material",
        "KKMvKM",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("needs the ") && err.contains(" table"),
        "{err}"
    );

    // The set's build keeps the valid files and builds the rest.
    let out = ok(run(&[
        "tables",
        "build",
        "--variant",
        VARIANT,
        "--pieces",
        PIECES,
        "--out",
        dir.to_str().unwrap(),
        "--json",
    ]));
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["total"]["built"], 4, "{summary}");
    assert_eq!(summary["total"]["kept"], reference.len() - 4, "{summary}");
    for t in summary["tables"].as_array().unwrap() {
        let rebuilt =
            ["KMvKM", "KKvKM", "MMvMM", "KMMvK"].contains(&t["material"].as_str().unwrap());
        assert_eq!(t["kept"], !rebuilt, "{t}");
    }
    assert_same(&reference, &tables(&dir), "after the rerun");
    assert!(
        running.exists(),
        "another build's temporary file is left alone"
    );
    assert!(!stale.exists(), "a stale temporary file is removed");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn what_cannot_be_built_exits_with_code_2_and_says_why() {
    let dir = temp_dir("tables-refused");
    let d = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 5] = [
        // A table it reads is not there.
        (
            &["--variant", VARIANT, "--out", d, "--material", "KKvK"],
            "needs the KvK table",
        ),
        (
            &["--variant", VARIANT, "--out", d, "--material", "KKvQ"],
            "is not a material",
        ),
        (
            &[
                "--variant",
                VARIANT,
                "--out",
                d,
                "--material",
                "KKKvKK",
                "--pieces",
                "4",
            ],
            "more than 4 pieces",
        ),
        (
            &[
                "--variant",
                VARIANT,
                "--out",
                d,
                "--pieces",
                "3",
                "--wave",
                "99",
                "--index",
                "0",
            ],
            "not 99",
        ),
        (
            &[
                "--variant",
                VARIANT,
                "--out",
                d,
                "--pieces",
                "3",
                "--wave",
                "1",
                "--index",
                "50",
            ],
            "not index 50",
        ),
    ];
    for (args, says) in cases {
        let out = run(&[&["tables", "build"], args].concat());
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
    assert!(tables(&dir).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `k8s/tables-build/jobs.yaml` is the rendering of its command, so that the manifests CI
/// validates are the ones the command line gives.
#[test]
fn the_kubernetes_jobs_are_the_plans() {
    let out = ok(run(&[
        "tables",
        "plan",
        "--variant",
        "english",
        "--pieces",
        "5",
        "--emit",
        "kubernetes",
    ]));
    let rendered = String::from_utf8(out.stdout).unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("k8s/tables-build/jobs.yaml");
    let kept = std::fs::read_to_string(&file).unwrap();
    assert!(
        kept == rendered,
        "{} is not the output of `arbiter tables plan --variant english --pieces 5 --emit \
         kubernetes`: render it again",
        file.display()
    );
    // One Job per wave, its completions the materials of the wave.
    let plan: Value = serde_json::from_slice(
        &ok(run(&[
            "tables",
            "plan",
            "--variant",
            "english",
            "--pieces",
            "5",
            "--json",
        ]))
        .stdout,
    )
    .unwrap();
    let waves = plan["waves"].as_array().unwrap();
    assert_eq!(rendered.matches("kind: Job\n").count(), waves.len());
    for w in waves {
        let name = format!("name: arbiter-tables-english-5-wave-{}\n", w["wave"]);
        let at = rendered.find(&name).expect("the wave's Job");
        let n = w["materials"].as_array().unwrap().len();
        assert!(
            rendered[at..].contains(&format!("completions: {n}\n")),
            "{name}"
        );
    }
}
