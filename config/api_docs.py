"""The public API, described: the OpenAPI 3.1 document of every public ``/api/v1/`` endpoint
(``config/openapi.yaml``, docs/contracts.md "OpenAPI description") and its readable page.

- ``GET /api/v1/openapi.json`` — the document as JSON (``application/json``), the stable
  address bots and sites read;
- ``GET /api/v1/docs/`` — the same document as a server-rendered page (no script, no CDN:
  it works offline), one section per endpoint with its parameters, body and the fields of
  each response.

The YAML file is read once per process (:func:`document`). ``tests/config/test_openapi.py``
validates it with ``openapi-spec-validator``, checks every documented response against what
the endpoint returns (``jsonschema``), and fails when a public ``/api/v1/`` URL is missing.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from pathlib import Path

import yaml
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_safe

SOURCE = Path(__file__).with_name("openapi.yaml")
METHODS = ("get", "post", "put", "patch", "delete")
# The documentation's own addresses: they describe the API, they are not part of it.
META_PATHS = ("/api/v1/openapi.json", "/api/v1/docs/")


@functools.cache
def document() -> dict:
    """The OpenAPI document (a dict, read from ``config/openapi.yaml`` once). Callers must
    not change it: :func:`openapi_json` serves a serialised copy."""
    return yaml.safe_load(SOURCE.read_text("utf-8"))


@functools.cache
def _document_bytes() -> bytes:
    return json.dumps(document(), ensure_ascii=False, indent=1).encode("utf-8")


CODE = re.compile(r"`([^`]+)`")


def prose(text: str) -> SafeString:
    """A description for the page: escaped, with its `code` spans as ``<code>``."""
    return mark_safe(CODE.sub(r"<code>\1</code>", escape(text or "")))  # noqa: S308 escaped


def resolve(node: dict, doc: dict | None = None) -> dict:
    """``node`` with its local ``$ref`` (``#/components/…``) followed, as many times as
    needed; any other node unchanged."""
    doc = doc if doc is not None else document()
    while isinstance(node, dict) and "$ref" in node:
        target = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _type_label(schema: dict) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        label = " | ".join(kind)
    elif kind:
        label = kind
    elif "$ref" in schema:
        label = "object"
    else:
        label = "any"
    if "enum" in schema:
        label += ": " + ", ".join(json.dumps(v) for v in schema["enum"])
    if "format" in schema:
        label += f" ({schema['format']})"
    return label


def _merged(schema: dict, doc: dict) -> dict:
    """A schema with its ``allOf`` / ``oneOf`` members' properties merged in (for display)."""
    schema = resolve(schema, doc)
    parts = [schema] + [resolve(s, doc) for s in schema.get("allOf", [])]
    parts += [resolve(s, doc) for s in schema.get("oneOf", [])]
    merged = copy.copy(schema)
    props: dict = {}
    required: list = []
    for part in parts:
        props.update(part.get("properties", {}))
        required += part.get("required", []) if part is schema else []
    merged["properties"] = props
    merged["required"] = required
    return merged


def fields(schema: dict, prefix: str = "", depth: int = 0, doc: dict | None = None) -> list[dict]:
    """The fields of a schema as rows ``{"name", "type", "required", "description"}`` for
    the page; nested objects as ``rows[].rank``, maps as ``teams{}``; at most 5 levels."""
    doc = doc if doc is not None else document()
    schema = _merged(schema, doc)
    rows: list[dict] = []
    for name, sub in schema.get("properties", {}).items():
        sub = resolve(sub, doc)
        full = f"{prefix}{name}"
        rows.append(
            {
                "name": full,
                "type": _type_label(sub),
                "required": name in schema.get("required", []),
                "description": prose(sub.get("description", "")),
            }
        )
        if depth >= 4:
            continue
        items = resolve(sub.get("items", {}), doc)
        values = sub.get("additionalProperties")
        if "properties" in _merged(sub, doc) and _merged(sub, doc)["properties"]:
            rows += fields(sub, f"{full}.", depth + 1, doc)
        elif isinstance(items, dict) and _merged(items, doc)["properties"]:
            rows += fields(items, f"{full}[].", depth + 1, doc)
        elif isinstance(values, dict) and _merged(values, doc)["properties"]:
            rows += fields(values, f"{full}{{}}.", depth + 1, doc)
    return rows


def operations(doc: dict | None = None) -> list[dict]:
    """Every documented operation, in the document's order, ready for the page: ``path``,
    ``method``, ``anchor``, ``summary``, ``description``, ``tags``, ``parameters``,
    ``body`` (fields and example, or None) and ``responses`` (status, description, fields,
    example)."""
    doc = doc if doc is not None else document()
    out = []
    for path, item in doc["paths"].items():
        for method in METHODS:
            op = item.get(method)
            if op is None:
                continue
            body = None
            if "requestBody" in op:
                media = resolve(op["requestBody"], doc)["content"]["application/json"]
                body = {
                    "fields": fields(media["schema"], doc=doc),
                    "example": _example(media),
                }
            responses = []
            for status, response in op["responses"].items():
                response = resolve(response, doc)
                media = response.get("content", {}).get("application/json", {})
                responses.append(
                    {
                        "status": status,
                        "description": prose(response.get("description", "")),
                        "fields": fields(media["schema"], doc=doc) if "schema" in media else [],
                        "example": _example(media),
                    }
                )
            out.append(
                {
                    "path": path,
                    "method": method.upper(),
                    "anchor": op.get("operationId", f"{method}-{path}"),
                    "summary": op.get("summary", ""),
                    "description": prose(op.get("description", "")),
                    "tags": op.get("tags", []),
                    "parameters": [
                        {
                            **resolve(p, doc),
                            "type": _type_label(resolve(p, doc).get("schema", {})),
                            "description": prose(resolve(p, doc).get("description", "")),
                        }
                        for p in op.get("parameters", [])
                    ],
                    "body": body,
                    "responses": responses,
                }
            )
    return out


def _example(media: dict) -> str:
    if "example" not in media:
        return ""
    return json.dumps(media["example"], ensure_ascii=False, indent=1)


@require_safe
def openapi_json(request):
    """``GET /api/v1/openapi.json`` — the OpenAPI 3.1 document (public, cacheable)."""
    response = HttpResponse(_document_bytes(), content_type="application/json")
    response["Cache-Control"] = "public, max-age=3600"
    response["Access-Control-Allow-Origin"] = "*"
    return response


@require_safe
def docs_page(request):
    """``GET /api/v1/docs/`` — the document as a readable page, server-rendered (no CDN)."""
    doc = document()
    ops = operations(doc)
    tags = [
        {
            **tag,
            "description": prose(tag.get("description", "")),
            "operations": [op for op in ops if tag["name"] in op["tags"]],
        }
        for tag in doc.get("tags", [])
    ]
    return render(
        request,
        "api/docs.html",
        {
            "info": {**doc["info"], "description": prose(doc["info"].get("description", ""))},
            "openapi_version": doc["openapi"],
            "tags": [t for t in tags if t["operations"]],
            "ops": ops,
        },
    )
