"""Message bodies: reading requests, Discord's limits, attachments, edits.

Discord rejects what breaks its limits with 400 / 50035 "Invalid Form Body";
so does the fake, so a bot that would fail in production fails here too.
"""

from __future__ import annotations

import json
import mimetypes
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from aiohttp import web

from .errors import EMPTY_MESSAGE, ApiError, invalid_form
from .models import (
    EPHEMERAL,
    IS_COMPONENTS_V2,
    JSON,
    SUPPRESS_EMBEDS,
    SUPPRESS_NOTIFICATIONS,
    StoredAttachment,
    StoredMessage,
    UploadedFile,
    json_copy,
)

BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
SELECTS = frozenset({3, 5, 6, 7, 8})
LINK_STYLE = 5
PREMIUM_STYLE = 6
V2_TOP_LEVEL = frozenset({1, 9, 10, 12, 13, 14, 17})
CHILD_KEYS = ("components", "accessory", "component")

Problems = dict[str, str]
AttachmentFactory = Callable[[UploadedFile, JSON], StoredAttachment]


@dataclass
class Body:
    """A request body: its JSON part and any uploaded files."""

    payload: JSON
    files: list[UploadedFile] = field(default_factory=list)

    def part(self, key: str) -> Body:
        """The `data` (or other) sub-object, sharing the uploaded files."""
        inner = self.payload.get(key)
        return Body(inner if isinstance(inner, dict) else {}, self.files)


async def read_body(request: web.Request) -> Body:
    """Read a JSON or multipart (`payload_json` + `files[n]`) request body."""
    if request.content_type.startswith("multipart/"):
        return await _read_multipart(request)
    text = await request.text()
    return Body(json.loads(text) if text else {})


async def _read_multipart(request: web.Request) -> Body:
    form = await request.post()
    raw = form.get("payload_json")
    payload = json.loads(raw) if isinstance(raw, str) else {}
    files: list[UploadedFile] = []
    for key, value in form.items():
        match = re.fullmatch(r"files\[(\d+)\]", key)
        if match is None or not isinstance(value, web.FileField):
            continue
        guessed = mimetypes.guess_type(value.filename)[0]
        content_type = guessed or value.content_type or "application/octet-stream"
        files.append(UploadedFile(int(match[1]), value.filename, value.file.read(), content_type))
    return Body(payload, files)


@dataclass
class Draft:
    """The fields of a message about to be created or edited, before validation."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    attachments: list[StoredAttachment]
    flags: int


def draft_for_create(body: Body, make: AttachmentFactory) -> Draft:
    p = body.payload
    return Draft(
        content=p.get("content") or "",
        embeds=[_normalize_embed(e) for e in p.get("embeds") or []],
        components=normalize_components(p.get("components") or []),
        attachments=_attachments([], p.get("attachments"), body.files, make),
        flags=(p.get("flags") or 0) & (SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2),
    )


def draft_for_edit(message: StoredMessage, body: Body, make: AttachmentFactory) -> Draft:
    """Fields present in the body replace the message's; absent ones stay."""
    p = body.payload
    draft = Draft(
        content=message.content,
        embeds=message.embeds,
        components=message.components,
        attachments=_attachments(message.attachments, p.get("attachments"), body.files, make),
        flags=message.flags,
    )
    if "content" in p:
        draft.content = p["content"] or ""
    if "embeds" in p:
        draft.embeds = [_normalize_embed(e) for e in p["embeds"] or []]
    if "components" in p:
        draft.components = normalize_components(p["components"] or [])
    if "flags" in p:
        kept = message.flags & (EPHEMERAL | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2)
        draft.flags = kept | ((p["flags"] or 0) & (SUPPRESS_EMBEDS | IS_COMPONENTS_V2))
    return draft


def check_draft(draft: Draft, *, creating: bool) -> None:
    """Raise the ApiError Discord would answer for this message, if any."""
    empty = not (draft.content or draft.embeds or draft.components or draft.attachments)
    if creating and empty:
        raise ApiError(400, EMPTY_MESSAGE, "Cannot send an empty message")
    problems: Problems = {}
    if len(draft.content) > 2000:
        problems["content"] = "Must be 2000 or fewer in length."
    problems.update(_check_embeds(draft.embeds))
    problems.update(_check_components(draft.components, v2=bool(draft.flags & IS_COMPONENTS_V2)))
    if draft.flags & IS_COMPONENTS_V2 and (draft.content or draft.embeds):
        problems["content"] = "content and embeds cannot be used with IS_COMPONENTS_V2"
    if problems:
        raise invalid_form(problems)


def apply_draft(message: StoredMessage, draft: Draft) -> None:
    message.content = draft.content
    message.embeds = draft.embeds
    message.components = draft.components
    message.attachments = draft.attachments
    message.flags = draft.flags
    _resolve_attachment_urls(message)


