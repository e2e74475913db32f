//! apps and batch kinds' tables: DaemonSets, Jobs, CronJobs, ReplicaSets,
//! StatefulSets, ControllerRevisions.

use super::*;

/// Two containers, as upstream's tests have them.
fn two_containers(prefix: &str) -> Value {
    json!([{"name": format!("fake-{prefix}container1"), "image": format!("fake-{prefix}image1")},
           {"name": format!("fake-{prefix}container2"), "image": format!("fake-{prefix}image2")}])
}

/// `TestPrintDaemonSet` and `TestPrintDaemonSetList`.
#[test]
fn daemon_set_table() {
    let daemon_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"template": {"spec": {"containers": two_containers("")}},
                 "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"currentNumberScheduled": 2, "desiredNumberScheduled": 3, "numberReady": 1,
                   "updatedNumberScheduled": 2, "numberAvailable": 0}});
    assert_eq!(
        default_cells("apps", "daemonsets", &daemon_set),
        json!(["test1", 3, 2, 1, 2, 0, "<none>", "0s"])
    );
    assert_eq!(
        cells("apps", "daemonsets", &daemon_set),
        json!([
            "test1",
            3,
            2,
            1,
            2,
            0,
            "<none>",
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2",
            "foo=bar"
        ])
    );
    let second = json!({"metadata": {"name": "daemonset2", "creationTimestamp": soon()},
        "spec": {"template": {}, "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"currentNumberScheduled": 4, "desiredNumberScheduled": 2, "numberReady": 9,
                   "updatedNumberScheduled": 3, "numberAvailable": 3}});
    assert_eq!(
        default_cells("apps", "daemonsets", &second),
        json!(["daemonset2", 2, 4, 9, 3, 3, "<none>", "0s"])
    );
    // Not upstream's: a node selector prints as a label set.
    let selected =
        json!({"spec": {"template": {"spec": {"nodeSelector": {"disk": "ssd", "a.b": "c"}}}}});
    assert_eq!(cells("apps", "daemonsets", &selected)[6], "a.b=c,disk=ssd");
}

/// `TestPrintJob` and `TestPrintJobList`.
#[test]
fn job_table() {
    let job = |name: &str, created: String, spec: Value, status: Value| json!({"metadata": {"name": name, "creationTimestamp": created}, "spec": spec, "status": status});
    let template = json!({"spec": {"containers": two_containers("job-")}});
    let job1 = job(
        "job1",
        soon(),
        json!({"completions": 2, "template": template,
        "selector": {"matchLabels": {"job-label": "job-label-value"}}}),
        json!({"succeeded": 1}),
    );
    assert_eq!(
        default_cells("batch", "jobs", &job1),
        json!(["job1", "Running", "1/2", "", "0s"])
    );
    assert_eq!(
        cells("batch", "jobs", &job1),
        json!([
            "job1",
            "Running",
            "1/2",
            "",
            "0s",
            "fake-job-container1,fake-job-container2",
            "fake-job-image1,fake-job-image2",
            "job-label=job-label-value"
        ])
    );
    let ten_years = ago(TimeDelta::days(10 * 365));
    let condition = |kind: &str| json!({"conditions": [{"type": kind, "status": "True"}]});
    let cases = [
        // Job with ten-year age.
        (
            job(
                "job2",
                ago(TimeDelta::days(3653)),
                json!({}),
                json!({"succeeded": 0}),
            ),
            json!(["job2", "Running", "0/1", "", "10y"]),
        ),
        // Job with duration.
        (
            job(
                "job3",
                ten_years.clone(),
                json!({}),
                json!({"succeeded": 0,
            "startTime": ago(-TimeDelta::minutes(1)), "completionTime": ago(-TimeDelta::minutes(31))}),
            ),
            json!(["job3", "Running", "0/1", "30m", "10y"]),
        ),
        (
            job(
                "job4",
                ten_years,
                json!({}),
                json!({"succeeded": 0, "startTime": ago(TimeDelta::minutes(20))}),
            ),
            json!(["job4", "Running", "0/1", "20m", "10y"]),
        ),
        (
            job("job5", soon(), json!({}), condition("Complete")),
            json!(["job5", "Complete", "0/1", "", "0s"]),
        ),
        (
            job("job6", soon(), json!({}), condition("Failed")),
            json!(["job6", "Failed", "0/1", "", "0s"]),
        ),
        (
            job("job7", soon(), json!({}), condition("Suspended")),
            json!(["job7", "Suspended", "0/1", "", "0s"]),
        ),
        (
            job("job8", soon(), json!({}), condition("FailureTarget")),
            json!(["job8", "FailureTarget", "0/1", "", "0s"]),
        ),
        (
            json!({"metadata": {"name": "job9", "creationTimestamp": soon(), "deletionTimestamp": soon()}, "spec": {}}),
            json!(["job9", "Terminating", "0/1", "", "0s"]),
        ),
        // TestPrintJobList's second job.
        (
            job(
                "job2",
                soon(),
                json!({"completions": 2}),
                json!({"succeeded": 2, "startTime": ago(TimeDelta::minutes(20))}),
            ),
            json!(["job2", "Running", "2/2", "20m", "0s"]),
        ),
        // Not upstream's: parallel jobs without completions.
        (
            job(
                "par",
                soon(),
                json!({"parallelism": 3}),
                json!({"succeeded": 1}),
            ),
            json!(["par", "Running", "1/1 of 3", "", "0s"]),
        ),
    ];
    for (job, row) in cases {
        assert_eq!(default_cells("batch", "jobs", &job), row, "{job}");
    }
}

