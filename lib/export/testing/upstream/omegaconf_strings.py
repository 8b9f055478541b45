"""Minimal re-implementation of how OmegaConf reads a string value, written from omry/omegaconf
v2.3.0 (identical in 2.1 to 2.4.0dev; OmegaConf cannot be installed here):
- omegaconf/_utils.py _is_interpolation_string: a string without "${" is returned as it is;
- omegaconf/grammar/OmegaConfGrammarLexer.g4 DEFAULT_MODE: ESC_INTER = (\\\\)* \\${, TOP_ESC = (\\\\)+,
  other backslashes, a lone $ and any other text are literal, "${" opens an interpolation;
- omegaconf/grammar_visitor.py _unescape: ESC_INTER keeps half of its backslash pairs and "${";
  TOP_ESC is halved only when an interpolation follows it.
An interpolation would be resolved (a node, an env variable, a registered resolver such as eval):
here it raises, so a test sees any string OmegaConf would not give back as written.
"""
import re

_TOKEN = re.compile(r"(?P<esc_inter>(?:\\\\)*\\\$\{)|(?P<inter>\$\{)|(?P<top_esc>(?:\\\\)+)|(?P<other>\\|\$|[^\\$]+)")


class Interpolation(Exception):
    pass


def resolve(value: str) -> str:
    if "${" not in value:
        return value
    tokens = [(m.lastgroup, m.group()) for m in _TOKEN.finditer(value)]
    out = []
    for i, (kind, text) in enumerate(tokens):
        following = tokens[i + 1][0] if i + 1 < len(tokens) else None
        if kind == "inter":
            raise Interpolation(f"OmegaConf would resolve an interpolation in {value!r}")
        if kind == "esc_inter":
            out.append(text[-(len(text) // 2 + 1):])
        elif kind == "top_esc" and following == "inter":
            out.append(text[1::2])
        else:
            out.append(text)
    return "".join(out)


def resolve_values(node):
    """Every string value of a loaded YAML document as OmegaConf gives it back (keys are never resolved)."""
    if isinstance(node, dict):
        return {k: resolve_values(v) for k, v in node.items()}
    if isinstance(node, list):
        return [resolve_values(v) for v in node]
    return resolve(node) if isinstance(node, str) else node
