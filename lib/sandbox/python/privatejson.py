"""JSON for the harness itself, out of user code's reach.

The harness reads requests, writes replies and serializes states in the same interpreter as
user code, which can replace `json.loads`, `json.JSONEncoder.encode` or `json.decoder`'s internals.
These are the C scanner and encoder, bound when the harness is imported (before any user code):
nothing user code changes later reaches them.
"""
import json.decoder
import json.encoder
import json.scanner
# Bound here, before any user code: user code may replace the builtins module's entries later.
from builtins import ImportError, StopIteration, TypeError, ValueError, bytes, len, str, type  # noqa: A004

_SCAN = json.scanner.c_make_scanner(json.decoder.JSONDecoder())
_ESCAPE = json.encoder.encode_basestring_ascii
_make_encoder = json.encoder.c_make_encoder
if _SCAN is None or _make_encoder is None:
    raise ImportError("the C json accelerator (_json) is required")


def make_encoder(default):
    """An encoder to text: compact, ASCII, no NaN; `default(value)` for non-JSON values (raise
    TypeError to refuse). No cycle check: a cycle ends in RecursionError."""
    encode = _make_encoder(None, default, _ESCAPE, None, ":", ",", False, False, False)

    def encode_text(value, _encode=encode, _join="".join, _str=str, _type=type):
        chunks = _encode(value, 0)
        return chunks if _type(chunks) is _str else _join(chunks)

    return encode_text


def _refuse(value):
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


dumps = make_encoder(_refuse)


def loads(text, _scan=_SCAN, _bytes=bytes, _type=type, _decode=bytes.decode, _strip=str.strip):
    """One JSON value from text or UTF-8 bytes; ValueError when it is not exactly that."""
    if _type(text) is _bytes:
        text = _decode(text, "utf-8")
    text = _strip(text)
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        raise ValueError("not JSON") from None
    if end != len(text):
        raise ValueError("extra data after the JSON value")
    return value
