//! The runtime half of cel-go's two-variable comprehensions (the macros are
//! `api_cel::macros`): `@keysOrIndices(range)`, the indices of a list or the
//! keys of a map, which the macros iterate over; `@itemAt(range, key)`, the
//! second variable; and `@mapInsert(map, key,
//! value)` / `@mapInsert(map, entries)`, cel-go's `cel.@mapInsert`, which
//! `transformMap` and `transformMapEntry` build their maps with.

use std::collections::HashMap;

use ::cel::common::types::{CelInt, CelList, CelMap, CelMapKey, DYN_TYPE, Kind};
use ::cel::common::value::{CowVal, Val};
use ::cel::{DeclarationError, Env, ExecutionError};

use super::{elements, take};

/// Declares the functions on `env`.
pub(crate) fn register(env: &mut Env) -> Result<(), DeclarationError> {
    env.add_overload(
        api_cel::macros::KEYS,
        "keys_or_indices",
        vec![DYN_TYPE],
        keys_or_indices,
    )?;
    env.add_overload(
        api_cel::macros::ITEM,
        "item_at",
        vec![DYN_TYPE, DYN_TYPE],
        item_at,
    )?;
    env.add_overload(
        api_cel::macros::MAP_INSERT,
        "map_insert_key_value",
        vec![DYN_TYPE, DYN_TYPE, DYN_TYPE],
        map_insert,
    )?;
    env.add_overload(
        api_cel::macros::MAP_INSERT,
        "map_insert_map",
        vec![DYN_TYPE, DYN_TYPE],
        map_insert,
    )?;
    Ok(())
}

fn keys_or_indices<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [range] = take(args)?;
    let items = elements(range.as_ref())?;
    let out: Vec<Box<dyn Val + 'v>> = match range.get_type().kind() {
        Kind::List => (0..items.len())
            .map(|i| Box::new(CelInt::from(i as i64)) as Box<dyn Val + 'v>)
            .collect(),
        // A map iterates over its keys.
        _ => items.iter().map(|k| k.clone_as_boxed()).collect(),
    };
    Ok(CowVal::owned(CelList::from(out)))
}

fn item_at<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [range, key] = take(args)?;
    let indexer = range
        .as_indexer()
        .ok_or_else(|| ExecutionError::UnexpectedType {
            got: range.get_type().name().to_owned(),
            want: "list or map".to_owned(),
        })?;
    Ok(CowVal::Owned(indexer.get(key.as_ref())?.into_owned()))
}

fn map_insert<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let mut args = args.into_iter();
    let base = args
        .next()
        .ok_or_else(|| ExecutionError::invalid_argument_count(2, 0))?;
    let mut map: HashMap<CelMapKey<'v>, Box<dyn Val + 'v>> = entries(base.as_ref())?;
    let mut add = |key: Box<dyn Val + 'v>, value: Box<dyn Val + 'v>| {
        let shown = format!("{:?}", key);
        let key = CelMapKey::try_from(key)?;
        if map.contains_key(&key) {
            return Err(ExecutionError::function_error(
                "@mapInsert",
                format!("insert failed: key {shown} already exists"),
            ));
        }
        map.insert(key, value);
        Ok(())
    };
    match (args.next(), args.next()) {
        (Some(key), Some(value)) => add(key.into_owned(), value.into_owned())?,
        (Some(other), None) => {
            for (k, v) in entries(other.as_ref())? {
                add(k.inner().clone_as_boxed(), v)?;
            }
        }
        _ => return Err(ExecutionError::invalid_argument_count(2, 1)),
    }
    Ok(CowVal::owned(CelMap::from(map)))
}

/// The entries of a map, copied.
fn entries<'v>(
    map: &(dyn Val + 'v),
) -> Result<HashMap<CelMapKey<'v>, Box<dyn Val + 'v>>, ExecutionError> {
    let indexer = map
        .as_indexer()
        .ok_or_else(|| ExecutionError::UnexpectedType {
            got: map.get_type().name().to_owned(),
            want: "map".to_owned(),
        })?;
    let mut out = HashMap::new();
    for key in elements(map)? {
        let value = indexer.get(key)?.into_owned();
        out.insert(CelMapKey::try_from(key.clone_as_boxed())?, value);
    }
    Ok(out)
}
