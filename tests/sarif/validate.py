#!/usr/bin/env python3
"""validate.py SCHEMA FILE... — check JSON files against a JSON schema
(draft 04), for the keywords the SARIF 2.1.0 schema uses (README.md).
Prints one line per problem (at most 20 per file) and exits 1 if any.
Also importable: problems(schema, instance) -> list of strings."""
import json
import re
import sys

# Keywords checked, and those that only annotate.
CHECKED = {"$ref", "type", "enum", "properties", "required",
           "additionalProperties", "items", "minItems", "uniqueItems",
           "minimum", "maximum", "pattern", "format", "anyOf", "oneOf",
           "allOf"}
ANNOTATIONS = {"$schema", "id", "title", "description", "default",
               "definitions"}

# RFC 3986: a URI (scheme required) and a URI reference.
_PCHAR = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})"
_PART = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/?]|%[0-9A-Fa-f]{2})*"
_AUTH = r"(?:[A-Za-z0-9\-._~!$&'()*+,;=:@\[\]]|%[0-9A-Fa-f]{2})*"
_PATH = r"(?:%s|/)*" % _PCHAR
_HIER = r"(?://%s)?%s" % (_AUTH, _PATH)
URI = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:%s(?:\?%s)?(?:#%s)?$" % (_HIER, _PART, _PART))
URI_REF = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.\-]*:)?%s(?:\?%s)?(?:#%s)?$"
                     % (_HIER, _PART, _PART))
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?"
                       r"(?:[Zz]|[+-]\d{2}:\d{2})$")
FORMATS = {"uri": URI, "uri-reference": URI_REF, "date-time": DATE_TIME}


def _type_ok(v, t):
    if t == "object":
        return isinstance(v, dict)
    if t == "array":
        return isinstance(v, list)
    if t == "string":
        return isinstance(v, str)
    if t == "boolean":
        return isinstance(v, bool)
    if t == "null":
        return v is None
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    raise ValueError("unknown type %r in the schema" % t)


def _canon(v):
    """A form in which JSON-equal values are equal (1 != true)."""
    return json.dumps(v, sort_keys=True)


class Validator:
    def __init__(self, root):
        self.root = root

    def resolve(self, ref):
        if not ref.startswith("#/"):
            raise ValueError("only local $ref are supported: %r" % ref)
        node = self.root
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def check(self, v, s, where, out):
        unknown = set(s) - CHECKED - ANNOTATIONS
        if unknown:
            raise ValueError("schema keyword(s) not supported: %s"
                             % ", ".join(sorted(unknown)))
        if "$ref" in s:  # draft 04: the rest of the object is ignored
            return self.check(v, self.resolve(s["$ref"]), where, out)
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(_type_ok(v, t) for t in types):
                out.append("%s: %s is not of type %s"
                           % (where, _canon(v)[:60], "/".join(types)))
                return
        if "enum" in s and _canon(v) not in {_canon(e) for e in s["enum"]}:
            out.append("%s: %s is not one of %s"
                       % (where, _canon(v)[:60], _canon(s["enum"])[:80]))
        if isinstance(v, dict):
            self.check_object(v, s, where, out)
        if isinstance(v, list):
            self.check_array(v, s, where, out)
        if isinstance(v, str):
            if "pattern" in s and not re.search(s["pattern"], v):
                out.append("%s: %r does not match %r" % (where, v[:60], s["pattern"]))
            fmt = s.get("format")
            if fmt and fmt not in FORMATS:
                raise ValueError("format %r not supported" % fmt)
            if fmt and not FORMATS[fmt].match(v):
                out.append("%s: %r is not a valid %s" % (where, v[:80], fmt))
        if _type_ok(v, "number"):
            if "minimum" in s and v < s["minimum"]:
                out.append("%s: %s < minimum %s" % (where, v, s["minimum"]))
            if "maximum" in s and v > s["maximum"]:
                out.append("%s: %s > maximum %s" % (where, v, s["maximum"]))
        for sub in s.get("allOf", []):
            self.check(v, sub, where, out)
        if "anyOf" in s:
            if not any(not self.run(v, sub, where) for sub in s["anyOf"]):
                out.append("%s: matches none of anyOf" % where)
        if "oneOf" in s:
            n = sum(1 for sub in s["oneOf"] if not self.run(v, sub, where))
            if n != 1:
                out.append("%s: matches %d of oneOf, not exactly one" % (where, n))

    def check_object(self, v, s, where, out):
        for k in s.get("required", []):
            if k not in v:
                out.append("%s: required property %r missing" % (where, k))
        props = s.get("properties", {})
        extra = s.get("additionalProperties", True)
        for k, x in v.items():
            at = "%s.%s" % (where, k)
            if k in props:
                self.check(x, props[k], at, out)
            elif extra is False:
                out.append("%s: property not allowed" % at)
            elif isinstance(extra, dict):
                self.check(x, extra, at, out)

    def check_array(self, v, s, where, out):
        if len(v) < s.get("minItems", 0):
            out.append("%s: fewer than %d items" % (where, s["minItems"]))
        if s.get("uniqueItems") and len({_canon(x) for x in v}) != len(v):
            out.append("%s: items are not unique" % where)
        items = s.get("items")
        if isinstance(items, list):
            raise ValueError("tuple items not supported")
        for i, x in enumerate(v):
            if items is not None:
                self.check(x, items, "%s[%d]" % (where, i), out)

    def run(self, v, s, where):
        out = []
        self.check(v, s, where, out)
        return out


def problems(schema, instance):
    return Validator(schema).run(instance, schema, "$")


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    with open(argv[1]) as f:
        schema = json.load(f)
    bad = 0
    for path in argv[2:]:
        try:
            with open(path) as f:
                doc = json.load(f)
        except (OSError, ValueError) as e:
            print("%s: %s" % (path, e))
            bad += 1
            continue
        found = problems(schema, doc)
        for p in found[:20]:
            print("%s: %s" % (path, p))
        bad += bool(found)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
