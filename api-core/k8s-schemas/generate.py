#!/usr/bin/env python3
"""Generates the schemas api-core gives k8s-openapi's types (feature `k8s-openapi`).

For every Kubernetes version k8s-openapi supports, this reads the Go types
of k8s.io/api and k8s.io/apimachinery at that version and writes the
structural schema controller-gen would write for each of them, following
controller-gen's rules (sigs.k8s.io/controller-tools v0.21, `pkg/crd`):

- a field is required unless it is `omitempty`, inline, or marked
  `+optional`, `+k8s:optional` or `+kubebuilder:validation:Optional`
  (`+required`, `+k8s:required`, `+kubebuilder:validation:Required` force it);
  `required` is sorted;
- descriptions are the Go doc comments with marker lines dropped, lines
  starting with `TODO` dropped, everything after a `---` line dropped, and
  lines joined with newlines; a field's doc wins over its type's;
- the markers controller-gen knows are applied: `+listType`, `+listMapKey`,
  `+mapType`, `+structType`, `+default=<json>` (not `ref(...)`),
  `+kubebuilder:default`, `+kubebuilder:validation:*`, `+nullable`,
  `+k8s:immutable`, `+k8s:enum`; every other marker (`+enum`, `+k8s:maxItems`,
  `+featureGate`, ...) is ignored, as controller-gen ignores it;
- its known types: `metav1.ObjectMeta` is `type: object`, `Time` and
  `MicroTime` are date-time strings, `Duration` a string, `Quantity` and
  `IntOrString` int-or-string (Quantity with its pattern), `RawExtension` a
  preserved object;
- `[]byte` is a `format: byte` string; int32/int64 carry their format;
  named types are inlined.

The output, per version, is `../src/k8s/schemas/v1_XX.json`: one JSON
object mapping OpenAPI definition names (`io.k8s.api.core.v1.Container`,
the names k8s-openapi's types have) to schemas in which other struct types
appear as `{"$ref": "<definition>", ...field keywords}`; api-core resolves
the references (the field's keywords, its description first, win over the
type's). `../src/k8s/types.rs` lists the k8s-openapi types with the
versions that have them.

Usage (the mirrors are git clones of kubernetes/api and
kubernetes/apimachinery; K8S_OPENAPI is the unpacked k8s-openapi crate):

    python3 api-core/k8s-schemas/generate.py \\
        --api /path/to/kubernetes-api.git \\
        --apimachinery /path/to/kubernetes-apimachinery.git \\
        --k8s-openapi ~/.cargo/registry/src/*/k8s-openapi-0.29.0

Standard library only.
"""

import argparse
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "src", "k8s")

# Kubernetes minor version -> the k8s.io/api and k8s.io/apimachinery
# revisions. 1.37 had no release tag in the mirrors used: the commits are
# the newest of its development (2026-07-24), which lack three DRA types
# (`resource.*.DeviceDerivedAttribute`) that k8s-openapi 0.29's v1_37 has;
# those three get no `ApiType` under `v1_37`.
VERSIONS = {
    33: ("v0.33.0", "v0.33.0"),
    34: ("v0.34.0", "v0.34.0"),
    35: ("v0.35.0", "v0.35.0"),
    36: ("v0.36.0", "v0.36.0"),
    37: ("10b39a39bcee995dfe7cd5e8e7b922be5e46f1e2", "eed236ceee2c19c2753a3d93ac0631dc20750454"),
}

QUANTITY_PATTERN = (
    r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|"
    r"([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
)
INT_OR_STRING = [{"type": "integer"}, {"type": "string"}]

# controller-gen's KnownPackages (pkg/crd/known_types.go).
KNOWN = {
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "ObjectMeta"): {"type": "object"},
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Time"): {"type": "string", "format": "date-time"},
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "MicroTime"): {"type": "string", "format": "date-time"},
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Duration"): {"type": "string"},
    ("k8s.io/apimachinery/pkg/apis/meta/v1", "Fields"): {"type": "object", "additionalProperties": True},
    ("k8s.io/apimachinery/pkg/api/resource", "Quantity"): {
        "anyOf": INT_OR_STRING,
        "pattern": QUANTITY_PATTERN,
        "x-kubernetes-int-or-string": True,
    },
    ("k8s.io/apimachinery/pkg/runtime", "RawExtension"): {
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": True,
    },
    ("k8s.io/apimachinery/pkg/apis/meta/v1/unstructured", "Unstructured"): {"type": "object"},
    ("k8s.io/apimachinery/pkg/util/intstr", "IntOrString"): {
        "anyOf": INT_OR_STRING,
        "x-kubernetes-int-or-string": True,
    },
}