/// `TestPrintCronJob` and `TestPrintCronJobList`.
#[test]
fn cron_job_table() {
    let job_template = json!({"spec": {"completions": 2, "template": {"spec": {"containers": two_containers("job-")}},
        "selector": {"matchLabels": {"a": "b"}}}});
    let cron_job = |name: &str, created: String, spec: Value, last: Option<String>| {
        let mut cron_job = json!({"metadata": {"name": name, "creationTimestamp": created}, "spec": spec, "status": {}});
        if let Some(last) = last {
            cron_job["status"]["lastScheduleTime"] = json!(last);
        }
        cron_job
    };
    let basic = cron_job(
        "cronjob1",
        soon(),
        json!({"schedule": "0/5 * * * ?", "suspend": false,
        "jobTemplate": job_template}),
        Some(soon()),
    );
    assert_eq!(
        default_cells("batch", "cronjobs", &basic),
        json!(["cronjob1", "0/5 * * * ?", "<none>", "False", 0, "0s", "0s"])
    );
    assert_eq!(
        cells("batch", "cronjobs", &basic),
        json!([
            "cronjob1",
            "0/5 * * * ?",
            "<none>",
            "False",
            0,
            "0s",
            "0s",
            "fake-job-container1,fake-job-container2",
            "fake-job-image1,fake-job-image2",
            "a=b"
        ])
    );
    let cases = [
        (
            cron_job(
                "cronjob1",
                soon(),
                json!({"schedule": "0/5 * * * ?", "timeZone": "LOCAL", "suspend": false,
            "jobTemplate": job_template}),
                Some(soon()),
            ),
            json!(["cronjob1", "0/5 * * * ?", "LOCAL", "False", 0, "0s", "0s"]),
        ),
        // CronJob with Last Schedule and Age.
        (
            cron_job(
                "cronjob2",
                ago(TimeDelta::minutes(5)),
                json!({"schedule": "0/5 * * * ?", "suspend": false}),
                Some(ago(TimeDelta::seconds(30))),
            ),
            json!(["cronjob2", "0/5 * * * ?", "<none>", "False", 0, "30s", "5m"]),
        ),
        // CronJob without Last Schedule.
        (
            cron_job(
                "cronjob3",
                ago(TimeDelta::minutes(5)),
                json!({"schedule": "0/5 * * * ?", "suspend": false}),
                None,
            ),
            json!([
                "cronjob3",
                "0/5 * * * ?",
                "<none>",
                "False",
                0,
                "<none>",
                "5m"
            ]),
        ),
        // TestPrintCronJobList's second cron job.
        (
            cron_job(
                "cronjob2",
                soon(),
                json!({"schedule": "4/5 1 1 1 ?", "suspend": false}),
                Some(ago(TimeDelta::minutes(20))),
            ),
            json!(["cronjob2", "4/5 1 1 1 ?", "<none>", "False", 0, "20m", "0s"]),
        ),
        // Not upstream's: suspend unset, active jobs.
        (
            json!({"metadata": {"name": "c"}, "spec": {"schedule": "@daily"},
                "status": {"active": [{"name": "j1"}, {"name": "j2"}]}}),
            json!(["c", "@daily", "<none>", "<unset>", 2, "<none>", "<unknown>"]),
        ),
    ];
    for (cron_job, row) in cases {
        assert_eq!(
            default_cells("batch", "cronjobs", &cron_job),
            row,
            "{cron_job}"
        );
    }
}

