"""The API's paths, built in one place, each variable segment percent-encoded."""

import urllib.parse
from typing import Optional, Union


def quote(segment: str) -> str:
    return urllib.parse.quote(segment, safe="")


def queue_path(queue: str, rest: str = "") -> str:
    return "/v1/queues/" + quote(queue) + rest


def job_path(queue: str, id: str, rest: str = "") -> str:
    return queue_path(queue, "/jobs/" + quote(id) + rest)


def schedule_path(queue: str, id: str, rest: str = "") -> str:
    return queue_path(queue, "/schedules/" + quote(id) + rest)


def query(**params: Optional[Union[str, int, bool]]) -> str:
    """``?a=1&b=x`` of the parameters that are not ``None`` (booleans as ``true``/``false``), or ``""``."""
    pairs = {k: (str(v).lower() if isinstance(v, bool) else str(v)) for k, v in params.items() if v is not None}
    return "?" + urllib.parse.urlencode(pairs) if pairs else ""
