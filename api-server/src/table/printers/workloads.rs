//! Printers of the workload kinds: apps (deployments, replica and
//! stateful sets, daemon sets, controller revisions), batch (jobs, cron
//! jobs), autoscaling and policy (pod disruption budgets).

use super::*;

/// `printDeployment`: ready of desired replicas, up to date, available,
/// age, and the template's containers, images and the selector.
pub(in crate::table) fn print_deployment(deployment: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(deployment, "/spec/template/spec/containers"));
    // `LabelSelectorAsSelector(...).String()`: empty, not `<none>`, for no
    // selector.
    let selector = deployment
        .pointer("/spec/selector")
        .map(crate::scale::selector_text)
        .unwrap_or_default();
    vec![
        name_cell(deployment),
        text(format!(
            "{}/{}",
            int_at(deployment, "/status/readyReplicas"),
            int_at(deployment, "/spec/replicas")
        )),
        Value::from(int_at(deployment, "/status/updatedReplicas")),
        Value::from(int_at(deployment, "/status/availableReplicas")),
        age_cell(deployment, now),
        text(names),
        text(images),
        text(selector),
    ]
}

/// `printControllerRevision`: the controller (`metav1.GetControllerOf`)
/// as `kind.group/name` (`formatResourceName`), `<none>` without one; the
/// revision; age.
pub(in crate::table) fn print_controller_revision(
    revision: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    let controller = array_at(revision, "/metadata/ownerReferences")
        .iter()
        .find(|r| r["controller"] == true)
        .map_or_else(
            || "<none>".to_string(),
            |owner| {
                // schema.ParseGroupVersion: the group is what comes before
                // the one `/` (upstream fails the whole table on more
                // than one, which validation keeps out of a store).
                let api_version = text_at(owner, "/apiVersion");
                let group = match api_version.split_once('/') {
                    Some((group, _)) => group,
                    None => "",
                };
                let kind = text_at(owner, "/kind");
                let name = text_at(owner, "/name");
                match (group, kind.as_str()) {
                    ("", "") => name,
                    ("", kind) => format!("{}/{name}", kind.to_lowercase()),
                    (group, kind) => format!("{}/{name}", format!("{kind}.{group}").to_lowercase()),
                }
            },
        );
    vec![
        name_cell(revision),
        text(controller),
        Value::from(int_at(revision, "/revision")),
        age_cell(revision, now),
    ]
}

/// `printDaemonSet`: desired, current, ready, up-to-date and available
/// numbers of nodes, the template's node selector (a label set), age, the
/// template's containers and images, and the selector.
pub(in crate::table) fn print_daemon_set(daemon_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(daemon_set, "/spec/template/spec/containers"));
    let status = |field: &str| Value::from(int_at(daemon_set, &format!("/status/{field}")));
    vec![
        name_cell(daemon_set),
        status("desiredNumberScheduled"),
        status("currentNumberScheduled"),
        status("numberReady"),
        status("updatedNumberScheduled"),
        status("numberAvailable"),
        text(format_labels(
            daemon_set.pointer("/spec/template/spec/nodeSelector"),
        )),
        age_cell(daemon_set, now),
        text(names),
        text(images),
        text(format_label_selector(daemon_set.pointer("/spec/selector"))),
    ]
}

/// `printReplicaSet`: desired, current and ready replicas, age, the
/// template's containers and images, and the selector.
pub(in crate::table) fn print_replica_set(replica_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    replicas_row(
        replica_set,
        now,
        format_label_selector(replica_set.pointer("/spec/selector")),
    )
}

/// `printStatefulSet`: ready of desired replicas, age, the template's
/// containers and images.
pub(in crate::table) fn print_stateful_set(stateful_set: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(stateful_set, "/spec/template/spec/containers"));
    vec![
        name_cell(stateful_set),
        text(format!(
            "{}/{}",
            int_at(stateful_set, "/status/readyReplicas"),
            int_at(stateful_set, "/spec/replicas")
        )),
        age_cell(stateful_set, now),
        text(names),
        text(images),
    ]
}

