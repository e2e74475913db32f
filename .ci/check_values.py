#!/usr/bin/env python3
"""Checks generated example values against their own CRD schemas with the
`jsonschema` package (an independent validator).

The Rust test `api-core-tests/tests/schema_values.rs` writes one file per
kind: the CRD's openAPIV3Schema and values, each marked with the verdict of
the generated Rust validation. Every value Rust accepts must be accepted by
the schema. Values Rust rejects may still pass here, since `jsonschema` does
not know the Kubernetes extensions (list-map keys, CEL rules); they are
counted, not failed.
"""
import json
import sys
from pathlib import Path

from jsonschema import Draft4Validator


def main(directory: str) -> int:
    files = sorted(Path(directory).glob("*.json"))
    if not files:
        print(f"no value files in {directory}", file=sys.stderr)
        return 1
    failures = 0
    for path in files:
        doc = json.loads(path.read_text())
        validator = Draft4Validator(doc["schema"])
        accepted = rejected_by_both = rust_only = 0
        for i, case in enumerate(doc["cases"]):
            errors = list(validator.iter_errors(case["value"]))
            if case["valid"]:
                if errors:
                    failures += 1
                    print(f"{doc['kind']} case {i}: Rust accepts it, the schema does not:")
                    for e in errors[:5]:
                        print(f"  {'/'.join(map(str, e.absolute_path))}: {e.message}")
                else:
                    accepted += 1
            elif errors:
                rejected_by_both += 1
            else:
                rust_only += 1
        print(
            f"{doc['kind']}: {accepted} accepted by both, {rejected_by_both} rejected by both, "
            f"{rust_only} rejected only by Rust (Kubernetes extensions)"
        )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
