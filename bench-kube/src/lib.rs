//! Empty: the comparison is `benches/kube.rs`.