def _attachments(
    existing: list[StoredAttachment],
    refs: list[JSON] | None,
    files: list[UploadedFile],
    make: AttachmentFactory,
) -> list[StoredAttachment]:
    """Discord's rule: an `attachments` list keeps only the listed old files."""
    by_index = {f.index: f for f in files}
    if refs is None:
        return [*existing, *(make(f, {}) for f in files)]
    old = {a.id: a for a in existing}
    kept: list[StoredAttachment] = []
    new: list[StoredAttachment] = []
    for ref in refs:
        ref_id = int(ref["id"])
        if ref_id in old:
            kept.append(old[ref_id])
        elif ref_id in by_index:
            new.append(make(by_index.pop(ref_id), ref))
        else:
            raise invalid_form({"attachments": f"unknown attachment id {ref_id}"})
    new.extend(make(f, {}) for f in by_index.values())
    return kept + new


def _resolve_attachment_urls(message: StoredMessage) -> None:
    """`attachment://name` in embeds becomes the stored file's URL, as on Discord."""
    urls = {a.filename: a.url for a in message.attachments}
    for embed in message.embeds:
        for key, url_key in (
            ("image", "url"),
            ("thumbnail", "url"),
            ("author", "icon_url"),
            ("footer", "icon_url"),
        ):
            part = embed.get(key)
            if isinstance(part, dict):
                url = part.get(url_key)
                if isinstance(url, str) and url.startswith("attachment://"):
                    resolved = urls.get(url.removeprefix("attachment://"))
                    if resolved is not None:
                        part[url_key] = resolved
                        part["proxy_url"] = resolved


def _normalize_embed(embed: JSON) -> JSON:
    embed = json_copy(embed)
    embed.setdefault("type", "rich")
    return embed


def normalize_components(components: list[JSON]) -> list[JSON]:
    """Deep copy, numbering every component (`id`) the way Discord echoes them."""
    result = json_copy(components)
    used = {c["id"] for c in walk_components(result) if isinstance(c.get("id"), int)}
    next_id = 1
    for component in walk_components(result):
        if "id" not in component:
            while next_id in used:
                next_id += 1
            component["id"] = next_id
            used.add(next_id)
    return result


def walk_components(components: list[JSON]) -> Iterator[JSON]:
    """Every component, depth first (rows, sections, containers, labels)."""
    for component in components:
        yield component
        for key in CHILD_KEYS:
            child = component.get(key)
            if isinstance(child, list):
                yield from walk_components(child)
            elif isinstance(child, dict):
                yield from walk_components([child])


def _check_embeds(embeds: list[JSON]) -> Problems:
    problems: Problems = {}
    if len(embeds) > 10:
        problems["embeds"] = "Must be 10 or fewer in length."
    total = 0
    for i, embed in enumerate(embeds):
        for path, text, limit in _embed_texts(embed):
            total += len(text)
            if len(text) > limit:
                problems[f"embeds.{i}.{path}"] = f"Must be {limit} or fewer in length."
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems[f"embeds.{i}.fields"] = "Must be 25 or fewer in length."
        for j, embed_field in enumerate(fields):
            if not embed_field.get("name") or not embed_field.get("value"):
                problems[f"embeds.{i}.fields.{j}"] = "name and value are required"
    if total > 6000:
        problems["embeds"] = "Embed size exceeds maximum size of 6000"
    return problems


def _embed_texts(embed: JSON) -> Iterator[tuple[str, str, int]]:
    yield "title", str(embed.get("title") or ""), 256
    yield "description", str(embed.get("description") or ""), 4096
    yield "footer.text", str((embed.get("footer") or {}).get("text") or ""), 2048
    yield "author.name", str((embed.get("author") or {}).get("name") or ""), 256
    for j, embed_field in enumerate(embed.get("fields") or []):
        yield f"fields.{j}.name", str(embed_field.get("name") or ""), 256
        yield f"fields.{j}.value", str(embed_field.get("value") or ""), 1024


def _check_components(components: list[JSON], *, v2: bool) -> Problems:
    problems: Problems = {}
    if v2:
        problems.update(_check_v2_layout(components))
    else:
        problems.update(_check_v1_layout(components))
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if isinstance(custom_id, str):
            if custom_id in seen:
                problems[f"components.custom_id.{custom_id}"] = (
                    "Component custom id cannot be duplicated"
                )
            seen.add(custom_id)
    return problems


def _check_v1_layout(rows: list[JSON]) -> Problems:
    problems: Problems = {}
    if len(rows) > 5:
        problems["components"] = "Must be 5 or fewer in length."
    for i, row in enumerate(rows):
        path = f"components.{i}"
        if row.get("type") != 1:
            problems[f"{path}.type"] = (
                "top-level components must be action rows without IS_COMPONENTS_V2"
            )
            continue
        problems.update(_check_row(row, path))
    return problems


