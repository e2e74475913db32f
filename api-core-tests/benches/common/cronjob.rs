//! The CronJob the runtime and server benches write (one object for
//! both, so their numbers compare).

/// A CronJob of the example API, as a client sends it.
pub const CRONJOB: &str = r#"{
  "apiVersion": "batch.example.com/v1",
  "kind": "CronJob",
  "metadata": {"name": "nightly", "namespace": "default", "labels": {"app": "backup", "tier": "ops"}},
  "spec": {
    "schedule": "0 3 * * *",
    "startingDeadlineSeconds": 120,
    "concurrencyPolicy": "Forbid",
    "successfulJobsHistoryLimit": 5,
    "jobTemplate": {
      "image": "registry.example.com/backup:1.4.2",
      "command": ["/bin/backup", "--all", "--compress"],
      "ports": [{"name": "metrics", "port": 9090}, {"name": "http", "port": 8080, "protocol": "TCP"}],
      "labels": {"team": "storage"},
      "activeDeadlineSeconds": 3600
    }
  }
}"#;
