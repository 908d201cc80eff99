#!/usr/bin/env python3
"""Records expression cases evaluated by the reference, MapLibre's style spec 24.8.0, as golden
files for the tests (which need neither node nor this script).

    python3 scripts/record-reference-expression-cases.py --style-spec-repo PATH

PATH is a checkout of maplibre/maplibre-style-spec (its HEAD's test/integration/expression/tests
are read). The reference is the bundle in ../shared/oracle/gl-style-validate (24.8.0), run by node
through the harness of the spec's own expression test suite at 24.8.0 (compile with
createPropertyExpression for the case's completed property spec, evaluate each input without error
handling, colors as [r, g, b, a], outputs cut to 6 significant digits). Written to
Tests/MapSimStyleTests/Expressions/Fixtures/reference-cases.jsonl:

- the upstream HEAD cases, but for `legacy/` (legacy functions), `distance/` and `within/`
  (geometry in tile coordinates), which the 557 cases of 24.8.0 already cover;
- cases of JavaScript's own rules: objects written with array-index keys first, strings compared
  by UTF-16 code units, `Object.prototype` names as match labels, a feature without a geometry type;
- cases generated at the edges: numbers (0, -0, 1e-7, 1e21, 1e300, NaN and infinities from
  arithmetic) through arithmetic, rgb/rgba/to-rgba, to-string, index-of, slice, zoom,
  interpolate-lab; every operator of one or two operands on every JSON type (null, booleans,
  strings, numbers, arrays, objects); global-state keys that are missing; and collators: pairs of
  strings whose order depends on the locale's tailoring, case and diacritics, compared in many
  locales (well-formed, aliased, unknown and malformed tags) with every sensitivity, constant and
  from a feature, and `resolved-locale` of each locale.
"""
import argparse, json, os, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(ROOT, "..", "shared", "oracle", "gl-style-validate", "gl-style-validate.cjs")
OUTPUT = os.path.join(ROOT, "Tests", "MapSimStyleTests", "Expressions", "Fixtures", "reference-cases.jsonl")

HARNESS = r"""
require('./spec.cjs');
const S = globalThis.__spec;
function strip(x, d = 6) {
  if (typeof x === 'number') { if (x === 0) return x; const m = Math.pow(10, Math.max(0, d - Math.ceil(Math.log10(Math.abs(x))))); const f = Math.floor(x * m) / m; return Math.floor(f * m) / m; }
  if (!x || typeof x !== 'object') return x;
  if (Array.isArray(x)) return x.map(v => strip(v, d));
  const o = {}; for (const k of Object.keys(x)) o[k] = strip(x[k], d); return o;
}
function spec(p) { const s = p === undefined ? {} : {...p}; if (!s['property-type']) s['property-type'] = 'data-driven'; if (!s['expression']) s['expression'] = {interpolated: true, parameters: ['zoom', 'feature']}; return s; }
function run(f) {
  const sp = spec(f.propertySpec);
  const e = S.createPropertyExpression(f.expression, sp, f.globalState);
  if (e.result === 'error') return {compiled: {result: 'error', errors: e.value.map(x => ({key: x.key, error: x.message}))}};
  const v = e.value, type = v._styleExpression.expression.type;
  const compiled = {result: 'success', isFeatureConstant: v.kind === 'constant' || v.kind === 'camera', isZoomConstant: v.kind === 'constant' || v.kind === 'source', type: S.toString(type)};
  const outputs = [];
  for (const input of f.inputs || []) {
    const {availableImages, canonicalID} = input[0], {featureState, geometry, id, properties} = input[1];
    const feature = {properties: properties ?? {}};
    if (id !== undefined) feature.id = id;
    if (geometry !== undefined) feature.type = geometry.type;
    try { let r = v.evaluateWithoutErrorHandling(input[0], feature, featureState ?? {}, canonicalID ?? null, availableImages ?? []); if (type.kind === 'color') r = [r.r, r.g, r.b, r.a]; outputs.push(r); }
    catch (x) { outputs.push({error: x.name === 'ExpressionEvaluationError' ? x.toJSON() : x.message}); }
  }
  return {compiled, outputs: strip(outputs)};
}
require('readline').createInterface({input: process.stdin}).on('line', l => { if (l.trim()) console.log(JSON.stringify(run(JSON.parse(l)))); });
"""


