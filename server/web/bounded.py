"""Every JSON a REST request sends is read with its nesting depth and number length bounded
(`engine.boundedjson`) before the schema sees it.

flask-smorest reads request bodies through webargs, whose parser calls the standard
`json.loads`: a body of 1,000 nested arrays (2 KB) is a RecursionError there, an integer of
5,000 digits Python's int-digits ValueError, and either was a 500. `Blueprint` here is
flask-smorest's with a parser that reads through `boundedjson.loads`; what breaks a bound is
`400 bad_json` naming the limit (`details.limit`, `details.max`). `BoundedJSONProvider` does
the same for Flask's own `request.get_json`.
"""

from __future__ import annotations

import typing

import flask
from flask.json.provider import DefaultJSONProvider
from flask_smorest import Blueprint as SmorestBlueprint
from webargs import core
from webargs.flaskparser import FlaskParser, abort, is_json_request

from engine import boundedjson


class BoundedParser(FlaskParser):
    """webargs' Flask parser, reading JSON bodies with `boundedjson.loads`."""

    def _raw_load_json(self, req: flask.Request) -> typing.Any:
        if not is_json_request(req):
            return core.missing
        try:
            return boundedjson.loads(req.get_data(cache=True))
        except boundedjson.JsonLimitError as e:
            messages = {"json": [e.message]}
            if e.limit is None:
                abort(400, exc=e, messages=messages)
            abort(400, exc=e, messages=messages, limit=e.limit, bound=e.bound)


class Blueprint(SmorestBlueprint):
    """flask-smorest's blueprint, its request bodies read by `BoundedParser`."""

    ARGUMENTS_PARSER = BoundedParser()


class BoundedJSONProvider(DefaultJSONProvider):
    """Flask's JSON with `loads` bounded (`engine.boundedjson`); `dumps` unchanged."""

    def loads(self, s: str | bytes, **kwargs: typing.Any) -> typing.Any:
        return boundedjson.loads(s)
