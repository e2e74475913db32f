//! Prints the CustomResourceDefinitions of the example APIs.
//!
//! ```text
//! crdgen                 # one YAML stream on stdout
//! crdgen --out-dir DIR   # one file per CRD: DIR/<group>_<plural>.yaml
//! ```

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let mut out_dir: Option<PathBuf> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out-dir" => match args.next() {
                Some(dir) => out_dir = Some(PathBuf::from(dir)),
                None => return usage("--out-dir needs a directory"),
            },
            "-h" | "--help" => {
                println!(
                    "usage: crdgen [--out-dir DIR]\n\nPrints the example CRDs as one YAML stream, or writes DIR/<group>_<plural>.yaml."
                );
                return ExitCode::SUCCESS;
            }
            other => return usage(&format!("unknown argument `{other}`")),
        }
    }
    let crds = examples::crds();
    for warning in examples::warnings() {
        eprintln!("crdgen: warning: {warning}");
    }
    match out_dir {
        None => {
            print!("{}", api_core::crd::to_yaml_stream(&crds));
            ExitCode::SUCCESS
        }
        Some(dir) => {
            if let Err(e) = std::fs::create_dir_all(&dir) {
                eprintln!("crdgen: cannot create {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
            for crd in &crds {
                let path = dir.join(format!("{}_{}.yaml", crd.spec.group, crd.spec.names.plural));
                if let Err(e) = std::fs::write(&path, crd.to_yaml()) {
                    eprintln!("crdgen: cannot write {}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
                eprintln!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
    }
}

fn usage(problem: &str) -> ExitCode {
    eprintln!("crdgen: {problem}\nusage: crdgen [--out-dir DIR]");
    ExitCode::from(2)
}