/// `printCronJob`: schedule, time zone (`<none>`), suspend (as text, as
/// upstream's cell is), the number of active jobs, the last schedule's age
/// (`<none>`), age, the job template's containers, images and selector.
pub(in crate::table) fn print_cron_job(cron_job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let (names, images) = container_cells(array_at(
        cron_job,
        "/spec/jobTemplate/spec/template/spec/containers",
    ));
    let last_schedule = match time_at(cron_job, "/status/lastScheduleTime") {
        Some(t) => since(Some(t), now),
        None => "<none>".into(),
    };
    vec![
        name_cell(cron_job),
        text(text_at(cron_job, "/spec/schedule")),
        text(str_at(cron_job, "/spec/timeZone").unwrap_or("<none>")),
        text(bool_text(cron_job.pointer("/spec/suspend"))),
        Value::from(array_at(cron_job, "/status/active").len() as i64),
        text(last_schedule),
        age_cell(cron_job, now),
        text(names),
        text(images),
        text(format_label_selector(
            cron_job.pointer("/spec/jobTemplate/spec/selector"),
        )),
    ]
}

/// `hasJobCondition`: whether the first condition of the type is true.
pub(in crate::table) fn has_job_condition(job: &Value, kind: &str) -> bool {
    array_at(job, "/status/conditions")
        .iter()
        .find(|c| c["type"] == kind)
        .is_some_and(|c| c["status"] == "True")
}