# k8s-openapi types that are not values: `Patch` (the body of a PATCH,
# any bytes) has no `Deserialize`.
SKIPPED = {"io.k8s.apimachinery.pkg.apis.meta.v1.Patch"}

BUILTINS = {
    "bool": {"type": "boolean"},
    "string": {"type": "string"},
    "int": {"type": "integer"},
    "int8": {"type": "integer"},
    "int16": {"type": "integer"},
    "int32": {"type": "integer", "format": "int32"},
    "int64": {"type": "integer", "format": "int64"},
    "uint": {"type": "integer"},
    "uint8": {"type": "integer"},
    "byte": {"type": "integer"},
    "uint16": {"type": "integer"},
    "uint32": {"type": "integer", "format": "int32"},
    "uint64": {"type": "integer", "format": "int64"},
    # controller-gen refuses floats unless allowDangerousTypes is set, as it
    # must be for a CRD embedding a type that has one.
    "float32": {"type": "number"},
    "float64": {"type": "number"},
}


def definition_name(pkg_path, name):
    """`k8s.io/api/core/v1`, `Pod` -> `io.k8s.api.core.v1.Pod` (OpenAPI's naming)."""
    host, _, rest = pkg_path.partition("/")
    rev = ".".join(reversed(host.split(".")))
    return f"{rev}.{rest.replace('/', '.')}.{name}"


# ----------------------------------------------------------------- Go source


class Git:
    """Reads files of one tag of a git repository."""

    def __init__(self, git_dir, tag):
        self.git_dir = git_dir
        self.tag = tag
        out = subprocess.run(
            ["git", "--git-dir", git_dir, "ls-tree", "-r", "--name-only", tag],
            check=True, capture_output=True, text=True,
        ).stdout
        self.files = out.split("\n")

    def package_files(self, rel_dir):
        prefix = rel_dir + "/" if rel_dir else ""
        for f in self.files:
            if not f.startswith(prefix) or not f.endswith(".go"):
                continue
            tail = f[len(prefix):]
            if "/" in tail or tail.endswith("_test.go"):
                continue
            if tail.startswith("zz_generated") or tail.startswith("generated.") or "swagger_doc" in tail:
                continue
            yield f

    def read(self, path):
        return subprocess.run(
            ["git", "--git-dir", self.git_dir, "show", f"{self.tag}:{path}"],
            check=True, capture_output=True, text=True,
        ).stdout


class Field:
    def __init__(self, name, type_expr, tag, doc, markers):
        self.name = name  # None for an embedded field
        self.type_expr = type_expr
        self.tag = tag
        self.doc = doc
        self.markers = markers


class TypeDecl:
    def __init__(self, pkg, name, kind, doc, markers, fields=None, underlying=None):
        self.pkg = pkg
        self.name = name
        self.kind = kind  # "struct", "named" or "alias"
        self.doc = doc
        self.markers = markers
        self.fields = fields or []
        self.underlying = underlying
        self.broken = None  # a field line that could not be parsed


class Package:
    def __init__(self, path):
        self.path = path
        self.types = {}
        self.imports = {}  # alias -> path, over all files (aliases agree in practice)
        self.consts = {}  # type name -> [string values]
        self.json_marshalers = set()
        self.text_marshalers = set()


MARKER_RE = re.compile(r"^\+([a-zA-Z0-9:_.\-]+)(?:=(.*))?$")


def comment_text(line):
    """The text of a `//` comment line as go/ast's CommentGroup.Text() keeps it."""
    s = line.strip()
    assert s.startswith("//")
    s = s[2:]
    if s.startswith(" "):
        s = s[1:]
    return s.rstrip()


def is_directive(text):
    return re.match(r"^[a-z0-9]+:[a-z0-9]", text) is not None


