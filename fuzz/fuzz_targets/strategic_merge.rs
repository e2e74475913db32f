#![no_main]

use std::sync::LazyLock;

use api_core::patch::strategic_merge;
use api_core::registry::{DefaultStrategy, Registry};
use examples::cronjob::CronJob;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

static SCHEMA: LazyLock<Value> =
    LazyLock::new(|| Registry::<CronJob>::new(DefaultStrategy).schema().clone());

// The input is a JSON array `[original, patch]`; anything else is skipped.
fuzz_target!(|data: &[u8]| {
    let Ok(Value::Array(pair)) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    let [original, patch] = pair.as_slice() else {
        return;
    };
    let _ = strategic_merge(original, patch, &SCHEMA);
});
