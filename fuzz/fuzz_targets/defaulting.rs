#![no_main]

use std::sync::LazyLock;

use api_core::registry::{DefaultStrategy, Registry};
use api_core::schema::defaulting::apply_schema_defaults;
use examples::cronjob::CronJob;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

static SCHEMA: LazyLock<Value> =
    LazyLock::new(|| Registry::<CronJob>::new(DefaultStrategy).schema().clone());

fuzz_target!(|data: &[u8]| {
    let Ok(mut value) = serde_json::from_slice::<Value>(data) else {
        return;
    };
    apply_schema_defaults(&mut value, &SCHEMA);
});