def parse_markers(lines):
    """Markers of comment lines: (name, raw value or None)."""
    out = []
    for line in lines:
        text = line.strip()
        if not text.startswith("//"):
            continue
        text = text[2:].strip()
        if not text.startswith("+"):
            continue
        m = MARKER_RE.match(text.split(" ")[0] if "=" not in text else text)
        if m:
            out.append((m.group(1), m.group(2)))
    return out


def extract_doc(lines):
    """controller-gen's extractDoc (pkg/markers/zip.go) for `//` comments."""
    kept = [l for l in lines if not l.strip()[2:].strip().startswith("+")]
    texts = []
    for l in kept:
        t = comment_text(l)
        if is_directive(t):
            continue
        texts.append(t)
    # CommentGroup.Text(): leading and trailing empty lines removed, runs of
    # empty lines reduced to one.
    while texts and texts[0] == "":
        texts.pop(0)
    while texts and texts[-1] == "":
        texts.pop()
    squeezed = []
    for t in texts:
        if t == "" and squeezed and squeezed[-1] == "":
            continue
        squeezed.append(t)
    out = []
    in_code = False
    for line in squeezed:
        if line.startswith("```") or line.startswith("~~~"):
            in_code = not in_code
        if not in_code:
            if line.startswith("TODO"):
                continue
            if line.startswith("---"):
                break
        out.append(line)
    return "\n".join(out)


def strip_line_comment(code):
    """Code before a trailing `//` comment, outside string literals."""
    in_str = None
    i = 0
    while i < len(code):
        c = code[i]
        if in_str:
            if c == "\\" and in_str == '"':
                i += 2
                continue
            if c == in_str:
                in_str = None
        elif c in "\"`'":
            in_str = c
        elif code.startswith("//", i):
            return code[:i].rstrip()
        i += 1
    return code.rstrip()


def normalize_block_comments(lines):
    """Rewrites `/* ... */` comment lines as `//` lines (trimmed, as
    controller-gen trims asterisk comments)."""
    out = []
    inside = False
    for line in lines:
        s = line.strip()
        if not inside and s.startswith("/*"):
            inside = not s.endswith("*/") or s == "/*"
            body = s[2:]
            if body.endswith("*/"):
                body = body[:-2]
            out.append("// " + body.strip() if body.strip() else "//")
            continue
        if inside:
            if s.endswith("*/"):
                inside = False
                s = s[:-2].strip()
            out.append("// " + s if s else "//")
            continue
        out.append(line)
    return out


def parse_file(pkg, text):
    lines = normalize_block_comments(text.split("\n"))
    n = len(lines)
    i = 0
    groups = []  # comment groups since the last declaration: lists of lines
    current = []
    blank_after = False

    def take_comments():
        """(doc lines, marker-only lines of the group before the doc)."""
        nonlocal groups, current
        doc = current
        prev = groups[-1] if groups else []
        groups, current = [], []
        return doc, prev

    while i < n:
        raw = lines[i]
        s = raw.strip()
        if s.startswith("//"):
            if blank_after and current:
                groups.append(current)
                current = []
            current.append(s)
            blank_after = False
            i += 1
            continue
        if s == "":
            if current:
                groups.append(current)
                current = []
            blank_after = True
            i += 1
            continue
        blank_after = False
        if s.startswith("import ("):
            i += 1
            while lines[i].strip() != ")":
                parse_import(pkg, lines[i].strip())
                i += 1
            i += 1
            groups, current = [], []
            continue
        if s.startswith("import "):
            parse_import(pkg, s[len("import "):])
            i += 1
            continue
        if s.startswith("type ("):
            i += 1
            groups, current = [], []
            while lines[i].strip() != ")":
                t = lines[i].strip()
                if t.startswith("//"):
                    current.append(t)
                    i += 1
                    continue
                if t == "":
                    if current:
                        groups.append(current)
                        current = []
                    i += 1
                    continue
                doc, prev = take_comments()
                i = parse_type_spec(pkg, lines, i, t, doc, prev)
            i += 1
            continue
        if s.startswith("type "):
            doc, prev = take_comments()
            i = parse_type_spec(pkg, lines, i, s[len("type "):], doc, prev)
            continue
        if s.startswith("const ("):
            i += 1
            while lines[i].strip() != ")":
                parse_const(pkg, strip_line_comment(lines[i].strip()))
                i += 1
            i += 1
            groups, current = [], []
            continue
        if s.startswith("const "):
            parse_const(pkg, strip_line_comment(s[len("const "):]))
        m = re.match(r"^func \(\w*\s*(\*?)(\w+)\) (MarshalJSON|MarshalText)\(", s)
        if m:
            # Only value receivers put the method in the type's method set.
            if m.group(1) == "":
                (pkg.json_marshalers if m.group(3) == "MarshalJSON" else pkg.text_marshalers).add(m.group(2))
        # Skip the rest of this top-level construct (function bodies, vars).
        depth = raw.count("{") - raw.count("}")
        i += 1
        while depth > 0 and i < n:
            depth += lines[i].count("{") - lines[i].count("}")
            i += 1
        groups, current = [], []
    return pkg


