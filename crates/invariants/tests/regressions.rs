//! Every kept fuzz input, run through its check: the crash inputs under
//! `fuzz/regressions/<target>/` and the seeds under `fuzz/seeds/<target>/`.

use std::path::{Path, PathBuf};

use bashni_invariants::CHECKS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The files directly under `dir`, sorted; none if it does not exist.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    files
}

fn run_all(kind: &str) -> usize {
    let mut count = 0;
    for (target, check) in CHECKS {
        for file in files(&fuzz_dir().join(kind).join(target)) {
            let data =
                std::fs::read(&file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
            let outcome = std::panic::catch_unwind(|| check(&data));
            assert!(
                outcome.is_ok(),
                "{target}: {} breaks the check",
                file.display()
            );
            count += 1;
        }
    }
    count
}

#[test]
fn every_crash_input_found_by_fuzzing_passes_its_check() {
    // The directory exists once the first crash has been kept; every file in it must pass.
    let count = run_all("regressions");
    assert!(
        count > 0 || !fuzz_dir().join("regressions").exists(),
        "the regressions directory holds no inputs"
    );
}

#[test]
fn every_seed_passes_its_check_and_each_target_has_seeds() {
    for (target, _) in CHECKS {
        assert!(
            !files(&fuzz_dir().join("seeds").join(target)).is_empty(),
            "no seeds for {target}"
        );
    }
    assert!(run_all("seeds") >= CHECKS.len());
}

#[test]
fn empty_and_tiny_inputs_pass_every_check() {
    for (target, check) in CHECKS {
        for data in [&b""[..], b"\0", b"\xff", b"\n\n", b"{}"] {
            let outcome = std::panic::catch_unwind(|| check(data));
            assert!(outcome.is_ok(), "{target} fails on {data:?}");
        }
    }
}