/// `printJob`: the status (`Complete`, `Failed`, `Terminating`,
/// `Suspended`, `FailureTarget` or `Running`), completions
/// (`succeeded/completions`, or `succeeded/1` and ` of parallelism` when
/// more than one runs at once), the duration (to completion, or so far;
/// empty before the start), age, the template's containers, images and
/// the selector.
pub(in crate::table) fn print_job(job: &Value, now: DateTime<Utc>) -> Vec<Value> {
    let succeeded = int_at(job, "/status/succeeded");
    let completions = match job.pointer("/spec/completions").and_then(Value::as_i64) {
        Some(completions) => format!("{succeeded}/{completions}"),
        None => match int_at(job, "/spec/parallelism") {
            parallelism if parallelism > 1 => format!("{succeeded}/1 of {parallelism}"),
            _ => format!("{succeeded}/1"),
        },
    };
    let duration = match (
        time_at(job, "/status/startTime"),
        time_at(job, "/status/completionTime"),
    ) {
        (None, _) => String::new(),
        (Some(start), None) => human_duration(now.signed_duration_since(start)),
        (Some(start), Some(end)) => human_duration(end.signed_duration_since(start)),
    };
    let status = if has_job_condition(job, "Complete") {
        "Complete"
    } else if has_job_condition(job, "Failed") {
        "Failed"
    } else if deleting(job) {
        "Terminating"
    } else if has_job_condition(job, "Suspended") {
        "Suspended"
    } else if has_job_condition(job, "FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let (names, images) = container_cells(array_at(job, "/spec/template/spec/containers"));
    vec![
        name_cell(job),
        text(status),
        text(completions),
        text(duration),
        age_cell(job, now),
        text(names),
        text(images),
        text(format_label_selector(job.pointer("/spec/selector"))),
    ]
}

/// `printPodDisruptionBudget`: min available and max unavailable (`N/A`),
/// the disruptions allowed.
pub(in crate::table) fn print_pod_disruption_budget(
    budget: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    let bound =
        |pointer: &str| int_or_string(budget.pointer(pointer)).unwrap_or_else(|| "N/A".into());
    vec![
        name_cell(budget),
        text(bound("/spec/minAvailable")),
        text(bound("/spec/maxUnavailable")),
        Value::from(int_at(budget, "/status/disruptionsAllowed")),
        age_cell(budget, now),
    ]
}

/// `formatHPAMetrics`: each metric's `current/target` (`<unknown>` while
/// there is no current value; `(avg)` for an average value target of an
/// external or object metric; `name: ` before a resource's; `%` for
/// utilizations, `<auto>` without a target one), the first two joined by
/// `, ` then ` + N more...`; `<none>` without metrics.
pub(in crate::table) fn hpa_metrics(specs: &[Value], statuses: &[Value]) -> String {
    const MAX: usize = 2;
    if specs.is_empty() {
        return "<none>".into();
    }
    let mut list: Vec<String> = Vec::new();
    for (i, spec) in specs.iter().enumerate() {
        // The status of the same index, when it has the metric's source.
        let status = |source: &str| {
            statuses
                .get(i)
                .and_then(|s| s.get(source))
                .filter(|s| s.is_object())
        };
        let current_or_unknown =
            |source: &str, f: &dyn Fn(&Value) -> Option<String>| status(source).and_then(f);
        let kind = str_at(spec, "/type").unwrap_or_default();
        let entry = match kind {
            "External" | "Object" => {
                let source = if kind == "External" {
                    "external"
                } else {
                    "object"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            quantity(s.pointer("/current/averageValue"))
                        });
                        format!(
                            "{}/{} (avg)",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/value")))
                        });
                        format!(
                            "{}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(target.pointer("/target/value"))
                        )
                    }
                }
            }
            "Pods" => {
                let current = current_or_unknown("pods", &|s| {
                    Some(quantity_or_nil(s.pointer("/current/averageValue")))
                });
                format!(
                    "{}/{}",
                    current.unwrap_or_else(|| "<unknown>".into()),
                    quantity_or_nil(spec.pointer("/pods/target/averageValue"))
                )
            }
            "Resource" | "ContainerResource" => {
                let source = if kind == "Resource" {
                    "resource"
                } else {
                    "containerResource"
                };
                let target = spec.get(source).unwrap_or(&Value::Null);
                let name = text_at(target, "/name");
                match target
                    .pointer("/target/averageValue")
                    .filter(|v| !v.is_null())
                {
                    Some(average) => {
                        let current = current_or_unknown(source, &|s| {
                            Some(quantity_or_nil(s.pointer("/current/averageValue")))
                        });
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            quantity_or_nil(Some(average))
                        )
                    }
                    None => {
                        let percent = |v: &Value, pointer: &str| {
                            v.pointer(pointer)
                                .and_then(Value::as_i64)
                                .map(|p| format!("{p}%"))
                        };
                        let current = current_or_unknown(source, &|s| {
                            percent(s, "/current/averageUtilization")
                        });
                        let target = percent(target, "/target/averageUtilization");
                        format!(
                            "{name}: {}/{}",
                            current.unwrap_or_else(|| "<unknown>".into()),
                            target.unwrap_or_else(|| "<auto>".into())
                        )
                    }
                }
            }
            _ => "<unknown type>".into(),
        };
        list.push(entry);
    }
    let count = list.len();
    let more = count > MAX;
    list.truncate(MAX);
    let joined = list.join(", ");
    if more {
        format!("{joined} + {} more...", count - MAX)
    } else {
        joined
    }
}

/// `printHorizontalPodAutoscaler`: `kind/name` of the target, the
/// metrics, min (`<unset>`) and max replicas, the current replicas.
pub(in crate::table) fn print_horizontal_pod_autoscaler(
    hpa: &Value,
    now: DateTime<Utc>,
) -> Vec<Value> {
    let min = match hpa.pointer("/spec/minReplicas").and_then(Value::as_i64) {
        Some(min) => min.to_string(),
        None => "<unset>".into(),
    };
    vec![
        name_cell(hpa),
        text(format!(
            "{}/{}",
            text_at(hpa, "/spec/scaleTargetRef/kind"),
            text_at(hpa, "/spec/scaleTargetRef/name")
        )),
        text(hpa_metrics(
            array_at(hpa, "/spec/metrics"),
            array_at(hpa, "/status/currentMetrics"),
        )),
        text(min),
        Value::from(int_at(hpa, "/spec/maxReplicas")),
        Value::from(int_at(hpa, "/status/currentReplicas")),
        age_cell(hpa, now),
    ]
}