def parse_import(pkg, s):
    s = strip_line_comment(s)
    if not s:
        return
    m = re.match(r'^(?:(\w+|\.|_)\s+)?"([^"]+)"$', s)
    if not m:
        return
    path = m.group(2)
    alias = m.group(1) or path.rsplit("/", 1)[-1]
    pkg.imports[alias] = path


def parse_const(pkg, s):
    m = re.match(r'^(\w+)\s+(\w+)\s*=\s*"((?:[^"\\]|\\.)*)"$', s)
    if m:
        pkg.consts.setdefault(m.group(2), []).append(json.loads('"' + m.group(3) + '"'))


def parse_type_spec(pkg, lines, i, spec, doc, prev):
    """Parses `Name struct {`, `Name Expr` or `Name = Expr` starting at line i."""
    markers = parse_markers(prev) + parse_markers(doc)
    m = re.match(r"^(\w+)\s+struct\s*\{\s*(\})?", spec)
    if m:
        name = m.group(1)
        fields = []
        if m.group(2):
            pkg.types[name] = TypeDecl(pkg, name, "struct", doc, markers, fields)
            return i + 1
        i += 1
        fgroups, fcur = [], []
        broken = None
        while lines[i].strip() != "}":
            t = lines[i].strip()
            if t.startswith("//"):
                fcur.append(t)
                i += 1
                continue
            if t == "":
                if fcur:
                    fgroups.append(fcur)
                    fcur = []
                i += 1
                continue
            fdoc, fprev = fcur, (fgroups[-1] if fgroups else [])
            fgroups, fcur = [], []
            field = parse_field(t)
            if field is None:
                # Not an API type (func-typed fields, nested literals): an
                # error only if an API type uses it.
                broken = t
                depth = t.count("{") - t.count("}")
                i += 1
                while depth > 0:
                    depth += lines[i].count("{") - lines[i].count("}")
                    i += 1
                continue
            field.doc = fdoc
            field.markers = parse_markers(fprev) + parse_markers(fdoc)
            fields.append(field)
            i += 1
        pkg.types[name] = TypeDecl(pkg, name, "struct", doc, markers, fields)
        pkg.types[name].broken = broken
        return i + 1
    m = re.match(r"^(\w+)\s*=\s*(\S+)$", strip_line_comment(spec))
    if m:
        pkg.types[m.group(1)] = TypeDecl(pkg, m.group(1), "alias", doc, markers, underlying=m.group(2))
        return i + 1
    m = re.match(r"^(\w+)\s+(\S+)$", strip_line_comment(spec))
    if m:
        pkg.types[m.group(1)] = TypeDecl(pkg, m.group(1), "named", doc, markers, underlying=m.group(2))
        return i + 1
    # interfaces and other shapes that are not API types: skip their body.
    depth = lines[i].count("{") - lines[i].count("}")
    i += 1
    while depth > 0:
        depth += lines[i].count("{") - lines[i].count("}")
        i += 1
    return i


def parse_field(line):
    tag = None
    m = re.search(r"`([^`]*)`", line)
    if m:
        tag = m.group(1)
        line = line[: m.start()] + line[m.end():]
    line = strip_line_comment(line).strip()
    parts = line.split()
    if len(parts) == 1:
        return Field(None, parts[0], tag, [], [])
    if len(parts) == 2:
        return Field(parts[0], parts[1], tag, [], [])
    return None