/// `TestPrintReplicaSet` and `TestPrintReplicaSetList`.
#[test]
fn replica_set_table() {
    let replica_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"replicas": 5, "template": {"spec": {"containers": two_containers("")}},
                 "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"replicas": 5, "readyReplicas": 2}});
    assert_eq!(
        default_cells("apps", "replicasets", &replica_set),
        json!(["test1", 5, 5, 2, "0s"])
    );
    assert_eq!(
        cells("apps", "replicasets", &replica_set),
        json!([
            "test1",
            5,
            5,
            2,
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2",
            "foo=bar"
        ])
    );
    let second = json!({"metadata": {"name": "replicaset2", "creationTimestamp": soon()},
        "spec": {"replicas": 4, "template": {}, "selector": {"matchLabels": {"foo": "bar"}}},
        "status": {"replicas": 3, "readyReplicas": 1}});
    assert_eq!(
        default_cells("apps", "replicasets", &second),
        json!(["replicaset2", 4, 3, 1, "0s"])
    );
    // Not upstream's: FormatLabelSelector's <none> and <error>.
    let empty = json!({"spec": {"selector": {}}});
    assert_eq!(cells("apps", "replicasets", &empty)[7], "<none>");
    let bad =
        json!({"spec": {"selector": {"matchExpressions": [{"key": "a", "operator": "Near"}]}}});
    assert_eq!(cells("apps", "replicasets", &bad)[7], "<error>");
    let expressions = json!({"spec": {"selector": {"matchLabels": {"app": "web"},
        "matchExpressions": [{"key": "tier", "operator": "In", "values": ["fe", "be"]}]}}});
    assert_eq!(
        cells("apps", "replicasets", &expressions)[7],
        "app=web,tier in (be,fe)"
    );
}

/// `TestPrintStatefulSet`.
#[test]
fn stateful_set_table() {
    let stateful_set = json!({"metadata": {"name": "test1", "creationTimestamp": soon()},
        "spec": {"replicas": 5, "template": {"spec": {"containers": two_containers("")}}},
        "status": {"replicas": 5, "readyReplicas": 2}});
    assert_eq!(
        default_cells("apps", "statefulsets", &stateful_set),
        json!(["test1", "2/5", "0s"])
    );
    assert_eq!(
        cells("apps", "statefulsets", &stateful_set),
        json!([
            "test1",
            "2/5",
            "0s",
            "fake-container1,fake-container2",
            "fake-image1,fake-image2"
        ])
    );
}

/// `TestPrintControllerRevision` and `TestFormatResourceName`.
#[test]
fn controller_revision_table() {
    let revision = |name: &str, owners: Value, revision: i64| {
        json!({"metadata": {"name": name, "creationTimestamp": soon(), "ownerReferences": owners},
               "revision": revision})
    };
    let cases = [
        (
            revision(
                "test1",
                json!([{"controller": true, "apiVersion": "apps/v1", "kind": "DaemonSet", "name": "foo"}]),
                1,
            ),
            json!(["test1", "daemonset.apps/foo", 1, "0s"]),
        ),
        (
            revision(
                "test2",
                json!([{"controller": false, "kind": "ABC", "name": "foo"}]),
                2,
            ),
            json!(["test2", "<none>", 2, "0s"]),
        ),
        (
            revision("test3", json!([]), 3),
            json!(["test3", "<none>", 3, "0s"]),
        ),
        (
            revision("test4", Value::Null, 4),
            json!(["test4", "<none>", 4, "0s"]),
        ),
        // TestFormatResourceName's kinds without a group, or without either.
        (
            revision(
                "core",
                json!([{"controller": true, "apiVersion": "v1", "kind": "Kind", "name": "name"}]),
                5,
            ),
            json!(["core", "kind/name", 5, "0s"]),
        ),
        (
            revision("none", json!([{"controller": true, "name": "name"}]), 6),
            json!(["none", "name", 6, "0s"]),
        ),
    ];
    for (revision, row) in cases {
        assert_eq!(
            cells("apps", "controllerrevisions", &revision),
            row,
            "{revision}"
        );
    }
}