def reference_bundle(folder):
    text = open(ORACLE, encoding="utf-8").read().replace("#!/usr/bin/env node", "", 1)
    start = text.index("\tconst argv = minimist(process.argv.slice(2), {")
    end = text.index("\tfunction help() {")
    exports = "\tglobalThis.__spec = { createPropertyExpression, toString: typeToString };\n"
    with open(os.path.join(folder, "spec.cjs"), "w", encoding="utf-8") as f:
        f.write(text[:start] + exports + text[end:])
    with open(os.path.join(folder, "harness.cjs"), "w", encoding="utf-8") as f:
        f.write(HARNESS)


def upstream_cases(repo):
    files = subprocess.check_output(["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD", "test/integration/expression/tests"], text=True).split()
    for path in sorted(files):
        if not path.endswith("/test.json"):
            continue
        name = path[len("test/integration/expression/tests/"):-len("/test.json")]
        if name.split("/")[0] in ("legacy", "distance", "within"):
            continue
        case = json.loads(subprocess.check_output(["git", "-C", repo, "show", "HEAD:" + path], text=True))
        case.pop("expected", None)
        yield "upstream/" + name, case


def generated_cases():
    def case(expression, properties=None, zoom=None, state=None):
        c = {"expression": expression, "inputs": [[{"zoom": zoom} if zoom is not None else {}, {"properties": properties or {}}]]}
        if state is not None:
            c["globalState"] = state
        return c
    numbers = [0, -0.0, 1e-7, 1e21, -1e21, 1e300, 0.1, 255.5, 256, -1, 3, ["/", 1, 0], ["/", -1, 0], ["/", 0, 0], ["sqrt", -1],
               ["-", 0, 0], ["*", -1, 0], 123456789.123, 1.5e-300]
    for n in numbers:
        plain = n if not isinstance(n, list) else 1
        for e in (["/", n, 3], ["/", 3, n], ["floor", n], ["sqrt", n], ["to-string", n], ["to-string", ["/", n, 7]], ["rgb", n, 0, 0],
                  ["to-rgba", ["rgb", n, 10, 20]], ["rgba", 0, 0, 0, n], ["to-string", ["rgba", n, 1, 2, 0.5]], ["index-of", n, ["literal", [1, 2, 3]]],
                  ["index-of", "a", "abc", n], ["join", ["literal", ["a", "b"]], ["to-string", n]], ["is-supported-script", ["to-string", n]],
                  ["at", n, ["literal", [1, 2, 3]]], ["slice", "abcdef", n], ["round", n], ["ceil", n], ["abs", n], ["%", n, 3], ["^", n, 2],
                  ["ln", n], ["log10", n], ["to-color", ["to-string", n]], ["==", ["typeof", n], "number"]):
            yield "edge/" + json.dumps(e), case(e)
        yield "edge/zoom " + json.dumps(n), case(["zoom"], zoom=plain)
        yield "edge/interpolate-lab " + json.dumps(n), case(["interpolate-lab", ["linear"], ["zoom"], 0, "red", 10, "blue"], zoom=plain)
        yield "edge/to-string of a property " + json.dumps(n), case(["to-string", ["get", "x"]], {"x": plain})
    values = [None, True, False, "str", "", "12", "#f00", "rgba(1,2,3,0.5)", 1, 0, -2.5, 1e21, [1, 2], ["a", "b"], [], {"a": 1}, {}]
    unary = ["floor", "sqrt", "abs", "ceil", "round", "ln", "to-number", "to-string", "to-boolean", "to-color", "typeof", "string", "number",
             "boolean", "object", "array", "length", "upcase", "downcase", "is-supported-script", "to-rgba", "!", "-", "log2", "sin"]
    binary = ["+", "-", "*", "/", "%", "^", "==", "!=", "<", ">=", "index-of", "in", "at", "slice", "concat", "max", "min", "coalesce", "split", "join"]
    for op in unary:
        for v in values:
            yield f"types/{op} {json.dumps(v)}", case([op, ["get", "a"]], {"a": v})
    for op in binary:
        for v in values:
            for w in [None, 2, "s", [1, 2], "#0f0"]:
                yield f"types/{op} {json.dumps(v)} {json.dumps(w)}", case([op, ["get", "a"], ["get", "b"]], {"a": v, "b": w})
    for v in values:
        for e in (["interpolate-lab", ["linear"], ["zoom"], 0, ["to-color", ["get", "a"]], 10, "blue"], ["interpolate-hcl", ["linear"], ["get", "a"], 0, "red", 10, "blue"],
                  ["interpolate", ["linear"], ["get", "a"], 0, 0, 10, 100], ["step", ["get", "a"], 0, 5, 1], ["match", ["get", "a"], "str", 1, 1, 2, 0],
                  ["case", ["get", "a"], 1, 0], ["number-format", ["get", "a"], {}], ["rgb", ["get", "a"], 0, 0], ["rgba", 0, 0, 0, ["get", "a"]]):
            yield f"types/{json.dumps(e)} {json.dumps(v)}", case(e, {"a": v}, zoom=3)
    missing = [["==", ["global-state", "x"], None], ["!=", ["global-state", "x"], None], ["typeof", ["global-state", "x"]],
               ["to-string", ["global-state", "x"]], ["coalesce", ["global-state", "x"], 5], ["==", ["global-state", "x"], ["global-state", "z"]],
               ["case", ["global-state", "x"], 1, 2], ["to-boolean", ["global-state", "x"]], ["number", ["global-state", "x"], 3], ["string", ["global-state", "x"]],
               ["==", ["global-state", "x"], "a"], ["to-number", ["global-state", "x"]], ["match", ["global-state", "x"], "a", 1, 2],
               ["to-color", ["global-state", "x"]]]
    for e in missing:
        for state in ({"y": True}, {}):
            yield f"global-state/{json.dumps(e)} {json.dumps(state)}", case(e, state=state)
    # JavaScript's own rules: an object's keys in its enumeration order (array indices first) when
    # written; strings as UTF-16 code units, never canonically equivalent; the names a plain object
    # has already as match labels; undefined from a feature without a geometry type.
    for o in [{"x y": 1, "0": 2}, {"b": 1, "10": 2, "2": 3, "a": 4}, {"-1": 1, "1": 2}, {"01": 1, "1": 2}, {"4294967295": 1, "4294967294": 2, "3": 3},
              {"z": {"2": 1, "1": 2}}]:
        for e in (["to-string", ["literal", o]], ["concat", "x", ["get", "o"]], ["to-string", ["literal", [o]]]):
            yield f"javascript/{json.dumps(e)} {json.dumps(o)}", case(e, {"o": o})
    for a, b in [("é", "e\u0301"), ("Å", "\u212b"), ("Ω", "\u2126")]:
        for e in (["match", ["get", "a"], [a], 1, [b], 2, 0], ["match", ["get", "a"], a, 1, 0], ["==", ["get", "a"], ["get", "b"]],
                  ["!=", ["get", "a"], ["get", "b"]], ["<", ["get", "a"], ["get", "b"]], ["in", ["get", "b"], ["literal", [a]]],
                  ["get", b], ["interpolate-lab", ["linear"], ["match", ["get", "a"], [a], 1, [b], 2, 0], 0, "red", 2, "blue"]):
            yield f"javascript/{json.dumps(e)}", case(e, {"a": b, "b": a, a: 1})
    for label in ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf", "toLocaleString", "x"]:
        yield f"javascript/match label {label}", case(["match", ["get", "a"], [label], 1, 0], {"a": label})
    for e in (["index-of", ["geometry-type"], "abc"], ["index-of", "a", ["geometry-type"]], ["in", ["geometry-type"], "abc"], ["slice", ["geometry-type"], 1],
              ["length", ["geometry-type"]], ["==", ["geometry-type"], ["get", "nope"]], [">", ["geometry-type"], 1], ["concat", "a", ["geometry-type"]],
              ["concat", ["global-state", "x"], "b"]):
        yield f"javascript/{json.dumps(e)}", case(e, state={"y": 1})
    rng = __import__("random").Random(8)
    for _ in range(40):
        colors = ["rgba(%d,%d,%d,%.3f)" % (rng.randint(0, 255), rng.randint(0, 255), rng.randint(0, 255), rng.random()) for _ in range(2)]
        for kind in ("interpolate-hcl", "interpolate-lab"):
            yield f"javascript/{kind} {colors}", case([kind, ["linear"], ["zoom"], 0, colors[0], 10, colors[1]], zoom=round(rng.uniform(0, 10), 4))
    locales = ["de", "de-DE", "de-CH", "de-AT", "de-u-co-phonebk", "sv", "sv-SE", "da", "dk", "nb", "no", "fi", "fr", "fr-CA", "es", "es-ES-u-co-trad",
               "en", "en-GB", "en-US", "en-US-POSIX", "tr", "lt", "cs", "pl", "hu", "et", "is", "ja", "zh", "zh-TW", "zh-Hant", "zh-CN", "ko", "th",
               "ar", "he", "iw", "tl", "sh", "cmn", "eng", "DE", "xx", "und", "art-lojban", "en-u-kn", "en-u-kf-upper", "en-u-kn-false",
               "root", "de_DE", "x-foo", "en-GB-oed", "de-", "de-1996-1996", "en-a-xx-a-yy", "abcd", "", " de", "zh-min-nan"]
    pairs = [["ä", "a"], ["ä", "ae"], ["ä", "z"], ["å", "z"], ["ö", "o"], ["ø", "o"], ["æ", "ae"], ["ch", "h"], ["ch", "d"], ["cz", "ch"],
             ["ı", "i"], ["I", "ı"], ["i", "İ"], ["ll", "lz"], ["ñ", "n"], ["ñ", "o"], ["é", "e"], ["e\u0301", "é"], ["a", "A"], ["B", "a"],
             ["côte", "coté"], ["x10", "x9"], ["ß", "ss"], ["Straße", "strasse"], ["ĳ", "ij"], ["y", "ü"], ["w", "v"], ["þ", "z"], ["đ", "d"],
             ["ё", "е"], ["か", "カ"], ["a-b", "ab"], ["a b", "ab"], ["", "a"], ["1", "a"]]
    for locale in locales:
        for sensitive in ([False, False], [True, False], [False, True], [True, True]):
            collator = {"case-sensitive": sensitive[0], "diacritic-sensitive": sensitive[1], "locale": locale}
            for op in ("==", "<", ">="):
                e = [op, ["get", "a"], ["get", "b"], ["collator", collator]]
                c = {"expression": e, "inputs": [[{}, {"properties": {"a": a, "b": b}}] for a, b in pairs]}
                yield f"collator/{op} {json.dumps(collator)}", c
        yield f"collator/resolved-locale {json.dumps(locale)}", case(["resolved-locale", ["collator", {"locale": locale}]])
        yield f"collator/resolved-locale from a feature {json.dumps(locale)}", case(["resolved-locale", ["collator", {"locale": ["get", "l"]}]], {"l": locale})
        yield f"collator/constant {json.dumps(locale)}", case(["<", "ä", "z", ["collator", {"locale": locale}]])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--style-spec-repo", required=True)
    args = parser.parse_args()
    cases = list(upstream_cases(args.style_spec_repo)) + list(generated_cases())
    with tempfile.TemporaryDirectory() as folder:
        reference_bundle(folder)
        lines = "".join(json.dumps(c) + "\n" for _, c in cases)
        results = subprocess.run(["node", os.path.join(folder, "harness.cjs")], input=lines, capture_output=True, text=True, check=True).stdout.split("\n")
    with open(OUTPUT, "w", encoding="utf-8") as out:
        for (name, case), result in zip(cases, results):
            record = {"name": name}
            record.update(case)
            record["expected"] = json.loads(result)
            out.write(json.dumps(record, separators=(",", ":")) + "\n")
    print(f"{len(cases)} cases written to {os.path.relpath(OUTPUT, ROOT)}")


if __name__ == "__main__":
    sys.exit(main())