def json_tag(tag):
    if tag is None:
        return None
    m = re.search(r'json:"([^"]*)"', tag)
    return m.group(1) if m else None


# ---------------------------------------------------------------- schemas


class Universe:
    """The Go packages of one version, loaded on demand."""

    def __init__(self, api, apimachinery):
        self.sources = {"k8s.io/api": api, "k8s.io/apimachinery": apimachinery}
        self.packages = {}
        self.definitions = {}  # definition name -> schema (with $refs)
        self.pending = []

    def package(self, path):
        if path in self.packages:
            return self.packages[path]
        for root, git in self.sources.items():
            if path == root or path.startswith(root + "/"):
                rel = path[len(root) + 1:]
                pkg = Package(path)
                for f in git.package_files(rel):
                    parse_file(pkg, git.read(f))
                self.packages[path] = pkg
                return pkg
        raise SystemExit(f"no source for package {path}")

    def lookup(self, pkg, ident):
        """The (package, TypeDecl) an identifier of `pkg` names."""
        if "." in ident:
            alias, name = ident.split(".", 1)
            path = pkg.imports.get(alias)
            if path is None:
                raise SystemExit(f"{pkg.path}: unknown import {alias} in {ident}")
            other = self.package(path)
            return other, name
        return pkg, ident

    # -- type expressions (controller-gen's typeToSchema)

    def expr_schema(self, pkg, expr):
        if expr.startswith("*"):
            return self.expr_schema(pkg, expr[1:])
        if expr.startswith("[]"):
            elem = expr[2:]
            if elem in ("byte", "uint8"):
                return {"type": "string", "format": "byte"}
            return {"type": "array", "items": self.expr_schema(pkg, elem)}
        if expr.startswith("map["):
            depth = 0
            for j, c in enumerate(expr):
                if c == "[":
                    depth += 1
                elif c == "]":
                    depth -= 1
                    if depth == 0:
                        break
            value = expr[j + 1:]
            return {"type": "object", "additionalProperties": self.expr_schema(pkg, value)}
        if expr in BUILTINS:
            return dict(BUILTINS[expr])
        if expr in ("interface{}", "any"):
            raise SystemExit(f"{pkg.path}: interface type in an API type")
        target_pkg, name = self.lookup(pkg, expr)
        return self.named_ref(target_pkg, name)

    def named_ref(self, pkg, name):
        """A reference to a named type; named non-struct types are inlined."""
        known = KNOWN.get((pkg.path, name))
        if known is not None:
            return json.loads(json.dumps(known))
        decl = pkg.types.get(name)
        if decl is None:
            raise SystemExit(f"unknown type {pkg.path}.{name}")
        if decl.kind == "alias":
            target_pkg, target = self.lookup(pkg, decl.underlying)
            return self.named_ref(target_pkg, target)
        if decl.kind == "struct" and name not in pkg.json_marshalers:
            defname = definition_name(pkg.path, name)
            if defname not in self.definitions:
                self.definitions[defname] = None  # reserved: breaks cycles
                self.definitions[defname] = self.type_schema(decl)
            return {"$ref": defname}
        # A named scalar, list or map type: inline it with its own doc and
        # markers; the field's doc replaces the description.
        return self.type_schema(decl)

    def type_schema(self, decl):
        """controller-gen's infoToSchema for a declared type."""
        pkg = decl.pkg
        if decl.name in pkg.json_marshalers:
            schema = {}
            apply_markers(schema, decl.markers, pkg, decl)
            if "type" in schema:
                return with_doc(schema, decl.doc)
            # no schema markers: traverse the type as if it had no marshaler
        elif decl.name in pkg.text_marshalers:
            schema = {"type": "string"}
            apply_markers(schema, decl.markers, pkg, decl)
            return with_doc(schema, decl.doc)
        if decl.kind == "struct":
            schema = self.struct_schema(decl)
        else:
            schema = self.expr_schema(pkg, decl.underlying)
        schema = with_doc(schema, decl.doc)
        apply_markers(schema, decl.markers, pkg, decl)
        return schema

    def struct_schema(self, decl):
        pkg = decl.pkg
        if decl.broken:
            raise SystemExit(f"{pkg.path}.{decl.name}: cannot parse field line {decl.broken!r}")
        props = {}
        required = []
        inlined = []
        immutable = []
        for f in decl.fields:
            tag = json_tag(f.tag)
            if tag is None:
                if f.name is not None and not f.name[0].isupper():
                    continue  # unexported
                raise SystemExit(f"{pkg.path}.{decl.name}: field {f.name or f.type_expr} has no json tag")
            opts = tag.split(",")
            if len(opts) == 1 and opts[0] == "-":
                continue
            name = opts[0]
            inline = "inline" in opts[1:] or name == ""
            omitempty = "omitempty" in opts[1:]
            marker_names = {m for m, _ in f.markers}
            if field_required(marker_names, inline, omitempty):
                required.append(name)
            schema = self.expr_schema(pkg, f.type_expr)
            doc = extract_doc(f.doc)
            if "$ref" in schema:
                if doc:
                    schema["description"] = doc
            elif doc:
                schema["description"] = doc
            else:
                schema.pop("description", None)
            apply_markers(schema, f.markers, pkg, decl, field=True)
            if inline:
                inlined.append(schema)
                continue
            if "k8s:immutable" in marker_names:
                immutable.append(name)
            props[name] = schema
        schema = {"type": "object"}
        if props:
            schema["properties"] = props
        for part in inlined:
            # controller-gen puts inline members in allOf and flattens it
            # (flattenAllOfInto): properties and required merge, the map
            # type and preserve-unknown-fields of the member win, rules
            # append, docs stay the parent's, anything else fills a gap.
            part = self.resolve(part)
            for k, v in part.items():
                if k in ("description", "title", "example", "externalDocs"):
                    continue
                if k == "properties":
                    for name, prop in v.items():
                        schema.setdefault("properties", {})[name] = prop
                elif k == "required":
                    required.extend(v)
                elif k in ("x-kubernetes-map-type", "x-kubernetes-preserve-unknown-fields"):
                    schema[k] = v
                elif k == "x-kubernetes-validations":
                    schema[k] = v + schema.get(k, [])
                elif k not in schema:
                    schema[k] = v
                elif schema[k] != v:
                    raise SystemExit(f"{pkg.path}.{decl.name}: inline member conflicts on {k}")
        if required:
            schema["required"] = sorted(set(required))
        rules = [
            {"message": f"field {n} is immutable once set", "rule": f"!has(oldSelf.{n}) || has(self.{n})"}
            for n in immutable
            if n not in required
        ]
        if rules:
            schema["x-kubernetes-validations"] = rules
        return schema

    def resolve(self, schema):
        """A schema with its top-level $ref resolved (for inlined structs)."""
        if "$ref" not in schema:
            return schema
        base = json.loads(json.dumps(self.definitions[schema["$ref"]]))
        for k, v in schema.items():
            if k != "$ref":
                base[k] = v
        return base


