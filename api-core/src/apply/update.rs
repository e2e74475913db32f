//! Field ownership across writes, as structured-merge-diff's
//! `merge.Updater` keeps it: an update takes the fields it changes from
//! everyone else; an apply owns exactly the fields of its configuration,
//! conflicts with other owners of fields it changes (unless forced), and
//! removes the fields it stops applying that nobody else owns.
//!
//! Every version of a kind is assumed to have the same field layout (the
//! sets of every manager are compared on the object as it is), as
//! structured-merge-diff's tests run with a no-op converter.

use std::collections::BTreeMap;
use std::fmt;

use serde_json::Value;

use super::fieldpath::{Path, Set};
use super::typed::{Comparison, Schema};

/// The fields a manager owns, at the API version it wrote them in, and
/// whether by apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionedSet {
    /// The fields.
    pub set: Set,
    /// The API version of the write (`cache.example.com/v1alpha1`).
    pub api_version: String,
    /// Whether the fields were applied (else updated).
    pub applied: bool,
}

/// The owners of an object's fields, by manager identifier.
pub type ManagedFields = BTreeMap<String, VersionedSet>;

/// A field an apply would change that another manager owns.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The other manager's identifier.
    pub manager: String,
    /// The field.
    pub path: Path,
}

/// The conflicts of an apply, by manager and then field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflicts(pub Vec<Conflict>);

impl Conflicts {
    fn from_managers(sets: &ManagedFields) -> Self {
        let mut out = Vec::new();
        for (manager, vs) in sets {
            for path in vs.set.paths() {
                out.push(Conflict {
                    manager: manager.clone(),
                    path,
                });
            }
        }
        Conflicts(out)
    }
}

impl fmt::Display for Conflicts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in &self.0 {
            writeln!(f, "conflict with {:?}: {}", c.manager, c.path)?;
        }
        Ok(())
    }
}

/// Why an apply or update failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateError {
    /// Other managers own fields the apply changes.
    Conflicts(Conflicts),
    /// The objects do not fit the schema (duplicate keys in a
    /// configuration, a list-map element without its keys...).
    Invalid(String),
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Conflicts(c) => write!(f, "{c}"),
            UpdateError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for UpdateError {}

/// Runs updates and applies against one schema.
#[derive(Clone, Copy, Debug)]
pub struct Updater<'s> {
    schema: &'s Schema,
    reset: Option<&'s Set>,
}

impl<'s> Updater<'s> {
    /// An updater for objects of `schema`.
    pub fn new(schema: &'s Schema) -> Self {
        Updater {
            schema,
            reset: None,
        }
    }

    /// An updater that never gives ownership of `reset` or anything under
    /// it (the strategy's reset fields: `status` for writes of the main
    /// resource of a kind with a status subresource, `spec` for writes of
    /// its status), as the apiserver's `IgnoreFilter` does.
    pub fn with_reset(mut self, reset: &'s Set) -> Self {
        self.reset = Some(reset);
        self
    }

    fn filter(&self, mut set: Set) -> Set {
        if let Some(reset) = self.reset {
            set.recursive_difference_with(reset);
        }
        set
    }

    /// Ownership after the change from `old` to `new` by `workflow`: other
    /// managers lose what changed (or, unless `force`, conflict) and what
    /// was removed.
    fn update_owners(
        &self,
        old: &Value,
        new: &Value,
        mut managers: ManagedFields,
        workflow: &str,
        force: bool,
    ) -> Result<(ManagedFields, Comparison), UpdateError> {
        let mut compare = self.schema.compare(old, new);
        compare.removed = self.filter(compare.removed);
        compare.modified = self.filter(compare.modified);
        compare.added = self.filter(compare.added);
        let mut changed = compare.modified.clone();
        changed.union_with(&compare.added);
        let mut conflicts = ManagedFields::new();
        for (manager, vs) in &managers {
            if manager == workflow {
                continue;
            }
            let owned = vs.set.intersection(&changed);
            if !owned.is_empty() {
                conflicts.insert(
                    manager.clone(),
                    VersionedSet {
                        set: owned,
                        api_version: vs.api_version.clone(),
                        applied: false,
                    },
                );
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(UpdateError::Conflicts(Conflicts::from_managers(&conflicts)));
        }
        for (manager, vs) in managers.iter_mut() {
            if manager == workflow {
                continue;
            }
            if let Some(c) = conflicts.get(manager) {
                vs.set.difference_with(&c.set);
            }
            vs.set.difference_with(&compare.removed);
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        Ok((managers, compare))
    }

    /// An update (create, PUT, or any patch but apply) by `manager`: it
    /// owns what it changed, added or already owned, never conflicts.
    pub fn update(
        &self,
        live: &Value,
        new: &Value,
        version: &str,
        managers: ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, UpdateError> {
        let (mut managers, compare) = self.update_owners(live, new, managers, manager, true)?;
        let previous = managers
            .remove(manager)
            .map(|vs| vs.set)
            .unwrap_or_default();
        let mut set = previous;
        set.difference_with(&compare.removed);
        set.union_with(&compare.modified);
        set.union_with(&compare.added);
        let set = self.filter(set);
        if !set.is_empty() {
            managers.insert(
                manager.to_string(),
                VersionedSet {
                    set,
                    api_version: version.to_string(),
                    applied: false,
                },
            );
        }
        Ok(managers)
    }

    /// An apply of `config` by `manager`: the new object (`None` when
    /// nothing changes) and the owners. Fields the manager applied before
    /// and no longer does are removed unless someone else owns them.
    pub fn apply(
        &self,
        live: &Value,
        config: &Value,
        version: &str,
        mut managers: ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<(Option<Value>, ManagedFields), UpdateError> {
        let merged = self
            .schema
            .merge(live, config)
            .map_err(|e| UpdateError::Invalid(format!("failed to merge config: {e}")))?;
        let last = managers.get(manager).map(|vs| vs.set.clone());
        let set = self.filter(self.schema.to_field_set(config));
        // Only a field the manager applied before and not now can go: when
        // the new configuration covers the last one, pruning would remove
        // nothing and add everything back (the common re-apply).
        let dropped = last
            .as_ref()
            .is_some_and(|l| !l.difference(&set).is_empty());
        managers.insert(
            manager.to_string(),
            VersionedSet {
                set,
                api_version: version.to_string(),
                applied: true,
            },
        );
        let new = match last {
            Some(last) if dropped => self.prune(&merged, &managers, &last),
            _ => merged,
        };
        let (managers, _) = self.update_owners(live, &new, managers, manager, force)?;
        let changed = (new != *live).then_some(new);
        Ok((changed, managers))
    }

    /// The merged object without the fields of `last` (the manager's
    /// previous apply) that nobody owns now.
    fn prune(&self, merged: &Value, managers: &ManagedFields, last: &Set) -> Value {
        let schema = self.schema;
        let named = |s: &Set| schema.ensure_named_fields_are_members(s);
        let pruned = schema.remove_items(merged, &named(last));
        // Add back what some manager owns.
        let owned = managers.values().fold(Set::new(), |mut acc, vs| {
            acc.union_with(&vs.set);
            acc
        });
        let merged_set = named(&schema.to_field_set(merged));
        let pruned_set = named(&schema.to_field_set(&pruned));
        let pruned = schema.remove_items(
            merged,
            &merged_set.difference(&pruned_set.union(&named(&owned))),
        );
        // Add back what the manager never applied (dangling items).
        let pruned_set = named(&schema.to_field_set(&pruned));
        schema.remove_items(
            merged,
            &merged_set
                .difference(&pruned_set)
                .intersection(&named(last)),
        )
    }
}