def _check_v2_layout(components: list[JSON]) -> Problems:
    problems: Problems = {}
    if sum(1 for _ in walk_components(components)) > 40:
        problems["components"] = "Must be 40 or fewer components in total."
    for i, component in enumerate(components):
        if component.get("type") not in V2_TOP_LEVEL:
            problems[f"components.{i}.type"] = "not allowed at the top level"
    for component in walk_components(components):
        if component.get("type") == 1:
            problems.update(_check_row(component, f"components.row.{component.get('id')}"))
    return problems


def _check_row(row: JSON, path: str) -> Problems:
    children: list[JSON] = row.get("components") or []
    problems: Problems = {}
    if not children:
        problems[f"{path}.components"] = "an action row needs at least one component"
    if any(c.get("type") in SELECTS for c in children) and len(children) > 1:
        problems[f"{path}.components"] = "a select menu must be alone in its action row"
    if len(children) > 5:
        problems[f"{path}.components"] = "Must be 5 or fewer in length."
    for j, child in enumerate(children):
        problems.update(check_item(child, f"{path}.components.{j}"))
    return problems


def check_item(item: JSON, path: str) -> Problems:
    """Limits on one interactive component (button, select, text input)."""
    kind = item.get("type")
    if kind == BUTTON:
        return _check_button(item, path)
    if kind in SELECTS:
        return _check_select(item, path)
    if kind == TEXT_INPUT:
        return _check_text_input(item, path)
    return {}


def _too_long(item: JSON, key: str, limit: int, path: str) -> Problems:
    value = item.get(key)
    if isinstance(value, str) and len(value) > limit:
        return {f"{path}.{key}": f"Must be {limit} or fewer in length."}
    return {}


def _check_button(item: JSON, path: str) -> Problems:
    problems = {**_too_long(item, "label", 80, path), **_too_long(item, "custom_id", 100, path)}
    style = item.get("style")
    if style == LINK_STYLE:
        if not item.get("url") or "custom_id" in item:
            problems[f"{path}.url"] = "link buttons need a url and no custom_id"
    elif style != PREMIUM_STYLE and not item.get("custom_id"):
        problems[f"{path}.custom_id"] = "This field is required"
    if style != PREMIUM_STYLE and not (item.get("label") or item.get("emoji")):
        problems[f"{path}.label"] = "a button needs a label or an emoji"
    return problems


def _check_select(item: JSON, path: str) -> Problems:
    problems = {
        **_too_long(item, "custom_id", 100, path),
        **_too_long(item, "placeholder", 150, path),
    }
    if not item.get("custom_id"):
        problems[f"{path}.custom_id"] = "This field is required"
    low, high = item.get("min_values", 1), item.get("max_values", 1)
    if not 0 <= low <= high <= 25:
        problems[f"{path}.max_values"] = f"bad min_values/max_values {low}/{high}"
    if item.get("type") == STRING_SELECT:
        problems.update(_check_options(item.get("options") or [], high, path))
    return problems


def _check_options(options: list[JSON], max_values: int, path: str) -> Problems:
    problems: Problems = {}
    if not 1 <= len(options) <= 25:
        problems[f"{path}.options"] = "Must be between 1 and 25 in length."
    if max_values > len(options):
        problems[f"{path}.max_values"] = "max_values is larger than the number of options"
    values = [o.get("value") for o in options]
    if len(set(values)) != len(values):
        problems[f"{path}.options"] = "option values must be unique"
    for k, option in enumerate(options):
        for key in ("label", "value", "description"):
            problems.update(_too_long(option, key, 100, f"{path}.options.{k}"))
    return problems


def _check_text_input(item: JSON, path: str) -> Problems:
    problems = {
        **_too_long(item, "custom_id", 100, path),
        **_too_long(item, "label", 45, path),
        **_too_long(item, "placeholder", 100, path),
        **_too_long(item, "value", 4000, path),
    }
    if item.get("style") not in (1, 2):
        problems[f"{path}.style"] = "text input style must be 1 or 2"
    return problems


def check_modal(data: JSON) -> None:
    """Validate a MODAL (type 9) response's data."""
    problems: Problems = {
        **_too_long(data, "custom_id", 100, "data"),
        **_too_long(data, "title", 45, "data"),
    }
    components = data.get("components") or []
    if not data.get("custom_id") or not data.get("title"):
        problems["data"] = "a modal needs a custom_id and a title"
    if not 1 <= len(components) <= 5:
        problems["data.components"] = "Must be between 1 and 5 in length."
    for i, component in enumerate(walk_components(components)):
        problems.update(check_item(component, f"data.components.{i}"))
    if problems:
        raise invalid_form(problems)