def field_required(markers, inline, omitempty):
    """controller-gen's rule (structToSchema): explicit markers first, in
    its order of precedence; otherwise required unless inline or
    `omitempty` (`omitzero` does not count)."""
    if "kubebuilder:validation:Optional" in markers:
        return False
    if "kubebuilder:validation:Required" in markers:
        return True
    if "optional" in markers or "k8s:optional" in markers:
        return False
    if "required" in markers or "k8s:required" in markers:
        return True
    return not inline and not omitempty


def with_doc(schema, doc_lines):
    doc = extract_doc(doc_lines)
    if doc:
        schema["description"] = doc
    return schema


def marker_string(raw):
    """A string marker argument: `raw`, "quoted" or bare."""
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] == "`":
        return raw[1:-1]
    if raw.startswith('"'):
        return json.loads(raw)
    return raw


def marker_json(raw):
    """A marker value as controller-gen reads it (JSON, or a bare string)."""
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except json.JSONDecodeError:
        return raw


def schema_type(schema):
    """The schema's `type` as controller-gen sees it when it applies
    markers: `None` for a reference, `""` for none."""
    if "type" in schema:
        return schema["type"]
    if "$ref" in schema:
        return None
    return ""


def apply_markers(schema, markers, pkg, decl, field=False):
    """The markers controller-gen applies to a schema, in its priority order."""
    by_name = {}
    for name, value in markers:
        by_name.setdefault(name, []).append(value)
    # listType before listMapKey (ApplyPriorityDefault - 1); +default before
    # +kubebuilder:default, which wins.
    t = schema_type(schema)
    if "listType" in by_name and t == "array":
        schema["x-kubernetes-list-type"] = by_name["listType"][-1]
    if "listMapKey" in by_name and t == "array" and schema.get("x-kubernetes-list-type") == "map":
        schema["x-kubernetes-list-map-keys"] = list(by_name["listMapKey"])
    if "mapType" in by_name and t == "object":
        schema["x-kubernetes-map-type"] = by_name["mapType"][-1]
    if "structType" in by_name and t in ("object", ""):
        schema["x-kubernetes-map-type"] = by_name["structType"][-1]
    if "nullable" in by_name:
        schema["nullable"] = True
    for raw in by_name.get("default", []):
        if raw is not None and not raw.strip().startswith("ref("):
            try:
                value = json.loads(raw)
            except json.JSONDecodeError:
                continue
            if value is not None:
                schema["default"] = value
    for raw in by_name.get("kubebuilder:default", []):
        value = marker_json(raw)
        if value == {} and t == "array":
            value = []
        schema["default"] = value
    for name, values in by_name.items():
        if not name.startswith("kubebuilder:validation:"):
            continue
        key = name[len("kubebuilder:validation:"):]
        raw = values[-1]
        if key in ("MaxLength", "MinLength", "MaxItems", "MinItems", "MaxProperties", "MinProperties"):
            schema[key[0].lower() + key[1:]] = int(raw)
        elif key in ("Maximum", "Minimum", "MultipleOf"):
            v = marker_json(raw)
            schema[key.lower() if key != "MultipleOf" else "multipleOf"] = v
        elif key == "Pattern":
            schema["pattern"] = marker_string(raw)
        elif key == "Type":
            schema["type"] = marker_string(raw)
        elif key == "Enum":
            schema["enum"] = [marker_json(x) for x in raw.split(";")]
        elif key == "Format":
            schema["format"] = marker_string(raw)
        elif key in ("Required", "Optional"):
            pass
        else:
            raise SystemExit(f"{pkg.path}.{decl.name}: marker +{name} is not handled")
    if "k8s:immutable" in by_name:
        schema.setdefault("x-kubernetes-validations", []).append(
            {"message": "field is immutable", "rule": "self == oldSelf"}
        )
    if "k8s:enum" in by_name and not field:
        values = sorted(pkg.consts.get(decl.name, []), key=lambda v: json.dumps(v))
        if values:
            schema["type"] = "string"
            schema["enum"] = values


