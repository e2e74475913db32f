//! Running the lints over a parsed model: which lint functions see which
//! fields, variants and types.

use super::{Context, Diagnostics, Finding, LintId};
use crate::model::{Data, Field, Model, Variant, VariantShape};

/// The lint passes over the model, in the order their findings are
/// reported; the `lint_cost` benchmark runs them alone.
pub fn run(model: &Model, diags: &mut Diagnostics) {
    let name = model.ident.to_string();
    let fields: Vec<&Field> = match &model.data {
        Data::Struct(fields) => fields.iter().collect(),
        Data::Newtype(_) => Vec::new(),
        Data::Enum(variants) => variants
            .iter()
            .flat_map(|v| match &v.shape {
                VariantShape::Struct(fields) => fields.iter().collect(),
                _ => Vec::new(),
            })
            .collect(),
    };
    for f in fields
        .iter()
        .filter(|f| f.default.is_some() && !f.optional && !f.serde.skip)
    {
        diags.lint(
            Finding {
                lint: LintId::DefaultOrRequired,
                span: f.default_span,
                subject: f.subject(&name),
                problem: "has a default but is required, so the default can never apply".into(),
                help: "make the field optional: `Option<T>` with `#[serde(default, skip_serializing_if = \"Option::is_none\")]`, or drop the default".into(),
            },
            &[&model.levels, &f.levels],
            Context::Any,
        );
    }
    if let Some(names) = &model.resource {
        super::check_kind_naming(&name, names, &model.levels, diags);
    }
    let k = &model.krate;
    let context = Context::of(model);
    let check =
        |type_name: &str, fields: &[Field], levels: &[&super::Levels], diags: &mut Diagnostics| {
            super::check_json_field_names(type_name, fields, levels, context, diags);
            super::check_fields(k, type_name, fields, levels, context, diags);
        };
    match &model.data {
        Data::Struct(fields) => check(&name, fields, &[&model.levels], diags),
        Data::Enum(variants) => {
            let all_unit = variants
                .iter()
                .all(|v| matches!(v.shape, VariantShape::Unit));
            for v in variants {
                match &v.shape {
                    VariantShape::Struct(fields) => {
                        let vname = format!("{name}::{}", v.ident);
                        check(&vname, fields, &[&model.levels, &v.levels], diags);
                    }
                    VariantShape::Newtype(f) => {
                        let vname = format!("{name}::{}", v.ident);
                        let shape = crate::model::shape::Shape::of(&f.ty);
                        let levels = [&model.levels, &v.levels];
                        super::type_layer(k, &vname, f, &shape, &levels, context, diags);
                    }
                    _ => {}
                }
                variant_names(model, &name, v, all_unit, context, diags);
            }
        }
        Data::Newtype(f) => {
            let shape = crate::model::shape::Shape::of(&f.ty);
            super::type_layer(k, &name, f, &shape, &[&model.levels], context, diags);
        }
    }
}

/// The JSON name and value lints of one enum variant: data variants of an
/// externally tagged union are properties (`json_field_names`); values of
/// a string enum or an internal tag are constants (`enum_values`).
fn variant_names(
    model: &Model,
    name: &str,
    v: &Variant,
    all_unit: bool,
    context: Context,
    diags: &mut Diagnostics,
) {
    let external = model.serde.tag.is_none() && model.serde.untagged.is_none();
    if external
        && !all_unit
        && !matches!(v.shape, VariantShape::Unit)
        && !super::naming::is_lower_camel(&v.json_name)
    {
        // Data variants become properties of the union's schema.
        diags.lint(
            Finding {
                lint: LintId::JsonFieldNames,
                span: v.span,
                subject: format!("{name}::{}", v.ident),
                problem: format!("JSON name `{}` is not lowerCamelCase (variants of a union are its fields)", v.json_name),
                help: format!("add `#[serde(rename_all = \"camelCase\")]` to `{name}`, or `#[serde(rename = \"{}\")]` to the variant", super::naming::to_lower_camel(&v.json_name)),
            },
            &[&model.levels, &v.levels],
            context,
        );
    }
    // Values of a string enum, or of an internal tag.
    let values = (all_unit && model.serde.untagged.is_none())
        || (model.serde.tag.is_some() && model.serde.content.is_none());
    if values && !super::is_enum_value(&v.json_name) {
        diags.lint(
            Finding {
                lint: LintId::EnumValues,
                span: v.span,
                subject: format!("{name}::{}", v.ident),
                problem: format!("value `{}` is not CamelCase", v.json_name),
                help: "enum values are CamelCase constants (`ForbidConcurrent`); rename the variant or give it `#[serde(rename = \"...\")]`".into(),
            },
            &[&model.levels, &v.levels],
            context,
        );
    }
}