# ------------------------------------------------------------ k8s-openapi


def k8s_openapi_types(crate_dir, minor):
    """(rust path, definition name) of every type of k8s-openapi's v1_XX."""
    root = os.path.join(crate_dir, "src", f"v1_{minor}")
    out = []
    for dirpath, _, files in os.walk(root):
        for f in files:
            if not f.endswith(".rs"):
                continue
            text = open(os.path.join(dirpath, f)).read()
            for m in re.finditer(
                r"impl crate::schemars::JsonSchema for (\w+) \{\s*fn schema_name\(\) -> std::borrow::Cow<'static, str> \{\s*\"([^\"]+)\"",
                text,
            ):
                rel = os.path.relpath(dirpath, root).replace(os.sep, "::")
                out.append((f"{rel}::{m.group(1)}", m.group(2)))
    return sorted(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--api", required=True, help="git dir of kubernetes/api")
    ap.add_argument("--apimachinery", required=True, help="git dir of kubernetes/apimachinery")
    ap.add_argument("--k8s-openapi", required=True, help="the k8s-openapi crate's directory")
    ap.add_argument("--only", type=int, help="one minor version")
    ap.add_argument("--no-write", action="store_true")
    args = ap.parse_args()

    os.makedirs(os.path.join(OUT_DIR, "schemas"), exist_ok=True)
    presence = {}  # (rust path, definition) -> [minor versions]
    kinds = {}  # definition -> (facts kind, flags), from the newest version
    for minor, (api_rev, machinery_rev) in VERSIONS.items():
        if args.only and minor != args.only:
            continue
        tag = api_rev[:12]
        universe = Universe(Git(args.api, api_rev), Git(args.apimachinery, machinery_rev))
        wanted = k8s_openapi_types(args.k8s_openapi, minor)
        missing = []
        for rust, defname in wanted:
            if not defname.startswith("io.k8s.api.") and not defname.startswith("io.k8s.apimachinery."):
                continue
            if defname in SKIPPED:
                continue
            pkg_part, _, name = defname.rpartition(".")
            root, rest = (
                ("k8s.io/api", pkg_part[len("io.k8s.api."):])
                if pkg_part.startswith("io.k8s.api.")
                else ("k8s.io/apimachinery", pkg_part[len("io.k8s.apimachinery."):])
            )
            path = root + "/" + rest.replace(".", "/")
            pkg = universe.package(path)
            if (pkg.path, name) not in KNOWN and name not in pkg.types:
                missing.append(defname)
                continue
            schema = universe.named_ref(pkg, name)
            if schema != {"$ref": defname}:
                # a known type, or a named type of another package's type
                universe.definitions[defname] = schema
            kinds[defname] = facts_kind(universe.resolve(universe.definitions[defname]))
            presence.setdefault((rust, defname), []).append(minor)
        if missing:
            print(f"1.{minor}: {len(missing)} definitions without Go source: {missing}", file=sys.stderr)
        defs = {k: v for k, v in sorted(universe.definitions.items())}
        print(f"1.{minor} ({tag}): {len(defs)} definitions", file=sys.stderr)
        if not args.no_write:
            with open(os.path.join(OUT_DIR, "schemas", f"v1_{minor}.json"), "w") as out:
                out.write("{\n")
                items = list(defs.items())
                for j, (k, v) in enumerate(items):
                    sep = "," if j + 1 < len(items) else ""
                    out.write(f"{json.dumps(k)}:{json.dumps(v, sort_keys=True, separators=(',', ':'))}{sep}\n")
                out.write("}\n")
    if not args.no_write and not args.only:
        write_types(presence, kinds)


def facts_kind(schema):
    """The `facts::Kind` (and flags) of a definition's schema."""
    if schema.get("x-kubernetes-int-or-string"):
        return "IntOrString", "0"
    t = schema.get("type")
    if t == "string":
        return "String", "facts::TIME" if schema.get("format") == "date-time" else "0"
    if t == "object":
        if "additionalProperties" in schema and "properties" not in schema:
            return "Map", "0"
        return "Object", "facts::ATOMIC" if schema.get("x-kubernetes-map-type") == "atomic" else "0"
    if t is None and schema.get("x-kubernetes-preserve-unknown-fields"):
        return "Any", "0"
    return {"integer": "Integer", "boolean": "Boolean", "array": "Array", "number": "Number"}[t], "0"


def gate(minors):
    """The k8s-openapi version range of `minors` (contiguous) as a gate."""
    all_minors = sorted(VERSIONS)
    if minors == all_minors:
        return "all"
    lo, hi = min(minors), max(minors)
    if minors != list(range(lo, hi + 1)):
        raise SystemExit(f"types present in non-contiguous versions are not supported: {minors}")
    parts = []
    if lo > all_minors[0]:
        parts.append(f"ge_1_{lo}")
    if hi < all_minors[-1]:
        parts.append(f"le_1_{hi}")
    return " ".join(parts)


def write_types(presence, kinds):
    lines = [
        "// @generated by api-core/k8s-schemas/generate.py: do not edit.",
        "//",
        "// Every k8s-openapi type of k8s.io/api and k8s.io/apimachinery: its",
        "// OpenAPI definition name, the facts kind and flags of its schema, and",
        "// the Kubernetes versions that have it (`all`, `ge_1_XX`, `le_1_XX`).",
        "",
        "k8s_types! {",
    ]
    for (rust, defname), minors in sorted(presence.items()):
        kind, flags = kinds[defname]
        lines.append(f"    [{gate(minors)}] {rust} => \"{defname}\", {kind}, {flags};")
    lines.append("}")
    with open(os.path.join(OUT_DIR, "types.rs"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
